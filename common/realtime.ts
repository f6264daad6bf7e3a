/**
 * The realtime wire protocol (docs/architecture.md §7): the messages (spec part 1 §3 Realtime message, §4
 * types), one schema per type, and the frames around them. The server publishes these types only;
 * the web parses every frame it receives with `serverFrame` in development (decision 0032). The channel
 * names and the chat's length limit, which pages need without zod, are in realtime-channels.ts.
 */
import { z } from 'zod';
import { toyAccessRecord, TOY_ROOMS, APP_CONNECTION_STATUSES, LOVENSE_EVENTS } from './api/toys';
import { notificationItem } from './api/notifications';
import { balance } from './api/wallet';
import { streamGoal } from './api/streams';
import { publicShow, showSeat } from './api/shows';
import { directMessage } from './api/messages';
import { TOY_COMMAND_NAMES } from './rules/toys';
import { CHAT_TEXT_MAX } from './realtime-channels';

/** A client frame's size limit: room for a WebRTC session description (SIGNAL), which runs to a few kilobytes. */
export const FRAME_MAX_BYTES = 16_384;
export const SDP_MAX_CHARS = 12_000;
/** The lines a first subscription's history carries (chat lines and tips together). */
export const HISTORY_LINES = 50;
/**
 * A resubscribing client gets the lines of each kind after the last one it saw, at most this many of
 * each (the newest); a longer gap is reported as skipped (decision 0042).
 */
export const REPLAY_MAX_LINES = 500;
/** The most messages one `messages` frame carries; a longer backlog goes in several frames, in order. */
export const BATCH_MAX_MESSAGES = 200;

const channel = z.string().min(1).max(100).regex(/^[a-z]+:[A-Za-z0-9:_-]+$/);
/** The id a client gives a send; its ack or error carries it back. */
export const clientId = z.string().min(1).max(64);
const userId = z.number().int().positive();

/** The server cuts chat text at 300 characters as people count them: code points, not UTF-16 units. */
const chatText = z.string().min(1).refine((text) => [...text].length <= CHAT_TEXT_MAX, `At most ${CHAT_TEXT_MAX} characters`);

export const realtimeSender = z.object({
  name: z.string().max(200),
  user_id: userId,
  avatar: z.string().max(2000).nullable(),
  is_priority: z.boolean(),
  is_owner: z.boolean(),
});
export type RealtimeSender = z.infer<typeof realtimeSender>;

/** A stored chat line's place: when it was written and its id (the web keys lines by type and timetoken). */
const timetoken = z.string().regex(/^\d{1,20}$/);
const stamped = { chatTime: z.iso.datetime(), timetoken };

/** Where a client's copy of a channel ends: the timetoken of the last chat line and of the last tip it saw ('0': none). */
export const replayCursor = z.object({ comment: timetoken, tip: timetoken });
export type ReplayCursor = z.infer<typeof replayCursor>;

/** `emotes`: the broadcasters' emotes the line uses (code to image address), drawn where the line says `:code:`. */
export const commentMessage = z.object({
  type: z.literal('COMMENT'), text: chatText, sender: realtimeSender, ...stamped,
  emotes: z.record(z.string().max(20), z.string().max(300)).optional(),
});

const likeMessage = z.object({ type: z.literal('LIKE'), likes: z.number().int().positive(), sender: realtimeSender });

/** Published once the ledger committed the tip; `text` is the spec's line '{name} tipped the streamer.'. */
const tipMessage = z.object({
  type: z.literal('TIP'),
  text: chatText,
  data: z.object({
    recipient_amount: z.number().int().positive(),
    recipient_currency: z.literal('CON'),
    /** The tipper's message, if they wrote one (at most TIP_MESSAGE_MAX characters). */
    message: chatText.optional(),
    /** The action of the broadcaster's tip menu the tip bought (the request's id is the timetoken). */
    menu_item: chatText.optional(),
  }),
  sender: realtimeSender,
  ...stamped,
});

/** The stream's price changed: viewers look the stream up again. */
const tipEnforceMessage = z.object({ type: z.literal('TIP-ENFORCE'), data: z.object({ tip_viewer_min_amount: z.number().int().min(0) }) });

