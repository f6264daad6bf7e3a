/**
 * Get Popular: a broadcaster holding impressions ranks first in Popular, and every visitor shown one
 * of their streams there spends one impression, once per window: a signed-in viewer by account, a
 * guest by address (a header anyone can change does not make a new visitor). Showings are gathered in
 * memory and settled in batches: the showings table decides, on every instance, which are new in their
 * window, and each broadcaster pays for those in one ledger transfer, never below zero.
 */
import { randomUUID } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { InsufficientFunds, type Ledger } from '../ledger';
import { impressionShowings } from './tables';

/** A visitor counts once per promoted broadcaster in this window. */
export const SHOWING_WINDOW_MS = 30 * 60_000;

export function createImpressionMeter(deps: {
  db: Db;
  ledger: Ledger;
  log: { warn(obj: object, msg: string): void };
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  /** `owner viewer-key window` keys seen since the last settlement. */
  let seen = new Map<string, { ownerId: number; visitor: string; windowStart: Date }>();

  async function spend(ownerId: number, shown: number) {
    const amount = Math.min(shown, (await deps.ledger.balances(ownerId)).IMP);
    if (amount <= 0) return;
    try {
      await deps.ledger.transfer({
        kind: 'impressions',
        idempotencyKey: `impressions-shown:${randomUUID()}`,
        fromUserId: ownerId,
        amount,
        currency: 'IMP',
        details: { shown },
        legs: [
          { account: { userId: ownerId, currency: 'IMP' }, amount: -amount },
          { account: { system: 'sales', currency: 'IMP' }, amount },
        ],
      });
    } catch (error) {
      // Another instance spent them first: its settlement counted these showings' worth too.
      if (!(error instanceof InsufficientFunds)) deps.log.warn({ err: error, ownerId }, 'impressions not settled');
    }
  }

  return {
    /** The owners of promoted streams just shown in Popular to this visitor (one per stream tile). */
    shown(ownerIds: number[], viewerKey: string) {
      const windowStart = new Date(Math.floor(now() / SHOWING_WINDOW_MS) * SHOWING_WINDOW_MS);
      for (const ownerId of ownerIds) seen.set(`${ownerId} ${viewerKey} ${windowStart.getTime()}`, { ownerId, visitor: viewerKey, windowStart });
    },

    /** Spends one impression per showing new in its window; an owner with fewer left spends what remains. */
    async settle(): Promise<void> {
      const batch = [...seen.values()];
      seen = new Map();
      if (batch.length === 0) return;
      const fresh = await deps.db.insert(impressionShowings).values(batch).onConflictDoNothing()
        .returning({ ownerId: impressionShowings.ownerId });
      const perOwner = new Map<number, number>();
      for (const { ownerId } of fresh) perOwner.set(ownerId, (perOwner.get(ownerId) ?? 0) + 1);
      for (const [ownerId, shown] of perOwner) await spend(ownerId, shown);
    },

    /** Showings of windows that have closed are no longer needed. */
    async purgeClosedWindows(): Promise<void> {
      await deps.db.delete(impressionShowings).where(lt(impressionShowings.windowStart, sql`${new Date(now() - SHOWING_WINDOW_MS).toISOString()}::timestamptz`));
    },
  };
}

export type ImpressionMeter = ReturnType<typeof createImpressionMeter>;
