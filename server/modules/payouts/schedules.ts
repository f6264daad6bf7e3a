/**
 * Automatic payouts (decision 0061): a creator who opts in is paid everything available on their
 * schedule, when it reaches the minimum and no request is open. The job claims due schedules with a
 * lease (`FOR UPDATE SKIP LOCKED`, then `leased_until`), so several instances never run one schedule at
 * once; each run's request is keyed by the schedule's due time, so a run repeated after a kill -9 finds
 * the request it made instead of making another.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { PayoutSchedule } from '../../../common/api/payouts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { payoutPosition } from '../ledger';
import type { PayoutRequests } from './requests';
import { payoutSchedules } from './tables';

const LEASE_MS = 5 * 60_000;
const BATCH = 50;

/** The next due time after `from` that is later than `now`. */
export function nextRun(schedule: 'weekly' | 'monthly', from: Date, now: Date): Date {
  const next = new Date(from);
  do {
    if (schedule === 'weekly') next.setUTCDate(next.getUTCDate() + 7);
    else next.setUTCMonth(next.getUTCMonth() + 1);
  } while (next <= now);
  return next;
}

export function createSchedules(deps: { db: Db; requests: Pick<PayoutRequests, 'request'>; holdSeconds: number; minimumCoins: number; log: { warn(obj: object, msg: string): void } }) {
  const { db } = deps;

  /** One due schedule: a request for everything available, when that is enough; refusals (a hold, an open request) wait for the next run. */
  async function runOne(userId: number, dueAt: Date): Promise<boolean> {
    const { available } = await payoutPosition(db, userId, deps.holdSeconds);
    if (available < deps.minimumCoins) return false;
    try {
      await deps.requests.request(userId, available, `auto:${userId}:${dueAt.toISOString()}`, true);
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  }

  return {
    async of(userId: number): Promise<PayoutSchedule> {
      return (await db.select({ schedule: payoutSchedules.schedule }).from(payoutSchedules).where(eq(payoutSchedules.userId, userId)))[0]?.schedule ?? 'off';
    },

    /** Opting in starts the schedule now: the first run is the job's next. */
    async set(userId: number, schedule: PayoutSchedule, now = new Date()): Promise<PayoutSchedule> {
      if (schedule === 'off') await db.delete(payoutSchedules).where(eq(payoutSchedules.userId, userId));
      else await db.insert(payoutSchedules).values({ userId, schedule, nextRunAt: now })
        .onConflictDoUpdate({ target: payoutSchedules.userId, set: { schedule } });
      return schedule;
    },

    /** The job: claims due schedules in batches and runs each; answers the requests made. */
    async runDue(now = new Date()): Promise<number> {
      let made = 0;
      for (;;) {
        const { rows } = await db.execute<{ user_id: string | number; schedule: 'weekly' | 'monthly'; next_run_at: string | Date }>(sql`
          update ${payoutSchedules} set leased_until = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz
          where user_id in (
            select user_id from ${payoutSchedules}
            where next_run_at <= ${now.toISOString()}::timestamptz and (leased_until is null or leased_until <= ${now.toISOString()}::timestamptz)
            order by next_run_at limit ${BATCH} for update skip locked)
          returning user_id, schedule, next_run_at`);
        if (rows.length === 0) return made;
        for (const row of rows) {
          const userId = Number(row.user_id);
          const dueAt = new Date(row.next_run_at);
          try {
            if (await runOne(userId, dueAt)) made += 1;
          } catch (error) {
            // Left leased: tried again once the lease runs out.
            deps.log.warn({ err: error, userId }, 'automatic payout failed');
            continue;
          }
          await db.update(payoutSchedules).set({ nextRunAt: nextRun(row.schedule, dueAt, now), leasedUntil: null })
            .where(and(eq(payoutSchedules.userId, userId), eq(payoutSchedules.nextRunAt, dueAt)));
        }
      }
    },
  };
}

export type Schedules = ReturnType<typeof createSchedules>;
