/**
 * Failures that say the database cannot serve the request right now, not that the request was wrong: a lost
 * or refused connection, a server shutting down or starting, too many connections, and the statement and
 * lock timeouts. The caller answers 503 with Retry-After; a retried money call is safe, being idempotent.
 */
import { sqlState } from './client';

/** PostgreSQL's conditions for "try again": SQLSTATE class 08 (connection) and these of 57 and 53. */
const UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown: the backend was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '57014', // query_canceled: the statement timeout
  '55P03', // lock_not_available: the lock timeout
  '53300', // too_many_connections
  '25P03', // idle_in_transaction_session_timeout
]);

/** What `pg` and the socket say when the connection is gone (no SQLSTATE reaches the client then). */
const LOST_CONNECTION = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection refused|connection error/i;
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH']);

/** The reason, when `error` (or an error it wraps) is the database being unavailable; undefined otherwise. */
export function databaseUnavailable(error: unknown): 'timeout' | 'unreachable' | undefined {
  const state = sqlState(error);
  if (state === '57014' || state === '55P03' || state === '25P03') return 'timeout';
  if (state && (state.startsWith('08') || UNAVAILABLE_STATES.has(state))) return 'unreachable';
  const seen = new Set<unknown>();
  for (let current: unknown = error; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return 'unreachable';
    if (typeof message === 'string' && LOST_CONNECTION.test(message)) return 'unreachable';
  }
  return undefined;
}

/**
 * What the log keeps of such a failure: its reason and SQLSTATE, never the error itself, whose message
 * carries the failed statement's parameters (a password hash, an e-mail address, a session's digest).
 */
export const unavailableLogFields = (error: unknown, reason: 'timeout' | 'unreachable') => ({ reason, sqlState: sqlState(error) ?? null });

/** Seconds a client should wait before trying again. */
export const RETRY_AFTER_SECONDS = 2;
