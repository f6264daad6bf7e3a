/**
 * Get Popular: a broadcaster holding impressions ranks first in Popular, and every time one of
 * their streams is shown there it spends one impression. Showings are counted in memory and spent
 * through the ledger in one transfer per broadcaster per settlement, never below zero.
 */
import { randomUUID } from 'node:crypto';
import { InsufficientFunds, type Ledger } from '../ledger/service';

export function createImpressionMeter(deps: { ledger: Ledger; log: { warn(obj: object, msg: string): void } }) {
  const shownSinceSettled = new Map<number, number>();

  return {
    /** The owners of promoted streams just shown in Popular (one per stream tile). */
    shown(ownerIds: number[]) {
      for (const ownerId of ownerIds) shownSinceSettled.set(ownerId, (shownSinceSettled.get(ownerId) ?? 0) + 1);
    },

    /** Spends what was shown; an owner with fewer impressions left spends what remains. */
    async settle(): Promise<void> {
      const batch = [...shownSinceSettled];
      shownSinceSettled.clear();
      for (const [ownerId, shown] of batch) {
        const spend = Math.min(shown, (await deps.ledger.balances(ownerId)).IMP);
        if (spend <= 0) continue;
        try {
          await deps.ledger.transfer({
            kind: 'impressions',
            idempotencyKey: `impressions-shown:${randomUUID()}`,
            fromUserId: ownerId,
            amount: spend,
            currency: 'IMP',
            details: { shown },
            legs: [
              { account: { userId: ownerId, currency: 'IMP' }, amount: -spend },
              { account: { system: 'sales', currency: 'IMP' }, amount: spend },
            ],
          });
        } catch (error) {
          // Another instance spent them first: its settlement counted these showings' worth too.
          if (!(error instanceof InsufficientFunds)) deps.log.warn({ err: error, ownerId }, 'impressions not settled');
        }
      }
    },
  };
}

export type ImpressionMeter = ReturnType<typeof createImpressionMeter>;