const streamEndMessage = z.object({ type: z.literal('STREAM-END') });

/** To the owner's user channel: their stream is on air, so the dashboard shows LIVE before its next 10 s look-up. */
const streamLiveMessage = z.object({ type: z.literal('STREAM-LIVE'), data: z.object({ stream_id: z.number().int().positive() }) });

/**
 * Why the platform itself stopped a broadcast (not its owner, not the encoder): its disk filled up; or why
 * the ingest refused the owner's encoder for their stream (its rating may not be broadcast by them where the
 * stream was set up; their account may not broadcast live).
 */
export const BROADCAST_STOP_REASONS = ['disk-full', 'rating-not-allowed', 'may-not-broadcast'] as const;
export type BroadcastStopReason = (typeof BROADCAST_STOP_REASONS)[number];

/** To the owner's user channel: the platform stopped their broadcast or refused their encoder, and why (the dashboard says so at once). */
const streamStoppedMessage = z.object({
  type: z.literal('STREAM-STOPPED'),
  data: z.object({ stream_id: z.number().int().positive(), reason: z.enum(BROADCAST_STOP_REASONS) }),
});

/**
 * On the stream's channel: its tip goals changed (tips raised the active one, reached it, or the owner
 * saved goals). `goal` is the active one now (null: none); `reached`, the goals this change reached, each
 * announced in the chat as 'Goal reached: {description}'.
 */
const goalMessage = z.object({
  type: z.literal('GOAL'),
  data: z.object({ stream_id: z.number().int().positive(), goal: streamGoal.nullable(), reached: z.array(streamGoal) }),
});

/** On the stream's channel: its show changed (on sale, on, a ticket bought, over); `show` is the show now (null: none). */
const showMessage = z.object({ type: z.literal('SHOW'), data: z.object({ stream_id: z.number().int().positive(), show: publicShow.nullable() }) });

/** To a viewer's own channel: their place in a show changed (accepted, declined, started, a minute paid, ended and why). */
const showSeatMessage = z.object({ type: z.literal('SHOW-SEAT'), data: z.object({ seat: showSeat }) });

/** To the broadcaster's own channel: requests or seats of their show changed, so the show panel looks again. */
const showRequestsMessage = z.object({ type: z.literal('SHOW-REQUESTS'), data: z.object({ stream_id: z.number().int().positive() }) });

const streamOptionsMessage = z.object({ type: z.literal('STREAM-OPTIONS'), options: z.object({ chat_enabled: z.boolean() }) });

/** To the banned viewer only; the spec's text is the viewer's id, `data` says it without reading text. */
const blockedMessage = z.object({
  type: z.literal('BLOCKED'),
  text: z.string().regex(/^\d+$/),
  data: z.object({ user_id: userId }),
});

/** On the stream's channel (or its priority channel): a moderator removed the line with this timetoken. */
const lineRemovedMessage = z.object({ type: z.literal('LINE-REMOVED'), data: z.object({ stream_id: z.number().int().positive(), timetoken }) });

/**
 * To the user channels of the channel's moderators and of the line's sender: a line a chat filter held for a
 * moderator to approve (not shown to anyone else until approved).
 */
const heldMessage = z.object({
  type: z.literal('HELD'),
  data: z.object({ stream_id: z.number().int().positive(), priority: z.boolean(), line: commentMessage }),
});

/** To the same user channels: a held line was approved (then it is on the stream's channel as a COMMENT) or removed. */
const heldResolvedMessage = z.object({
  type: z.literal('HELD-RESOLVED'),
  data: z.object({ stream_id: z.number().int().positive(), timetoken, approved: z.boolean() }),
});

/** The stream's live viewers (members of its public channel on every instance) after someone arrived or left. */
const viewersMessage = z.object({ type: z.literal('VIEWERS'), viewers: z.number().int().min(0) });

/** To the stream owner's user channel: a signed-in viewer arrived or left. */
const presenceMessage = <T extends 'CONNECTED' | 'DISCONNECTED'>(type: T) =>
  z.object({ type: z.literal(type), sender: realtimeSender, data: z.object({ stream_id: z.number().int().positive() }) });

