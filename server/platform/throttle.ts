/** Counts failures per key in a sliding window, in the database so every instance sees the same count. */
import { and, count, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from './db/client';
import { throttleBuckets, throttleEvents } from './db/platform-tables';

/** A key and how many events it may have inside the window. */
export interface ThrottleKey {
  key: string;
  limit: number;
}

export function createThrottle(db: Db, options: { windowMs: number }) {
  const since = () => new Date(Date.now() - options.windowMs);
  return {
    /** True when any of the keys has reached its limit inside the window. */
    async isLimited(keys: ThrottleKey[]): Promise<boolean> {
      for (const { key, limit } of keys) {
        const [row] = await db
          .select({ n: count() })
          .from(throttleEvents)
          .where(and(eq(throttleEvents.key, key), gte(throttleEvents.at, since())));
        if ((row?.n ?? 0) >= limit) return true;
      }
      return false;
    },
    /**
     * Records an attempt first and then counts it with the earlier ones, so parallel attempts cannot
     * all pass a check made before any of them was recorded. Answers the recorded ids (see forget).
     */
    async attempt(keys: ThrottleKey[]): Promise<{ limited: boolean; ids: number[] }> {
      const ids = (await db.insert(throttleEvents).values(keys.map(({ key }) => ({ key }))).returning({ id: throttleEvents.id })).map((r) => r.id);
      for (const { key, limit } of keys) {
        const [row] = await db.select({ n: count() }).from(throttleEvents).where(and(eq(throttleEvents.key, key), gte(throttleEvents.at, since())));
        if ((row?.n ?? 0) > limit) return { limited: true, ids };
      }
      return { limited: false, ids };
    },
    /** Takes recorded attempts back (a sign-in that succeeded should not count against its address). */
    async forget(ids: number[]): Promise<void> {
      if (ids.length > 0) await db.delete(throttleEvents).where(inArray(throttleEvents.id, ids));
    },
    async record(keys: ThrottleKey[]): Promise<void> {
      await db.insert(throttleEvents).values(keys.map(({ key }) => ({ key })));
    },
    async clear(keys: ThrottleKey[]): Promise<void> {
      await db.delete(throttleEvents).where(inArray(throttleEvents.key, keys.map(({ key }) => key)));
    },
    async purgeOld(): Promise<void> {
      await db.delete(throttleEvents).where(lt(throttleEvents.at, since()));
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;

/**
 * A token bucket as SQL (a data-modifying statement for a WITH clause): takes one token from `key`'s
 * bucket, which holds `capacity` tokens and refills at capacity per `windowMs`; answers one row with
 * `allowed`. The row lock of the upsert makes parallel takes exact on every instance, in the same
 * statement as the action it guards. A refused take leaves the bucket at −1 at most, so a client that
 * keeps hammering stays refused until it pauses. `when` (SQL) takes no token unless it holds.
 */
export function takeTokenSql(key: string, rate: { capacity: number; windowMs: number }, when: SQL = sql`true`): SQL {
  return takeTokensSql(sql`select ${key}::text as key where ${when}`, rate);
}

/**
 * takeTokenSql for many keys in one statement: `keys` is a query answering distinct keys in a column
 * `key`; answers `key` and `allowed` per key.
 */
export function takeTokensSql(keys: SQL, rate: { capacity: number; windowMs: number }): SQL {
  const perSecond = (rate.capacity * 1000) / rate.windowMs;
  return sql`
    insert into ${throttleBuckets} as b (key, tokens, at)
    select k.key, ${rate.capacity - 1}::float8, now() from (${keys}) k
    on conflict (key) do update set
      tokens = greatest(-1, least(${rate.capacity}::float8, b.tokens + greatest(0, extract(epoch from now() - b.at)) * ${perSecond}::float8) - 1),
      at = greatest(b.at, now())
    returning key, tokens >= 0 as allowed, tokens`;
}

/**
 * takeTokenSql on its own, for a refusal that says when to come back: the seconds until the bucket
 * holds a token again (the Retry-After of a 429), 0 when this take was allowed.
 */
export async function takeTokenOrWait(db: Db, key: string, rate: { capacity: number; windowMs: number }): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const result = await db.execute(sql`with taken as (${takeTokenSql(key, rate)}) select allowed, tokens from taken`);
  const row = result.rows[0] as { allowed?: boolean; tokens?: number | string } | undefined;
  if (row?.allowed === true) return { allowed: true, retryAfterSeconds: 0 };
  // The next take needs the bucket back at one token: (1 − tokens) tokens at capacity per window.
  const missing = 1 - Number(row?.tokens ?? -1);
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((missing * rate.windowMs) / rate.capacity / 1000)) };
}

/** takeTokenSql on its own: whether the key's bucket had a token for this action. */
export async function takeToken(db: Db, key: string, rate: { capacity: number; windowMs: number }): Promise<boolean> {
  const result = await db.execute(takeTokenSql(key, rate));
  return (result.rows[0] as { allowed?: boolean } | undefined)?.allowed === true;
}

/** The longest window a bucket is used with (recovery codes per day). */
export const LONGEST_BUCKET_WINDOW_MS = 24 * 60 * 60_000;

/**
 * Deletes buckets untouched for longer than the longest window: a bucket refills within its window,
 * so a missing row — a full bucket — is the same.
 */
export async function purgeIdleBuckets(db: Db): Promise<void> {
  await db.delete(throttleBuckets).where(lt(throttleBuckets.at, new Date(Date.now() - LONGEST_BUCKET_WINDOW_MS)));
}
