/** The realtime wire protocol (ARCHITECTURE §5): typed messages (spec §3/§4) and the frames around them. */
import { z } from 'zod';

export const REALTIME_TYPES = [
  'LIKE', 'COMMENT', 'TIP', 'TIP-ENFORCE', 'STREAM-END', 'STREAM-OPTIONS', 'BLOCKED', 'CONNECTED', 'DISCONNECTED',
] as const;
export type RealtimeType = (typeof REALTIME_TYPES)[number];

/** What a client may ask the server to publish; every other type comes from services only. */
export const CLIENT_SEND_TYPES = ['COMMENT', 'LIKE'] as const;

export const CHAT_TEXT_MAX = 300;
export const FRAME_MAX_BYTES = 8192;
export const HISTORY_LINES = 50;

const channel = z.string().min(1).max(100).regex(/^[a-z]+:[A-Za-z0-9:_-]+$/);

export const realtimeSender = z.object({
  name: z.string().max(200),
  user_id: z.number().int(),
  avatar: z.string().max(1000).nullable(),
  is_priority: z.boolean(),
  is_owner: z.boolean(),
});
export type RealtimeSender = z.infer<typeof realtimeSender>;

export const realtimeMessage = z.object({
  type: z.enum(REALTIME_TYPES),
  text: z.string().max(CHAT_TEXT_MAX).optional(),
  likes: z.number().int().min(0).max(1_000_000).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  sender: realtimeSender.optional(),
  chatTime: z.string().max(40).optional(),
  timetoken: z.string().max(40).optional(),
  payload: z.unknown().optional(),
  status: z.string().max(40).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
});
export type RealtimeMessage = z.infer<typeof realtimeMessage>;

const clientId = z.string().min(1).max(64);

export const clientFrame = z.discriminatedUnion('op', [
  z.object({ op: z.literal('subscribe'), channel }),
  z.object({ op: z.literal('unsubscribe'), channel }),
  z.object({
    op: z.literal('send'),
    channel,
    id: clientId,
    type: z.string().min(1).max(40),
    text: z.string().max(FRAME_MAX_BYTES).optional(),
    likes: z.number().int().min(0).max(1000).optional(),
  }),
  z.object({ op: z.literal('ping') }),
  z.object({ op: z.literal('pong') }),
]);
export type ClientFrame = z.infer<typeof clientFrame>;
export type SendFrame = Extract<ClientFrame, { op: 'send' }>;

export type ServerFrame =
  | { op: 'subscribed'; channel: string; history: RealtimeMessage[] }
  | { op: 'error'; channel?: string; id?: string; code: string; message: string }
  | { op: 'ack'; id: string }
  | { op: 'message'; channel: string; message: RealtimeMessage }
  | { op: 'pong' }
  | { op: 'ping' };

/** The bus channel carrying a realtime channel's messages between instances. */
export const busChannelOf = (realtimeChannel: string) => `rt:${realtimeChannel}`;

/** A stream's public realtime channel. */
export const streamChannelOf = (streamId: number) => `stream:${streamId}`;

/** A stream's priority chat channel (subscribers and the owner). */
export const priorityChannelOf = (streamId: number) => `stream:${streamId}:priority`;
