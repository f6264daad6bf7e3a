/**
 * Prepaid campaigns (decision 0037): each offer has its own ledger system account, `ad-campaign:<offer>`,
 * which only its funding fills and which pays only that offer's commissions and what is given back.
 * `ad_offers.budget` is the part not yet owed for counted activity: funding adds to it, a count takes its
 * commission from it (or earns nothing when it cannot), a withdrawal takes what is left. So the campaign
 * account always holds the budget plus the offer's unsettled commissions, and a settlement never asks it
 * for more than it holds.
 */
import { eq, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import type { Db, Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { appError, conflict, notFound } from '../../platform/http/errors';
import { InsufficientFunds, type AccountRef, type Ledger } from '../ledger';
import type { OfferRow } from './offers';
import { adOffers } from './tables';

/** The ledger account an offer's commissions are paid from. */
export const campaignAccount = (offerId: number): AccountRef => ({ system: `ad-campaign:${offerId}`, currency: 'CON' });

export function createCampaigns(deps: { db: Db; ledger: Pick<Ledger, 'transfer' | 'gather' | 'transferIdByKey' | 'transferById'> }) {
  const { db, ledger } = deps;

  /** Gives the budget of the offer's locked row back to its advertiser, in the caller's transaction; answers the coins. */
  async function refund(tx: Executor, locked: OfferRow, idempotencyKey: string): Promise<number> {
    const coins = locked.budget;
    if (coins === 0) return 0;
    await tx.update(adOffers).set({ budget: 0 }).where(eq(adOffers.id, locked.id));
    await ledger.transfer({
      kind: 'ad_refund', idempotencyKey, toUserId: locked.ownerId, amount: coins, currency: 'CON', details: { offer_id: locked.id },
      legs: [{ account: campaignAccount(locked.id), amount: -coins }, { account: { userId: locked.ownerId, currency: 'CON' }, amount: coins }],
    }, tx);
    return coins;
  }

  /** The offer's row, locked until the transaction ends: fundings, withdrawals and counts of one offer take turns. */
  async function locked(tx: Executor, offerId: number): Promise<OfferRow> {
    const [row] = await tx.select().from(adOffers).where(eq(adOffers.id, offerId)).for('update');
    return row!;
  }

  return {
    /** Moves coins from the caller's wallet to the offer's campaign; a repeated key moves nothing again. */
    async fund(principal: Principal, offer: OfferRow, coins: number, key: string): Promise<void> {
      const idempotencyKey = `ad-funding:${principal.userId}:${key}`;
      if (await ledger.transferIdByKey(idempotencyKey)) return;
      // Coins still in the payer's receiving shards are gathered first: a transfer inside a transaction cannot.
      await ledger.gather(principal.userId, 'CON');
      try {
        await db.transaction(async (tx) => {
          // Withdrawn meanwhile: its budget went back already, nothing may be added to it.
          if ((await locked(tx, offer.id)).deletedAt) throw notFound(MSG.adsOfferUnknown);
          const { created } = await ledger.transfer({
            kind: 'ad_funding', idempotencyKey, fromUserId: principal.userId, amount: coins, currency: 'CON', details: { offer_id: offer.id },
            legs: [{ account: { userId: principal.userId, currency: 'CON' }, amount: -coins }, { account: campaignAccount(offer.id), amount: coins }],
          }, tx);
          if (created) await tx.update(adOffers).set({ budget: sql`${adOffers.budget} + ${coins}` }).where(eq(adOffers.id, offer.id));
        });
      } catch (error) {
        if (error instanceof InsufficientFunds) throw appError('insufficient_funds', MSG.adsFundNeedsCoins);
        throw error;
      }
    },

    /** Gives a paused offer's budget back to its advertiser; answers the coins (a repeated key: the first answer's). */
    async withdraw(principal: Principal, offer: OfferRow, key: string): Promise<number> {
      const idempotencyKey = `ad-refund:${offer.id}:${principal.userId}:${key}`;
      const earlier = await ledger.transferIdByKey(idempotencyKey);
      if (earlier) return (await ledger.transferById(earlier))?.amount ?? 0;
      if (!offer.pausedAt) throw conflict(MSG.adsPauseBeforeWithdraw);
      const coins = await db.transaction(async (tx) => {
        const row = await locked(tx, offer.id);
        return row.pausedAt ? refund(tx, row, idempotencyKey) : 0;
      });
      if (coins === 0) throw conflict(MSG.adsNothingToWithdraw);
      return coins;
    },

    /** Withdraws the offer for good, its budget going back to the advertiser in the same transaction. */
    async retire(offer: OfferRow): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await locked(tx, offer.id);
        await tx.update(adOffers).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(adOffers.id, row.id));
        await refund(tx, row, `ad-refund:${offer.id}:retired`);
      });
    },
  };
}

export type Campaigns = ReturnType<typeof createCampaigns>;
