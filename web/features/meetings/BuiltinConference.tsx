/**
 * The built-in conference (spec part 2 §2 screen 10): our camera, a tile per other paid participant,
 * and the toolbar — microphone, camera, background blur, fullscreen, hang up; the host also ends the
 * call and sends participants out. Media flows peer to peer (MeetingMesh); signals go by /ws.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Conference } from '../../../common/api/meetings';
import { MSG } from '../../../common/messages';
import type { MeetingParticipant } from '../../../common/realtime';
import { meetingChannelOf, userChannelOf } from '../../../common/realtime';
import { realtimeClient } from '../../api/realtime';
import { Avatar } from '../../ui/Avatar';
import { Alert } from '../../ui/Alert';
import { Spinner } from '../../ui/Spinner';
import { useConnectionStatus } from '../chat/api';
import { MeetingMesh } from './mesh';
import { peersToConnect } from './negotiation';
import { startBlur, useLocalMedia, useLockedToggle } from './use-local-media';
import { MeetingToolbar } from './MeetingToolbar';
import styles from './room.module.css';

interface BuiltinConferenceProps {
  meetingId: number;
  myId: number;
  myName: string;
  isHost: boolean;
  conference: Extract<Conference, { kind: 'builtin' }>;
  participants: readonly MeetingParticipant[];
  onHangUp: () => void;
  onEnd: (() => void) | null;
  onKick: ((userId: number) => void) | null;
  ending: boolean;
}

export function BuiltinConference({ meetingId, myId, myName, isHost, conference, participants, onHangUp, onEnd, onKick, ending }: BuiltinConferenceProps) {
  const media = useLocalMedia(true);
  const [remote, setRemote] = useState<ReadonlyMap<number, MediaStream | null>>(new Map());
  const mesh = useRef<MeetingMesh | null>(null);
  const status = useConnectionStatus();
  const stage = useRef<HTMLDivElement | null>(null);

  // One mesh per room visit; signals come to our own user channel.
  useEffect(() => {
    const created = new MeetingMesh({
      myId,
      iceServers: conference.ice_servers,
      send: (to, signal) => realtimeClient().send(meetingChannelOf(meetingId), { type: 'SIGNAL', to, signal }),
      onRemote: setRemote,
    });
    mesh.current = created;
    const stop = realtimeClient().subscribe(userChannelOf(myId), (message) => {
      if (message.type === 'SIGNAL' && message.data.meeting_id === meetingId) void created.receive(message.data.from, message.data.signal);
    });
    return () => {
      stop();
      created.close();
      mesh.current = null;
    };
  }, [conference.ice_servers, meetingId, myId]);

  const stream = media.state === 'ready' ? media.stream : null;
  useEffect(() => {
    if (stream) mesh.current?.setLocalStream(stream);
  }, [stream]);

  const wanted = peersToConnect(participants, myId).join(',');
  useEffect(() => {
    if (!stream) return;
    mesh.current?.sync(wanted ? wanted.split(',').map(Number) : []);
  }, [wanted, stream]);

  // Back from a network loss: the subscriptions come back by themselves; the connections renegotiate.
  const lastStatus = useRef(status);
  useEffect(() => {
    if (lastStatus.current === 'reconnecting' && status === 'open') mesh.current?.renegotiate();
    lastStatus.current = status;
  }, [status]);

  const audio = useLockedToggle(
    useCallback((on: boolean) => stream?.getAudioTracks().forEach((t) => (t.enabled = on)), [stream]),
  );
  const video = useLockedToggle(
    useCallback((on: boolean) => stream?.getVideoTracks().forEach((t) => (t.enabled = on)), [stream]),
  );

  const [blurred, setBlurred] = useState<{ track: MediaStreamTrack; stop: () => void } | null>(null);
  const toggleBlur = () => {
    const camera = stream?.getVideoTracks()[0];
    if (!camera) return;
    if (blurred) {
      void mesh.current?.replaceVideoTrack(camera);
      blurred.stop();
      setBlurred(null);
    } else {
      const next = startBlur(camera);
      void mesh.current?.replaceVideoTrack(next.track);
      setBlurred(next);
    }
  };
  useEffect(() => () => blurred?.stop(), [blurred]);

  const names = new Map(participants.map((p) => [p.user_id, p]));
  const unpaid = participants.filter((p) => !p.paid && p.user_id !== myId);
  return (
    <div className={styles.conference} ref={stage}>
      {status === 'reconnecting' && (
        <p className={styles.banner} role="status">
          {MSG.meetingNetworkLost}
        </p>
      )}
      {media.state === 'denied' && <Alert>{media.message}</Alert>}
      <div className={styles.tiles} data-count={remote.size + 1}>
        <figure className={styles.tile}>
          {stream ? <LocalVideo stream={stream} blurred={blurred?.track ?? null} /> : media.state === 'asking' ? <Spinner label="Starting your camera" /> : null}
          <figcaption className={styles.caption}>
            {myName} (you){!audio.on && ' · muted'}
            {!video.on && ' · camera off'}
          </figcaption>
        </figure>
        {[...remote].map(([userId, remoteStream]) => {
          const person = names.get(userId);
          const name = person?.name ?? 'Participant';
          return (
            <figure key={userId} className={styles.tile}>
              {remoteStream ? <RemoteVideo stream={remoteStream} userId={userId} /> : <Avatar name={name} src={person?.avatar ?? null} size={64} />}
              <figcaption className={styles.caption}>
                {name}
                {person?.is_host && ' (host)'}
              </figcaption>
              {onKick && !person?.is_host && (
                <button type="button" className={styles.kick} onClick={() => onKick(userId)}>
                  Remove
                </button>
              )}
            </figure>
          );
        })}
      </div>
      {isHost && unpaid.length > 0 && (
        <ul className={styles.unpaid} aria-label="Waiting to pay">
          {unpaid.map((p) => (
            <li key={p.user_id}>
              <Avatar name={p.name} src={p.avatar} size={24} /> {p.name} (unpaid)
              {onKick && (
                <button type="button" className={styles.kickInline} onClick={() => onKick(p.user_id)}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <MeetingToolbar
        audio={audio}
        video={video}
        blur={stream ? { on: blurred !== null, toggle: toggleBlur } : null}
        stage={stage}
        onHangUp={onHangUp}
        onEnd={onEnd}
        ending={ending}
      />
    </div>
  );
}

function LocalVideo({ stream, blurred }: { stream: MediaStream; blurred: MediaStreamTrack | null }) {
  const ref = useRef<HTMLVideoElement | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.srcObject = blurred ? new MediaStream([blurred]) : stream;
  }, [stream, blurred]);
  return <video ref={ref} className={`${styles.video} ${styles.mirror}`} autoPlay playsInline muted aria-label="Your camera" data-local-video />;
}

function RemoteVideo({ stream, userId }: { stream: MediaStream; userId: number }) {
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
      <video ref={ref} className={styles.video} autoPlay playsInline data-remote-video={userId} />
      {silenced && (
        <button type="button" className={styles.listen} onClick={listen}>
          Tap to unmute
        </button>
      )}
    </>
  );
}
