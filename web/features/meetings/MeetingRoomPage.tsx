/**
 * /streams/meeting-view?id=: the meeting room (spec part 2 §2 screens 10–11, §4 Meeting room). It
 * opens the room (join-meeting), follows the meeting channel (participants, end, chat, likes, tips)
 * and our user channel (kicked), and shows the wall that applies or the call.
 */
import { Suspense, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { MEETING } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { meetingChannelOf, userChannelOf } from '../../../common/realtime-channels';
import type { MeetingParticipant } from '../../../common/realtime';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { realtimeClient } from '../../api/realtime';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { ButtonLink } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import { BanIcon } from '../../ui/icons';
import { useSession } from '../accounts';
import { ChatOverlay, useChatChannel, useConnectionStatus, useOverlayFeed } from '../chat';
import { TipAnimations, tipEventOf, useTipAnimations } from '../tips';
import { loadToyDeviceAccess } from '../toys';
import { lazyPage } from '../../app/lazy-page';
import { useEndMeeting, useJoinMeeting, useKickParticipant } from './api';
import { BuiltinConference } from './BuiltinConference';
import { JitsiConference } from './JitsiConference';
import { MeetingChat } from './MeetingChat';
import { CALENDAR_PATH, LoginRequired, MeetingEnded, MeetingPayWall, MeetingUnavailable, WaitingForHost } from './MeetingWalls';
import { conferenceSupported } from './use-local-media';
import styles from './room.module.css';

// Toy control is for the rooms whose guests buy it: its code comes after the room's.
const ToyDeviceAccess = lazyPage(loadToyDeviceAccess, 'ToyDeviceAccess');

const OVERLAY_SLOT_ID = 'meeting-overlay';

export function MeetingRoomPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const session = useSession();
  if (session.isPending) return <Spinner label="Loading" />;
  if (!session.user) return <LoginRequired />;
  if (!Number.isSafeInteger(id) || id <= 0) return <MeetingUnavailable />;
  return <MeetingRoom key={id} meetingId={id} myId={session.user.user_id} myName={session.user.username} />;
}

type Ending = null | { byHost: boolean };

