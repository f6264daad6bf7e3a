/** The realtime channels' names and the chat's length limit: what pages need of the protocol (common/realtime.ts) without its schemas. */

/** A chat line's length limit, in characters. */
export const CHAT_TEXT_MAX = 300;

/** The bus channel carrying a realtime channel's messages between instances. */
export const busChannelOf = (realtimeChannel: string) => `rt:${realtimeChannel}`;

/** A stream's public realtime channel. */
export const streamChannelOf = (streamId: number) => `stream:${streamId}`;

/** A stream's priority chat channel (subscribers and the owner). */
export const priorityChannelOf = (streamId: number) => `stream:${streamId}:priority`;

/** A user's own channel (presence of their stream's viewers). */
export const userChannelOf = (userId: number) => `user:${userId}`;

/** A meeting room's channel: its chat, likes, tips, participants and end. */
export const meetingChannelOf = (meetingId: number) => `meeting:${meetingId}`;

/**
 * The close code and reason a socket gets when its server stops gracefully (a deploy, a restart): the
 * page reconnects at once, after a random pause of at most RESTART_JITTER_MS, and resubscribes asking
 * for what it missed (decision 0042). 4000–4999 are the application's own codes.
 */
export const SERVER_RESTARTING = { code: 4002, reason: 'server restarting' } as const;
/** After an outage of the bus the sockets may have missed lines: the same code, so the page reconnects at once and replays them. */
export const RESYNC_AFTER_OUTAGE = { code: SERVER_RESTARTING.code, reason: 'catching up after an outage' } as const;
export const RESTART_JITTER_MS = 2_000;
