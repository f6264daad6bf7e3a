/** Server-side sessions: the cookie carries a random token, the database keeps its SHA-256. */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL } from '../../../common/constants';
import type { Db, Executor } from '../db/client';
import { sessions, signInAddresses } from '../db/platform-tables';
import { isSecureRequest } from './public-origin';
import type { SessionCache } from './session-cache';

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

/** What the session cache keeps of a session: its row and what was read with it. */
export type SessionCacheValue = { row: SessionRow; extra: unknown };

export interface SessionStoreOptions {
  /** Keeps resolved sessions on this instance; without it every request reads the database. */
  cache?: SessionCache<SessionCacheValue>;
  now?: () => Date;
}

export function createSessionStore(db: Db, options: SessionStoreOptions = {}) {
  const { cache } = options;
  const now = options.now ?? (() => new Date());

  async function resolve<T>(id: string, fetch: (id: string) => Promise<{ row: SessionRow; extra: T } | null>) {
    if (!cache) {
      const found = await fetch(id);
      return found && { found, cached: false };
    }
    const hit = await cache.get(id, async () => {
      const found = await fetch(id);
      return found && { userId: found.row.userId, value: found };
    });
    return hit && { found: hit.value as { row: SessionRow; extra: T }, cached: hit.cached };
  }

  const store = {
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
      if (meta.ip) {
        await exec.insert(signInAddresses).values({ userId, ip: meta.ip })
          .onConflictDoUpdate({ target: [signInAddresses.userId, signInAddresses.ip], set: { lastAt: sql`now()` } });
      }
      return { token, expiresAt };
    },

    /**
     * The session of a cookie token with whatever `fetch` reads alongside its row in the same query
     * (the principal, on every request: one round trip). Expired or idle sessions are deleted and
     * answer null; last_seen_at is touched at most once a minute.
     */
    async resolveWith<T>(token: string, fetch: (id: string) => Promise<{ row: SessionRow; extra: T } | null>): Promise<{ session: ResolvedSession; extra: T } | null> {
      const id = hashToken(token);
      const resolved = await resolve(id, fetch);
      if (!resolved) return null;
      const { found: { row, extra }, cached } = resolved;
      const at = now().getTime();
      const idleMs = row.remember ? SESSION_TTL.rememberIdleMs : SESSION_TTL.idleMs;
      if (row.expiresAt.getTime() <= at || row.lastSeenAt.getTime() + idleMs <= at) {
        cache?.dropLocally(id);
        // Another instance may have seen the session since this one kept it: only the row decides.
        if (cached) return store.resolveWith(token, fetch);
        await db.delete(sessions).where(eq(sessions.id, id));
        return null;
      }
      if (at - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        await db.update(sessions).set({ lastSeenAt: new Date(at) }).where(eq(sessions.id, id));
        row.lastSeenAt = new Date(at);
      }
      return { session: { id, userId: row.userId, remember: row.remember }, extra };
    },

    /** Ends the session of a cookie token, on every instance. */
    async destroy(token: string): Promise<void> {
      const id = hashToken(token);
      await db.delete(sessions).where(eq(sessions.id, id));
      await cache?.forget({ sessionId: id });
    },

    /** Ends the user's sessions in `exec`'s transaction: call `forgetUser` once it has committed. */
    async destroyAllForUser(exec: Executor, userId: number): Promise<void> {
      await exec.delete(sessions).where(eq(sessions.userId, userId));
    },

    /**
     * Every instance reads the user's sessions and principal afresh: call it after any committed change
     * to them (sessions ended, suspension, role, permissions, account closed).
     */
    async forgetUser(userId: number): Promise<void> {
      await cache?.forget({ userId });
    },

    async purgeExpired(): Promise<void> {
      await db.delete(sessions).where(and(lt(sessions.expiresAt, now())));
    },
  };
  return store;
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