/**
 * WebRTC negotiation between two participants of a meeting (the built-in conference): a session
 * description or an ICE candidate (null: the end of candidates). The server passes it on unchanged.
 */
export const webrtcSignal = z.union([
  z.strictObject({ description: z.strictObject({ type: z.enum(['offer', 'answer', 'pranswer', 'rollback']), sdp: z.string().max(SDP_MAX_CHARS) }) }),
  z.strictObject({
    candidate: z
      .strictObject({
        candidate: z.string().max(1000),
        sdpMid: z.string().max(64).nullable().optional(),
        sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
        usernameFragment: z.string().max(256).nullable().optional(),
      })
      .nullable(),
  }),
]);
export type WebrtcSignal = z.infer<typeof webrtcSignal>;

/** To one participant's user channel: a signal from another participant of the meeting. */
const signalMessage = z.object({ type: z.literal('SIGNAL'), data: z.object({ meeting_id: z.number().int().positive(), from: userId, signal: webrtcSignal }) });

export const meetingParticipant = z.object({
  user_id: userId,
  name: z.string().max(200),
  avatar: z.string().max(2000).nullable(),
  is_host: z.boolean(),
  /** Paid the meeting tip (the host always counts as paid): only paid participants exchange media. */
  paid: z.boolean(),
});
export type MeetingParticipant = z.infer<typeof meetingParticipant>;

/** On a meeting's channel: who is in the room now (on every instance), after anyone arrived, paid or left. */
const participantsMessage = z.object({
  type: z.literal('PARTICIPANTS'),
  data: z.object({ meeting_id: z.number().int().positive(), host_present: z.boolean(), participants: z.array(meetingParticipant) }),
});

/** On a meeting's channel: the host ended the call (after the chat line 'Meeting End'). */
const meetingEndMessage = z.object({ type: z.literal('MEETING-END'), data: z.object({ meeting_id: z.number().int().positive() }) });

/** To a participant's user channel: the host sent them out of the call. */
const kickedMessage = z.object({ type: z.literal('KICKED'), data: z.object({ meeting_id: z.number().int().positive() }) });

/**
 * Toy-device access (spec part 2 §4, §7; common/api/toys.ts). Every one is published by the server on a
 * user's own channel `user:<id>`: a client never sends these as messages.
 */
const toyPlace = { stream_id: z.number().int().positive(), room: z.enum(TOY_ROOMS) };
/** Server-side causes of a change besides the eight events of `lovense-action`. */
export const TOY_CHANGE_CAUSES = ['VIEWER_END_CALL', 'HOST_END_CALL', 'ROOM_CLOSED', 'ADD_DEVICE_REQUEST', 'DEVICE_CHANGED'] as const;

/**
 * To the broadcaster and to the viewer after any change of their access record (the viewer's copy has no
 * QR). `text` is the spec's line for that side where it has one, to show as a toast:
 * the broadcaster gets 'The viewer has declined the access request.' and 'Viewer has tipped to gain
 * device control access.', the viewer 'Your Lovense access has been revoked by the broadcaster.'.
 */
const lovenseAccessMessage = z.object({
  type: z.literal('lovense-access'),
  data: z.object({ event: z.enum([...LOVENSE_EVENTS, ...TOY_CHANGE_CAUSES]), record: toyAccessRecord }),
  text: z.string().max(300).optional(),
});

/** The spec's shape for the device messages: who it is for, who it is from, and what. */
const toyEnvelope = { receiver: userId, sender: userId };

/**
 * To the broadcaster and the viewers holding access: the host's Lovense app (or virtual toy) connected or
 * disconnected — 'Lovense app connected.' / 'Lovense app disconnected.'. Sent at the change and again
 * TOY.statusResendMs later; pages show the toast TOY.toastDelayMs after it arrives, one at a time.
 */
const lovenseAppConnectionMessage = z.object({
  type: z.literal('lovense-app-connection'),
  ...toyEnvelope,
  /** The room of the access it concerns; absent for the host when no viewer holds access. */
  payload: z.object({ stream_id: toyPlace.stream_id.optional(), room: toyPlace.room.optional(), status: z.enum(APP_CONNECTION_STATUSES) }),
  text: z.string().max(300),
});

