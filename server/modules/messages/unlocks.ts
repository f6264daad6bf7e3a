/**
 * Paid messages (decision 0088): a recipient unlocks a message's medium by paying its price to the sender
 * through the ledger; the unlock row is written in the transfer's transaction, keyed like the transfer
 * (one per message and buyer), so a repeat or a race moves the coins once.
 */
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DirectMessage, MessageUnlock } from '../../../common/api/messages';
import { MSG } from '../../../common/messages';
import { sqlState, UNIQUE_VIOLATION, type Db } from '../../platform/db/client';
import { appError, conflict, notFound } from '../../platform/http/errors';
import { people } from '../accounts';
import { InsufficientFunds, paymentLegs, type Ledger } from '../ledger';
import type { Viewer } from '../streams';
import type { MessageMedia } from './media';
import { directMessages, messageUnlocks } from './tables';

type SignedIn = Viewer & { principal: NonNullable<Viewer['principal']> };

/** The ledger key of an unlock: one per message and buyer. */
export const unlockKey = (messageId: number, buyerId: number) => `message:${messageId}:buyer:${buyerId}`;

export function createMessageUnlocks(deps: { db: Db; ledger: Ledger; media: MessageMedia; feePercent: number }) {
  const { db, ledger } = deps;

  /** The message of one of the viewer's conversations, as they see it; 404 for any other. */
  async function ownMessage(viewer: SignedIn, messageId: number) {
    const [row] = await db.select().from(directMessages).where(and(eq(directMessages.id, messageId), isNull(directMessages.deletedAt)));
    const me = viewer.principal.userId;
    if (!row || (row.senderId !== me && row.recipientId !== me)) throw notFound(MSG.messageUnknown);
    return row;
  }

  const shown = async (row: Awaited<ReturnType<typeof ownMessage>>, viewer: SignedIn) => (await deps.media.present([row], viewer))[0]!;

  return {
    async lookup(viewer: SignedIn, messageId: number): Promise<DirectMessage> {
      return shown(await ownMessage(viewer, messageId), viewer);
    },

    async unlock(viewer: SignedIn, messageId: number): Promise<{ message: DirectMessage; balance: number }> {
      const buyerId = viewer.principal.userId;
      const row = await ownMessage(viewer, messageId);
      const balance = async () => (await ledger.balances(buyerId)).CON;
      if (row.recipientId !== buyerId) throw notFound(MSG.messageUnknown);
      if (row.mediaId === null || row.price === 0) throw conflict(MSG.messageNotForSale);
      const { fee, legs } = paymentLegs(buyerId, row.senderId, row.price, deps.feePercent);
      await ledger.gather(buyerId, 'CON');
      await ledger.warmAccounts(legs.map((l) => l.account));
      try {
        await db.transaction(async (tx) => {
          const { transferId } = await ledger.transfer({
            kind: 'message_unlock',
            idempotencyKey: unlockKey(messageId, buyerId),
            fromUserId: buyerId,
            toUserId: row.senderId,
            amount: row.price,
            currency: 'CON',
            details: { message_id: messageId, fee, fee_percent: deps.feePercent },
            legs,
          }, tx);
          await tx.insert(messageUnlocks).values({ messageId, userId: buyerId, sellerId: row.senderId, transferId, price: row.price }).onConflictDoNothing();
        });
      } catch (error) {
        if (error instanceof InsufficientFunds) throw appError('insufficient_funds', MSG.messageNeedsCoins);
        // Two unlocks at once: the ledger key lets one move the coins; the other finds it unlocked.
        if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
      }
      return { message: await shown(row, viewer), balance: await balance() };
    },

    /** Who unlocked the seller's messages, the latest first, with the coins all their unlocks brought. */
    async list(viewer: SignedIn, page: { offset: number; limit: number }): Promise<{ unlocks: MessageUnlock[]; total: number; coins: number }> {
      const sellerId = viewer.principal.userId;
      const mine = eq(messageUnlocks.sellerId, sellerId);
      const [rows, [totals]] = await Promise.all([
        db.select({ unlock: messageUnlocks, message: directMessages, username: people.username, avatar: people.avatar }).from(messageUnlocks)
          .innerJoin(directMessages, eq(directMessages.id, messageUnlocks.messageId))
          .innerJoin(people, eq(people.id, messageUnlocks.userId))
          .where(mine).orderBy(desc(messageUnlocks.createdAt), desc(messageUnlocks.messageId)).offset(page.offset).limit(page.limit),
        db.select({ total: count(), coins: sql<number>`coalesce(sum(${messageUnlocks.price}), 0)::int` }).from(messageUnlocks).where(mine),
      ]);
      const messages = await deps.media.present(rows.map((r) => r.message), viewer);
      return {
        total: Number(totals?.total ?? 0),
        coins: Number(totals?.coins ?? 0),
        unlocks: rows.map((r, i) => ({
          message_id: r.unlock.messageId,
          buyer: { user_id: r.unlock.userId, username: r.username, avatar: r.avatar },
          text: r.message.body,
          media: messages[i]!.media,
          price: r.unlock.price,
          time: new Date(r.unlock.createdAt).toISOString(),
        })),
      };
    },

    /** Each message to many's unlocks and the coins they brought. */
    async ofBroadcasts(broadcastIds: number[]): Promise<Map<number, { unlocks: number; coins: number }>> {
      if (broadcastIds.length === 0) return new Map();
      const rows = await db.select({ id: directMessages.broadcastId, unlocks: count(), coins: sql<number>`coalesce(sum(${messageUnlocks.price}), 0)::int` })
        .from(messageUnlocks).innerJoin(directMessages, eq(directMessages.id, messageUnlocks.messageId))
        .where(inArray(directMessages.broadcastId, broadcastIds)).groupBy(directMessages.broadcastId);
      return new Map(rows.map((r) => [Number(r.id), { unlocks: Number(r.unlocks), coins: Number(r.coins) }]));
    },
  };
}

export type MessageUnlocks = ReturnType<typeof createMessageUnlocks>;
