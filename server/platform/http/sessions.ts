/** Server-side sessions: the cookie carries a random token, the database keeps its SHA-256. */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL } from '../../../common/constants';
import type { Db, Executor } from '../db/client';
import { sessions } from '../db/platform-tables';
import { isSecureRequest } from './public-origin';

export const SESSION_COOKIE = 'll_session';
/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60_000;

export interface ResolvedSession {
  id: string;
  userId: number;
  remember: boolean;
}

/** What resolving needs of a session row. */
export type SessionRow = Pick<typeof sessions.$inferSelect, 'userId' | 'remember' | 'expiresAt' | 'lastSeenAt'>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function createSessionStore(db: Db, now: () => Date = () => new Date()) {
  return {
    async create(
      exec: Executor,
      userId: number,
      remember: boolean,
      meta: { userAgent?: string; ip?: string },
    ): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now().getTime() + (remember ? SESSION_TTL.rememberAbsoluteMs : SESSION_TTL.absoluteMs));
      await exec.insert(sessions).values({
        id: hashToken(token),
        userId,
        remember,
        expiresAt,
        userAgent: meta.userAgent?.slice(0, 300),
        ip: meta.ip,
      });
      return { token, expiresAt };
    },

    /**
     * The session of a cookie token with whatever `fetch` reads alongside its row in the same query
     * (the principal, on every request: one round trip). Expired or idle sessions are deleted and
     * answer null; last_seen_at is touched at most once a minute.
     */
    async resolveWith<T>(token: string, fetch: (id: string) => Promise<{ row: SessionRow; extra: T } | null>): Promise<{ session: ResolvedSession; extra: T } | null> {
      const id = hashToken(token);
      const found = await fetch(id);
      if (!found) return null;
      const { row } = found;
      const at = now().getTime();
      const idleMs = row.remember ? SESSION_TTL.rememberIdleMs : SESSION_TTL.idleMs;
      if (row.expiresAt.getTime() <= at || row.lastSeenAt.getTime() + idleMs <= at) {
        await db.delete(sessions).where(eq(sessions.id, id));
        return null;
      }
      if (at - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        await db.update(sessions).set({ lastSeenAt: new Date(at) }).where(eq(sessions.id, id));
      }
      return { session: { id, userId: row.userId, remember: row.remember }, extra: found.extra };
    },

    async destroy(exec: Executor, token: string): Promise<void> {
      await exec.delete(sessions).where(eq(sessions.id, hashToken(token)));
    },

    async destroyAllForUser(exec: Executor, userId: number): Promise<void> {
      await exec.delete(sessions).where(eq(sessions.userId, userId));
    },

    async purgeExpired(): Promise<void> {
      await db.delete(sessions).where(and(lt(sessions.expiresAt, now())));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, remember: boolean, expiresAt: Date) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureRequest(request),
    ...(remember ? { expires: expiresAt } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