/** To the broadcaster: the viewer with access found no toy — 'Please add compatible Lovense devices to grant viewer access.' */
const lovenseAddDeviceRequestMessage = z.object({
  type: z.literal('lovense-add-device-request'),
  ...toyEnvelope,
  payload: z.object(toyPlace),
  text: z.string().max(300),
});

/** To the broadcaster: the viewer left the call — 'The viewer has left the call. Device access has been revoked.' */
const lovenseViewerEndCallMessage = z.object({
  type: z.literal('lovense-viewer-end-call'),
  ...toyEnvelope,
  payload: z.object(toyPlace),
  text: z.string().max(300),
});

/** To the broadcaster only: a checked control command from the viewer with access, for the toy. `seq` counts per viewer and room. */
const lovenseCommandMessage = z.object({
  type: z.literal('lovense-command'),
  ...toyEnvelope,
  payload: z.object({ ...toyPlace, command: z.enum(TOY_COMMAND_NAMES), level: z.number().int().min(0).max(100), seq: z.number().int().min(1), at: z.iso.datetime() }),
});

/**
 * To a user's own channel: a new notification (with the unread count after it), or only the unread count
 * after some were read on another page. The list's item is that of GET /api/user/notifications.
 */
const notificationMessage = z.object({
  type: z.literal('NOTIFICATION'),
  data: z.object({ unread: z.number().int().min(0), notification: notificationItem.optional() }),
});

/**
 * Direct messages (decision 0086), to a member's own channel: a message they sent or received (from any of
 * their pages), with their unread count after it.
 */
const dmMessage = z.object({ type: z.literal('DM'), data: z.object({ message: directMessage, unread: z.number().int().min(0) }) });

/** To both members' channels: `reader_id` read the conversation with `partner_id` up to `last_read_id`. */
const dmReadMessage = z.object({
  type: z.literal('DM-READ'),
  data: z.object({ reader_id: userId, partner_id: userId, last_read_id: z.number().int().min(0) }),
});

/** To the other member's channel: `user_id` is typing to them (a page shows it for DM.typingShownMs). */
const dmTypingMessage = z.object({ type: z.literal('DM-TYPING'), data: z.object({ user_id: userId }) });

/** To a user's own channel: their balances after coins reached their wallet (a tip, a sale, a call's fee). */
const balanceMessage = z.object({ type: z.literal('BALANCE'), balance });

export const realtimeMessage = z.discriminatedUnion('type', [
  commentMessage, likeMessage, tipMessage, tipEnforceMessage, goalMessage, streamEndMessage, streamLiveMessage, streamStoppedMessage, streamOptionsMessage, blockedMessage, viewersMessage,
  lineRemovedMessage, heldMessage, heldResolvedMessage, showMessage, showSeatMessage, showRequestsMessage,
  presenceMessage('CONNECTED'), presenceMessage('DISCONNECTED'), signalMessage, participantsMessage, meetingEndMessage, kickedMessage,
  lovenseAccessMessage, lovenseAppConnectionMessage, lovenseAddDeviceRequestMessage, lovenseViewerEndCallMessage, lovenseCommandMessage,
  notificationMessage, balanceMessage, dmMessage, dmReadMessage, dmTypingMessage,
]);
export type RealtimeMessage = z.infer<typeof realtimeMessage>;
export type RealtimeType = RealtimeMessage['type'];
export type RealtimeMessageOf<T extends RealtimeType> = Extract<RealtimeMessage, { type: T }>;

/** What a channel's history carries: its chat lines. */
export const historyMessage = z.discriminatedUnion('type', [commentMessage, tipMessage]);
export type HistoryMessage = z.infer<typeof historyMessage>;

const sendFrame = { op: z.literal('send'), channel, id: clientId };

