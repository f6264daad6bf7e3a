/**
 * Commission settlements: counted activity is paid to its broadcaster once per period, after the period
 * closed (plus a grace for counts still being written). Each (broadcaster, period) is one transaction:
 * it claims the period's unsettled rows (`settled_at`) and makes one ledger transfer of kind
 * `ad_commission` from the campaign accounts of the offers counted (decision 0037: each holds at least
 * its offer's unsettled commissions), keyed by broadcaster and period — so two instances
 * never pay a period twice (the second finds the rows claimed, or the key taken), and a crash rolls back
 * the claim with the transfer. The clock is passed in.
 */
import { and, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import type { Ledger } from '../ledger';
import { campaignAccount } from './campaign';
import { adActivity } from './tables';

/**
 * Counts written up to this long after a period closed still belong to it: a count is one statement
 * stamped with its own start, so it commits within milliseconds of the time it carries.
 */
export const SETTLEMENT_GRACE_MS = 15_000;
/** How often the job looks for closed periods (one index range read when there is nothing to pay). */
export const SETTLEMENT_EVERY_MS = 15_000;
const GROUPS_PER_RUN = 200;

export function createSettlement(deps: { db: Db; ledger: Ledger; periodMs: number; log: { warn(obj: object, msg: string): void } }) {
  const { db, ledger, periodMs } = deps;
  // A whole number of seconds from the configuration, written into the statement so GROUP BY matches the select.
  const periodSeconds = sql.raw(String(Math.round(periodMs / 1000)));
  const periodOf = sql<string>`to_timestamp(floor(extract(epoch from ${adActivity.countedAt}) / ${periodSeconds}) * ${periodSeconds})`;

  async function settle(broadcasterId: number, periodStart: Date) {
    const periodEnd = new Date(periodStart.getTime() + periodMs);
    await db.transaction(async (tx) => {
      const claimed = await tx.update(adActivity).set({ settledAt: sql`now()` })
        .where(and(
          sql`${adActivity.broadcasterId} = ${broadcasterId}`,
          isNull(adActivity.settledAt),
          sql`${adActivity.countedAt} >= ${periodStart.toISOString()}::timestamptz and ${adActivity.countedAt} < ${periodEnd.toISOString()}::timestamptz`,
        ))
        .returning({ offerId: adActivity.offerId, commission: adActivity.commission, activity: adActivity.activity });
      const amount = claimed.reduce((sum, row) => sum + row.commission, 0);
      if (amount === 0) return;
      const counts = { impression: 0, click: 0, complete: 0 };
      const perOffer = new Map<number, number>();
      for (const row of claimed) {
        counts[row.activity] += 1;
        perOffer.set(row.offerId, (perOffer.get(row.offerId) ?? 0) + row.commission);
      }
      const outcome = await ledger.transfer({
        kind: 'ad_commission',
        idempotencyKey: `ad-commission:${broadcasterId}:${periodStart.toISOString()}`,
        toUserId: broadcasterId,
        amount,
        currency: 'CON',
        details: { period_start: periodStart.toISOString(), period_end: periodEnd.toISOString(), counted: counts },
        legs: [
          ...[...perOffer].map(([offerId, coins]) => ({ account: campaignAccount(offerId), amount: -coins })),
          { account: { userId: broadcasterId, currency: 'CON' }, amount },
        ],
      }, tx);
      if (!outcome.created) deps.log.warn({ broadcasterId, periodStart }, 'ad commission of a settled period counted again; left unpaid');
    });
  }

  return {
    /** Pays every closed period's unsettled activity; answers how many (broadcaster, period) settlements ran. */
    async run(now: Date = new Date()): Promise<number> {
      const closedBefore = new Date(Math.floor((now.getTime() - SETTLEMENT_GRACE_MS) / periodMs) * periodMs);
      const due = await db.select({ broadcasterId: adActivity.broadcasterId, period: periodOf }).from(adActivity)
        .where(and(isNull(adActivity.settledAt), lt(adActivity.countedAt, closedBefore)))
        .groupBy(adActivity.broadcasterId, periodOf).limit(GROUPS_PER_RUN);
      for (const group of due) await settle(group.broadcasterId, new Date(group.period));
      return due.length;
    },
  };
}

export type Settlement = ReturnType<typeof createSettlement>;
