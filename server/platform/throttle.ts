/** Counts failures per key in a sliding window, in the database so every instance sees the same count. */
import { and, count, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Db } from './db/client';
import { throttleEvents } from './db/platform-tables';

export function createThrottle(db: Db, options: { maxFailures: number; windowMs: number }) {
  const since = () => new Date(Date.now() - options.windowMs);
  return {
    /** True when any of the keys has reached the limit inside the window. */
    async isLimited(keys: string[]): Promise<boolean> {
      for (const key of keys) {
        const [row] = await db
          .select({ n: count() })
          .from(throttleEvents)
          .where(and(eq(throttleEvents.key, key), gte(throttleEvents.at, since())));
        if ((row?.n ?? 0) >= options.maxFailures) return true;
      }
      return false;
    },
    async recordFailure(keys: string[]): Promise<void> {
      await db.insert(throttleEvents).values(keys.map((key) => ({ key })));
    },
    async clear(keys: string[]): Promise<void> {
      await db.delete(throttleEvents).where(inArray(throttleEvents.key, keys));
    },
    async purgeOld(): Promise<void> {
      await db.delete(throttleEvents).where(lt(throttleEvents.at, since()));
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
