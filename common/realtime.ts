/**
 * The realtime wire protocol (docs/architecture.md §7): the messages (spec part 1 §3 Realtime message, §4
 * types), one schema per type, and the frames around them. The server publishes these types only;
 * the web parses every frame it receives with `serverFrame`.
 */
import { z } from 'zod';

export const CHAT_TEXT_MAX = 300;
export const FRAME_MAX_BYTES = 8192;
export const HISTORY_LINES = 50;

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
const stamped = { chatTime: z.iso.datetime(), timetoken: z.string().regex(/^\d{1,20}$/) };

const commentMessage = z.object({ type: z.literal('COMMENT'), text: chatText, sender: realtimeSender, ...stamped });

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
  }),
  sender: realtimeSender,
  ...stamped,
});

/** The stream's price changed: viewers look the stream up again. */
const tipEnforceMessage = z.object({ type: z.literal('TIP-ENFORCE'), data: z.object({ tip_viewer_min_amount: z.number().int().min(0) }) });

const streamEndMessage = z.object({ type: z.literal('STREAM-END') });

const streamOptionsMessage = z.object({ type: z.literal('STREAM-OPTIONS'), options: z.object({ chat_enabled: z.boolean() }) });

/** To the banned viewer only; the spec's text is the viewer's id, `data` says it without reading text. */
const blockedMessage = z.object({
  type: z.literal('BLOCKED'),
  text: z.string().regex(/^\d+$/),
  data: z.object({ user_id: userId }),
});

/** The stream's live viewers (members of its public channel on every instance) after someone arrived or left. */
const viewersMessage = z.object({ type: z.literal('VIEWERS'), viewers: z.number().int().min(0) });

/** To the stream owner's user channel: a signed-in viewer arrived or left. */
const presenceMessage = <T extends 'CONNECTED' | 'DISCONNECTED'>(type: T) =>
  z.object({ type: z.literal(type), sender: realtimeSender, data: z.object({ stream_id: z.number().int().positive() }) });

export const realtimeMessage = z.discriminatedUnion('type', [
  commentMessage, likeMessage, tipMessage, tipEnforceMessage, streamEndMessage, streamOptionsMessage, blockedMessage, viewersMessage,
  presenceMessage('CONNECTED'), presenceMessage('DISCONNECTED'),
]);
export type RealtimeMessage = z.infer<typeof realtimeMessage>;
export type RealtimeType = RealtimeMessage['type'];
export type RealtimeMessageOf<T extends RealtimeType> = Extract<RealtimeMessage, { type: T }>;

/** What a channel's history carries: its chat lines. */
export const historyMessage = z.discriminatedUnion('type', [commentMessage, tipMessage]);
export type HistoryMessage = z.infer<typeof historyMessage>;

const sendFrame = { op: z.literal('send'), channel, id: clientId };

/** Clients send COMMENT and LIKE only (one like per click); every other type comes from services. */
export const clientFrame = z.discriminatedUnion('op', [
  z.object({ op: z.literal('subscribe'), channel }),
  z.object({ op: z.literal('unsubscribe'), channel }),
  z.discriminatedUnion('type', [
    z.object({ ...sendFrame, type: z.literal('COMMENT'), text: z.string().max(FRAME_MAX_BYTES) }),
    z.object({ ...sendFrame, type: z.literal('LIKE'), likes: z.literal(1) }),
  ]),
  z.object({ op: z.literal('ping') }),
  z.object({ op: z.literal('pong') }),
]);
export type ClientFrame = z.infer<typeof clientFrame>;
export type SendFrame = Extract<ClientFrame, { op: 'send' }>;
type WithoutAddress<F> = F extends unknown ? Omit<F, 'op' | 'channel' | 'id'> : never;
/** A send as the web asks for it; the client adds op, channel and id. */
export type SendRequest = WithoutAddress<SendFrame>;

export const serverFrame = z.discriminatedUnion('op', [
  z.object({ op: z.literal('subscribed'), channel, history: z.array(historyMessage) }),
  z.object({ op: z.literal('message'), channel, message: realtimeMessage }),
  z.object({ op: z.literal('ack'), id: clientId }),
  /** With `id` it answers a send; with only `channel` it refuses a subscription. */
  z.object({ op: z.literal('error'), channel: channel.optional(), id: clientId.optional(), code: z.string().min(1).max(100), message: z.string().max(1000) }),
  // The gateway heartbeats with WebSocket pings; the protocol also allows a server `ping` frame.
  z.object({ op: z.literal('ping') }),
  z.object({ op: z.literal('pong') }),
]);
export type ServerFrame = z.infer<typeof serverFrame>;

/** The bus channel carrying a realtime channel's messages between instances. */
export const busChannelOf = (realtimeChannel: string) => `rt:${realtimeChannel}`;

/** A stream's public realtime channel. */
export const streamChannelOf = (streamId: number) => `stream:${streamId}`;

/** A stream's priority chat channel (subscribers and the owner). */
export const priorityChannelOf = (streamId: number) => `stream:${streamId}:priority`;

/** A user's own channel (presence of their stream's viewers). */
export const userChannelOf = (userId: number) => `user:${userId}`;
