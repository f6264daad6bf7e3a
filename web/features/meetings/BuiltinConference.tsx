/**
 * The built-in conference (spec part 2 §2 screen 10): our camera, a tile per other paid participant
 * (with their microphone and camera state), and the toolbar — microphone, camera, background blur,
 * fullscreen, hang up; the host also ends the call and sends participants out. Media flows peer to
 * peer (MeetingMesh); signals go by /ws.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Conference } from '../../../common/api/meetings';
import { MSG } from '../../../common/messages';
import type { MeetingParticipant } from '../../../common/realtime';
import { meetingChannelOf, userChannelOf } from '../../../common/realtime-channels';
import { realtimeClient } from '../../api/realtime';
import { Avatar } from '../../ui/Avatar';
import { Alert } from '../../ui/Alert';
import { useConnectionStatus } from '../chat';
import { LocalTile, RemoteTile } from './ConferenceTiles';
import { MeetingMesh, type RemotePeer } from './mesh';
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
  const [remote, setRemote] = useState<ReadonlyMap<number, RemotePeer>>(new Map());
  const mesh = useRef<MeetingMesh | null>(null);
  const status = useConnectionStatus();
  const stage = useRef<HTMLDivElement | null>(null);
  const stream = media.state === 'ready' ? media.stream : null;

  const audio = useLockedToggle(
    useCallback((on: boolean) => stream?.getAudioTracks().forEach((t) => (t.enabled = on)), [stream]),
  );
  const video = useLockedToggle(
    useCallback((on: boolean) => stream?.getVideoTracks().forEach((t) => (t.enabled = on)), [stream]),
  );
  // What the others are told of our microphone and camera; a new mesh starts from the latest.
  const sharing = useMemo(() => ({ audio: audio.on, video: video.on }), [audio.on, video.on]);
  const latestSharing = useRef(sharing);
  useEffect(() => {
    latestSharing.current = sharing;
    mesh.current?.setLocalMedia(sharing);
  }, [sharing]);

  // One mesh per room visit; signals come to our own user channel.
  useEffect(() => {
    const created = new MeetingMesh({
      myId,
      iceServers: conference.ice_servers,
      send: (to, signal) => realtimeClient().send(meetingChannelOf(meetingId), { type: 'SIGNAL', to, signal }),
      onRemote: setRemote,
    });
    created.setLocalMedia(latestSharing.current);
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

  const [blurred, setBlurred] = useState<{ track: MediaStreamTrack; stop: () => void } | null>(null);
  const toggleBlur = () => {
    const camera = stream?.getVideoTracks()[0];
    if (!camera) return;
    if (blurred) {
      void mesh.current?.replaceVideoTrack(camera);
      setBlurred(null);
    } else {
      const next = startBlur(camera);
      void mesh.current?.replaceVideoTrack(next.track);
      setBlurred(next);
    }
  };
  // Stops the blur toggled off, and the one running when the room closes.
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
        <LocalTile
          name={myName}
          avatar={names.get(myId)?.avatar ?? null}
          stream={stream}
          asking={media.state === 'asking'}
          blurred={blurred?.track ?? null}
          audio={audio.on}
          video={video.on}
        />
        {[...remote].map(([userId, peer]) => {
          const person = names.get(userId);
          return <RemoteTile key={userId} userId={userId} person={person} peer={peer} onKick={onKick && !person?.is_host ? () => onKick(userId) : null} />;
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