/** Clients send COMMENT and LIKE (one like per click), SIGNAL in a meeting and the toy operations; every other type comes from services. */
export const clientFrame = z.discriminatedUnion('op', [
  /** With `after` (a resubscription), the history is what came after it rather than the channel's last lines. */
  z.object({ op: z.literal('subscribe'), channel, after: replayCursor.optional() }),
  z.object({ op: z.literal('unsubscribe'), channel }),
  z.discriminatedUnion('type', [
    z.object({ ...sendFrame, type: z.literal('COMMENT'), text: z.string().max(FRAME_MAX_BYTES) }),
    z.object({ ...sendFrame, type: z.literal('LIKE'), likes: z.literal(1) }),
    /** On a meeting's channel, to one other participant of it. */
    z.object({ ...sendFrame, type: z.literal('SIGNAL'), to: userId, signal: webrtcSignal }),
    /**
     * Toy-device control, on the room's channel (`stream:<id>` or `meeting:<id>`): from the viewer with
     * APPROVED access, a command the host's toys offer at a level in its range (common/rules/toys.ts),
     * at most TOY.commandsPerSecond; delivered to the broadcaster alone as `lovense-command`.
     */
    z.object({ ...sendFrame, type: z.literal('lovense-command'), command: z.enum(TOY_COMMAND_NAMES), level: z.number().int().min(0).max(100) }),
    /** The viewer with APPROVED access found no toy: the broadcaster is asked to add one (`lovense-add-device-request`). */
    z.object({ ...sendFrame, type: z.literal('lovense-add-device-request') }),
    /** The viewer hangs up: their open access is declined and the broadcaster gets `lovense-viewer-end-call`. */
    z.object({ ...sendFrame, type: z.literal('lovense-viewer-end-call') }),
    /** On the sender's own channel (`user:<id>`): they are typing to `to`, who gets DM-TYPING if the conversation is open to them. */
    z.object({ ...sendFrame, type: z.literal('DM-TYPING'), to: userId }),
    /** The broadcaster hangs up: every PENDING, INIT or APPROVED access of the room is revoked. */
    z.object({ ...sendFrame, type: z.literal('lovense-host-end-call') }),
  ]),
  z.object({ op: z.literal('ping') }),
  z.object({ op: z.literal('pong') }),
]);
export type ClientFrame = z.infer<typeof clientFrame>;
export type SendFrame = Extract<ClientFrame, { op: 'send' }>;
/** The toy-device operations a client sends on a room's channel (handled by the toys module). */
export const TOY_SEND_TYPES = ['lovense-command', 'lovense-add-device-request', 'lovense-viewer-end-call', 'lovense-host-end-call'] as const;
export type ToySendFrame = Extract<SendFrame, { type: (typeof TOY_SEND_TYPES)[number] }>;
export const isToySend = (frame: SendFrame): frame is ToySendFrame => (TOY_SEND_TYPES as readonly string[]).includes(frame.type);
type WithoutAddress<F> = F extends unknown ? Omit<F, 'op' | 'channel' | 'id'> : never;
/** A send as the web asks for it; the client adds op, channel and id. */
export type SendRequest = WithoutAddress<SendFrame>;

export const serverFrame = z.discriminatedUnion('op', [
  /**
   * `replay` answers a subscribe with `after` on a channel that keeps lines: `history` is then every line
   * and tip after the cursor, oldest first, unless more than REPLAY_MAX_LINES of a kind came (`skipped`:
   * only the newest of them are there).
   */
  z.object({ op: z.literal('subscribed'), channel, history: z.array(historyMessage), replay: z.object({ skipped: z.boolean() }).optional() }),
  z.object({ op: z.literal('message'), channel, message: realtimeMessage }),
  /** Several messages of one channel, in publishing order: a busy channel's lines coalesced into one frame (decision 0027). */
  z.object({ op: z.literal('messages'), channel, messages: z.array(realtimeMessage).min(2).max(BATCH_MAX_MESSAGES) }),
  z.object({ op: z.literal('ack'), id: clientId }),
  /** With `id` it answers a send; with only `channel` it refuses a subscription. */
  z.object({ op: z.literal('error'), channel: channel.optional(), id: clientId.optional(), code: z.string().min(1).max(100), message: z.string().max(1000) }),
  // The gateway heartbeats with WebSocket pings; the protocol also allows a server `ping` frame.
  z.object({ op: z.literal('ping') }),
  z.object({ op: z.literal('pong') }),
]);
export type ServerFrame = z.infer<typeof serverFrame>;

export { busChannelOf, CHAT_TEXT_MAX, meetingChannelOf, priorityChannelOf, streamChannelOf, userChannelOf } from './realtime-channels';
