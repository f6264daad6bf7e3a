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
