/**
 * A creator's earnings as they see them (decision 0061): pending in the hold, available, paid out and in
 * an open request, with the fees taken, and the next date a payout can be asked for — the session user's
 * `env.next_withdraw_date`.
 */
import type { Earnings } from '../../../common/api/payouts';
import { COINS_PER_USD } from '../../../common/constants';
import type { Executor } from '../../platform/db/client';
import { earnedProbe, maturesEnoughAt, payoutPosition, walletVersion, type PayoutPosition } from '../ledger';
import type { PayoutRequests } from './requests';

/** When a payout can next be asked for, as the books say it: now, at a date, or not with what is earned so far. */
type NextWithdraw = 'now' | Date | null;

/** Users whose next withdraw date an instance keeps (the oldest is dropped first). */
const KEPT_DATES = 10_000;

/**
 * Until the wallet moves, time only matures earnings: what was withdrawable stays so, a date the books
 * gave is right until it passes and then it is now, and earnings that never reach the minimum still do not.
 */
const asOf = (next: NextWithdraw, now: Date): Date | null => (next === 'now' || (next !== null && next <= now) ? now : next);

export function createEarnings(deps: { db: Executor; requests: Pick<PayoutRequests, 'totals'>; holdSeconds: number; minimumCoins: number }) {
  const { db, holdSeconds, minimumCoins } = deps;
  const hasEarned = earnedProbe(db);
  const versionOf = walletVersion(db);
  const kept = new Map<number, { version: string; next: NextWithdraw }>();

  async function nextWithdraw(userId: number, position: PayoutPosition, now: Date): Promise<NextWithdraw> {
    if (position.available >= minimumCoins) return 'now';
    return maturesEnoughAt(db, userId, holdSeconds, minimumCoins - position.available, now);
  }

  return {
    /**
     * The session user's date (every signed-in page asks it): one read of the wallet's version, and the
     * books summed only when the wallet moved since this instance last summed them, and only for someone
     * who has earned (most people never have). The version is read first: what is summed after it is at
     * least as new, so a movement in between is summed again next time.
     */
    async nextWithdrawDate(userId: number, now = new Date()): Promise<Date | null> {
      const version = await versionOf(userId);
      if (version === null) return null;
      const known = kept.get(userId);
      if (known !== undefined && known.version === version) return asOf(known.next, now);
      const next = (await hasEarned(userId)) ? await nextWithdraw(userId, await payoutPosition(db, userId, holdSeconds, now), now) : null;
      kept.delete(userId);
      if (kept.size >= KEPT_DATES) kept.delete(kept.keys().next().value!);
      kept.set(userId, { version, next });
      return asOf(next, now);
    },

    async of(userId: number): Promise<Earnings> {
      const now = new Date();
      const position = await payoutPosition(db, userId, holdSeconds, now);
      const totals = (await deps.requests.totals([userId])).get(userId) ?? { paidOut: 0, inPayout: 0 };
      const next = asOf(await nextWithdraw(userId, position, now), now);
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
