/**
 * The built-in conference's tiles: our camera, and one per other participant with their video, or their
 * avatar while their camera is off, and a muted-microphone mark while they are muted.
 */
import { useEffect, useRef, useState } from 'react';
import type { MeetingParticipant } from '../../../common/realtime';
import { Avatar } from '../../ui/Avatar';
import { Spinner } from '../../ui/Spinner';
import { MicOffIcon } from '../../ui/icons';
import type { RemotePeer } from './mesh';
import styles from './room.module.css';

interface LocalTileProps {
  name: string;
  avatar: string | null;
  stream: MediaStream | null;
  asking: boolean;
  blurred: MediaStreamTrack | null;
  audio: boolean;
  video: boolean;
}

export function LocalTile({ name, avatar, stream, asking, blurred, audio, video }: LocalTileProps) {
  return (
    <figure className={styles.tile}>
      {stream ? <LocalVideo stream={stream} blurred={blurred} hidden={!video} /> : asking ? <Spinner label="Starting your camera" /> : null}
      {stream && !video && <Avatar name={name} src={avatar} size={64} />}
      <figcaption className={styles.caption}>
        {name} (you){!audio && ' · muted'}
        {!video && ' · camera off'}
      </figcaption>
    </figure>
  );
}

interface RemoteTileProps {
  userId: number;
  person: MeetingParticipant | undefined;
  peer: RemotePeer;
  onKick: (() => void) | null;
}

export function RemoteTile({ userId, person, peer, onKick }: RemoteTileProps) {
  const name = person?.name ?? 'Participant';
  const { stream, media } = peer;
  return (
    <figure className={styles.tile} data-participant={userId}>
      {/* Kept while the camera is off: the same element plays their sound. */}
      {stream && <RemoteVideo stream={stream} userId={userId} hidden={!media.video} />}
      {(!stream || !media.video) && <Avatar name={name} src={person?.avatar ?? null} size={64} />}
      <figcaption className={styles.caption}>
        {!media.audio && (
          <span className={styles.mutedMic} role="img" aria-label="Microphone off">
            <MicOffIcon size={14} />
          </span>
        )}
        {name}
        {person?.is_host && ' (host)'}
        {!media.video && ' · camera off'}
      </figcaption>
      {onKick && (
        <button type="button" className={styles.kick} onClick={onKick}>
          Remove
        </button>
      )}
    </figure>
  );
}

function LocalVideo({ stream, blurred, hidden }: { stream: MediaStream; blurred: MediaStreamTrack | null; hidden: boolean }) {
  const ref = useRef<HTMLVideoElement | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.srcObject = blurred ? new MediaStream([blurred]) : stream;
  }, [stream, blurred]);
  return <video ref={ref} className={`${styles.video} ${styles.mirror}`} hidden={hidden} autoPlay playsInline muted aria-label="Your camera" data-local-video />;
}

function RemoteVideo({ stream, userId, hidden }: { stream: MediaStream; userId: number; hidden: boolean }) {
  const ref = useRef<HTMLVideoElement | null>(null);
  const [silenced, setSilenced] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || element.srcObject === stream) return;
    element.srcObject = stream;
    // A browser that refuses sound without a click still shows the picture, muted, with a way to listen.
    element.play().catch(() => {
      element.muted = true;
      setSilenced(true);
      void element.play().catch(() => undefined);
    });
  }, [stream]);
  const listen = () => {
    if (!ref.current) return;
    ref.current.muted = false;
    void ref.current.play();
    setSilenced(false);
  };
  return (
    <>
      <video ref={ref} className={styles.video} hidden={hidden} autoPlay playsInline data-remote-video={userId} />
      {silenced && (
        <button type="button" className={styles.listen} onClick={listen}>
          Tap to unmute
        </button>
      )}
    </>
  );
}
