/** The realtime wire frames as the browser sees them: errors, timings, backoff and frame routing (docs/architecture.md §7). */
import { z } from 'zod';
import { serverFrame } from '../../common/realtime';
import type { HistoryMessage, RealtimeMessage, ReplayCursor, ServerFrame } from '../../common/realtime';
import { RESTART_JITTER_MS } from '../../common/realtime-channels';

export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

/** A refusal from the server (error frame) or from the connection itself ('offline', 'timeout'). */
export class RealtimeError extends Error {
  readonly code: string;
  readonly channel: string | undefined;

  constructor(code: string, message: string, channel?: string) {
    super(message);
    this.name = 'RealtimeError';
    this.code = code;
    this.channel = channel;
  }
}

export function isRealtimeError(error: unknown, code?: string): error is RealtimeError {
  return error instanceof RealtimeError && (code === undefined || error.code === code);
}

export interface ChannelListener {
  onMessage: (message: RealtimeMessage) => void;
  /**
   * The server accepted the subscription with the channel's recent lines; after a reconnect, with
   * `replay`, with the lines that came after the last one this page saw (`skipped`: not all of them).
   */
  onSubscribed?: (history: HistoryMessage[], replay?: { skipped: boolean }) => void;
  /**
   * The server refused the subscription ('block', 'forbidden', 'unauthorized'...). A subscription the
   * server could not answer now (RETRIED_SUBSCRIBE_CODES) is asked again instead, and not told here.
   */
  onError?: (error: RealtimeError) => void;
}

/**
 * Answers to a subscription that say "not now" rather than "no": the database busy or away, a fault of the
 * server, subscribing too fast. The client asks again with the reconnect backoff (jittered), quietly.
 */
export const RETRIED_SUBSCRIBE_CODES: ReadonlySet<string> = new Set(['unavailable', 'internal', 'rate_limited']);

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/** A connection that stayed open this long was a good one: the next drop starts the backoff again at 1 s. */
export const GOOD_CONNECTION_MS = 10_000;
export const PING_INTERVAL_MS = 25_000;
/** No frame at all this long after a ping: the connection is dead even if the socket has not noticed. */
export const PONG_TIMEOUT_MS = 10_000;
export const ACK_TIMEOUT_MS = 10_000;
/** The socket stays this long after its last subscriber left, so a remount does not reconnect. */
export const IDLE_CLOSE_MS = 3_000;

export const OFFLINE_MESSAGE = 'You are offline. Reconnecting…';
export const TIMEOUT_MESSAGE = 'The server did not answer. Please try again.';

/**
 * Delay before reconnect attempt `attempt` (0-based): 1 s doubling up to 30 s, with ±20 % jitter so
 * that clients dropped together do not come back together.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.min(BACKOFF_MAX_MS, Math.round(base * (0.8 + 0.4 * random())));
}

/** The pause before reconnecting to a server that said it is restarting: at once, spread over RESTART_JITTER_MS. */
export function restartDelay(random: () => number = Math.random): number {
  return Math.floor(RESTART_JITTER_MS * random());
}

/** Whether timetoken `a` comes after `b` (both decimal ids, possibly past 2^53). */
const later = (a: string, b: string) => a.length > b.length || (a.length === b.length && a > b);

/** The cursor moved past the chat lines and tips among `messages`. */
export function advanceCursor(cursor: ReplayCursor, messages: readonly RealtimeMessage[]): ReplayCursor {
  let { comment, tip } = cursor;
  for (const message of messages) {
    if (message.type === 'COMMENT' && later(message.timetoken, comment)) comment = message.timetoken;
    if (message.type === 'TIP' && later(message.timetoken, tip)) tip = message.timetoken;
  }
  return { comment, tip };
}

export const EMPTY_CURSOR: ReplayCursor = { comment: '0', tip: '0' };

const SERVER_OPS: ReadonlySet<unknown> = new Set<ServerFrame['op']>(['subscribed', 'message', 'messages', 'ack', 'error', 'ping', 'pong']);

/**
 * A server frame from raw socket text, or null for anything else (logged in development). Development
 * checks every frame against the contract (`serverFrame`); a production build, which leaves zod out of
 * the pages, trusts a JSON object with a known `op`: the server's tests check every frame it sends
 * (server/testing/ws-client.ts), as they check every answer (decision 0032).
 */
export function parseServerFrame(raw: unknown): ServerFrame | null {
  if (typeof raw !== 'string') return dropped(raw, 'not text');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return dropped(raw, 'not JSON');
  }
  if (import.meta.env.DEV) {
    const frame = serverFrame.safeParse(value);
    return frame.success ? frame.data : dropped(raw, z.prettifyError(frame.error));
  }
  const known = typeof value === 'object' && value !== null && SERVER_OPS.has((value as { op?: unknown }).op);
  return known ? (value as ServerFrame) : dropped(raw, 'unknown op');
}

function dropped(raw: unknown, reason: string): null {
  if (import.meta.env.DEV) console.warn(`Realtime frame dropped (${reason})`, raw);
  return null;
}

/** Where a frame goes: an error with an id answers a send; one with only a channel refuses a subscription. */
export type FrameRoute =
  | { to: 'channel'; channel: string; deliver: 'message' | 'subscribed' | 'error' }
  | { to: 'send'; id: string; outcome: 'ack' | 'error' }
  | { to: 'heartbeat'; reply: boolean }
  | { to: 'nobody' };

export function routeFrame(frame: ServerFrame): FrameRoute {
  switch (frame.op) {
    case 'message':
    case 'messages':
      return { to: 'channel', channel: frame.channel, deliver: 'message' };
    case 'subscribed':
      return { to: 'channel', channel: frame.channel, deliver: 'subscribed' };
    case 'ack':
      return { to: 'send', id: frame.id, outcome: 'ack' };
    case 'error':
      if (frame.id !== undefined) return { to: 'send', id: frame.id, outcome: 'error' };
      if (frame.channel !== undefined) return { to: 'channel', channel: frame.channel, deliver: 'error' };
      return { to: 'nobody' };
    case 'ping':
      return { to: 'heartbeat', reply: true };
    case 'pong':
      return { to: 'heartbeat', reply: false };
  }
}