function MeetingRoom({ meetingId, myId, myName }: { meetingId: number; myId: number; myName: string }) {
  const navigate = useNavigate();
  const skinPath = useSkinPath();
  const toast = useToast();
  const toCalendar = () => void navigate(skinPath(CALENDAR_PATH));
  const [ended, setEnded] = useState<Ending>(null);
  const [presence, setPresence] = useState<{ hostPresent: boolean; at: number } | null>(null);
  const [participants, setParticipants] = useState<MeetingParticipant[]>([]);
  const [waiting, setWaiting] = useState(false);
  const join = useJoinMeeting(meetingId, ended === null, waiting ? MEETING.hostPresenceCheckMs : false);
  const room = join.data;
  // The latest word on the host's presence: the room's answer (every 7 s while waiting) or a PARTICIPANTS frame.
  const hostPresent = presence && presence.at > join.dataUpdatedAt ? presence.hostPresent : (room?.host_present ?? null);
  if ((hostPresent === false) !== waiting) setWaiting(hostPresent === false);
  const isHost = room?.meeting.host ?? false;
  const overlay = useOverlayFeed();
  const tips = useTipAnimations();
  const status = useConnectionStatus();
  const end = useEndMeeting(meetingId);
  const kick = useKickParticipant(meetingId);

  const channel = useChatChannel(room && ended === null ? meetingChannelOf(meetingId) : null, {
    onMessage: (message, line) => {
      if (line) overlay.addLine(line);
      if (message.type === 'PARTICIPANTS' && message.data.meeting_id === meetingId) {
        setParticipants(message.data.participants);
        setPresence({ hostPresent: message.data.host_present, at: Date.now() });
      }
      if (message.type === 'LIKE') overlay.addHearts(message.likes);
      if (message.type === 'TIP') tips.add(tipEventOf(message), isHost);
      // The host's 'Meeting End' chat line comes with MEETING-END, which decides (not the line's text).
      if (message.type === 'MEETING-END' && message.data.meeting_id === meetingId) setEnded({ byHost: true });
    },
  });

  useEffect(() => {
    return realtimeClient().subscribe(userChannelOf(myId), (message) => {
      if (message.type === 'KICKED' && message.data.meeting_id === meetingId) {
        toast({ title: MSG.meetingKickedOut, tone: 'info' });
        void navigate(skinPath(CALENDAR_PATH));
      }
    });
  }, [meetingId, myId, navigate, skinPath, toast]);

  if (ended) {
    return (
      <div className={styles.room}>
        <MeetingEnded meetingId={meetingId} isHost={isHost} hostName={room?.meeting.creator.first_name ?? 'the host'} endedByHost={ended.byHost} onDone={toCalendar} />
      </div>
    );
  }
  if (join.isError) {
    if (isApiError(join.error, 'not_found') || isApiError(join.error, 'forbidden')) return <MeetingUnavailable />;
    if (isApiError(join.error) && join.error.status === 409) return <MeetingEnded meetingId={meetingId} isHost={false} hostName="the host" endedByHost={false} onDone={toCalendar} />;
    return <Alert>{fill(MSG.meetingError, { message: failureMessage(join.error) })}</Alert>;
  }
  if (!room) return <Spinner label="Opening the video call" />;

  const host = { id: room.meeting.creator.id, name: room.meeting.creator.first_name };
  if (room.conference_kind === 'builtin' && !conferenceSupported()) return <Notice title={MSG.meetingUnsupported} art={<BanIcon size={56} />} actions={<ButtonLink to={skinPath(CALENDAR_PATH)}>All Video Calls</ButtonLink>} />;

  const hangUp = toCalendar;
  const endCall = isHost ? () => end.mutate(undefined, { onSuccess: () => setEnded({ byHost: true }), onError: (error) => toast({ title: fill(MSG.meetingError, { message: failureMessage(error) }), tone: 'error' }) }) : null;
  const kickOut = isHost ? (userId: number) => kick.mutate(userId, { onError: (error) => toast({ title: fill(MSG.meetingError, { message: failureMessage(error) }), tone: 'error' }) }) : null;

  let stage;
  if (!isHost && hostPresent === false) stage = <WaitingForHost onLeave={toCalendar} />;
  else if (!room.paid) stage = <MeetingPayWall meetingId={meetingId} owed={room.owed} hostName={host.name} />;
  // The server gives what opens the conference once the guest owes nothing: just paid, the room is being asked again.
  else if (!room.conference) stage = <Spinner label="Opening the video call" />;
  else if (room.conference.kind === 'builtin')
    stage = (
      <BuiltinConference
        meetingId={meetingId}
        myId={myId}
        myName={myName}
        isHost={isHost}
        conference={room.conference}
        participants={participants}
        onHangUp={hangUp}
        onEnd={endCall}
        onKick={kickOut}
        ending={end.isPending}
      />
    );
  else stage = <JitsiConference conference={room.conference} onHangUp={hangUp} onEnd={endCall} ending={end.isPending} />;

  return (
    <div className={styles.room}>
      <header className={styles.head}>
        <h1 className={styles.title}>{room.meeting.title}</h1>
        <span className={styles.muted}>{isHost ? 'You are hosting' : `Hosted by ${host.name}`}</span>
      </header>
      <div className={styles.layout}>
        <div className={styles.stageColumn}>
          <div className={styles.stage}>
            {stage}
            <div className={styles.overlaySlot} id={OVERLAY_SLOT_ID} />
          </div>
          {room.paid && (
            <Suspense fallback={null}>
              <ToyDeviceAccess streamId={meetingId} room="meeting" isHost={isHost} hostName={host.name} people={participants} />
            </Suspense>
          )}
        </div>
        <MeetingChat meetingId={meetingId} host={host} isHost={isHost} lines={channel.lines} ready={status === 'open' && channel.state.state === 'joined'} send={channel.send} />
      </div>
      <ChatOverlay slotId={OVERLAY_SLOT_ID} lines={overlay.lines} hearts={overlay.hearts} />
      <TipAnimations slotId={OVERLAY_SLOT_ID} bursts={tips.bursts} received={tips.received} />
    </div>
  );
}
