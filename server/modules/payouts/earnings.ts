/**
 * A creator's earnings as they see them (decision 0061): pending in the hold, available, paid out and in
 * an open request, with the fees taken, and the next date a payout can be asked for — the session user's
 * `env.next_withdraw_date`.
 */
import type { Earnings } from '../../../common/api/payouts';
import { COINS_PER_USD } from '../../../common/constants';
import type { Executor } from '../../platform/db/client';
import { earnedProbe, maturesEnoughAt, payoutPosition, type PayoutPosition } from '../ledger';
import type { PayoutRequests } from './requests';

export function createEarnings(deps: { db: Executor; requests: Pick<PayoutRequests, 'totals'>; holdSeconds: number; minimumCoins: number }) {
  const { db, holdSeconds, minimumCoins } = deps;
  const hasEarned = earnedProbe(db);

  /** Now when enough is available; else when the earnings in the hold make it enough; null when they never do. */
  async function nextWithdrawDate(userId: number, position: PayoutPosition, now = new Date()): Promise<Date | null> {
    if (position.available >= minimumCoins) return now;
    return maturesEnoughAt(db, userId, holdSeconds, minimumCoins - position.available, now);
  }

  return {
    /** The session user's date: read from the books only for someone who has earned (most people never have). */
    nextWithdrawDate: async (userId: number) => ((await hasEarned(userId)) ? nextWithdrawDate(userId, await payoutPosition(db, userId, holdSeconds)) : null),

    async of(userId: number): Promise<Earnings> {
      const now = new Date();
      const position = await payoutPosition(db, userId, holdSeconds, now);
      const totals = (await deps.requests.totals([userId])).get(userId) ?? { paidOut: 0, inPayout: 0 };
      const next = await nextWithdrawDate(userId, position, now);
      return {
        pending: position.pending,
        available: position.available,
        paid_out: totals.paidOut,
        in_payout: totals.inPayout,
        earned_total: position.matured + position.pending,
        fees_taken: position.feesTaken,
        minimum: minimumCoins,
        hold_seconds: holdSeconds,
        coins_per_usd: COINS_PER_USD,
        next_withdraw_date: next?.toISOString() ?? null,
      };
    },
  };
}

export type EarningsReads = ReturnType<typeof createEarnings>;
