/**
 * Tip menus (decision 0080): a broadcaster's actions at fixed prices. A viewer buys one with a tip of
 * that price; the tip's own statement writes the request (`requestSql`), so a tip and its request commit
 * together and a retried tip requests once. The broadcaster works through the stream's queue of requests.
 */
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { MenuItemInput, MenuRequest, TipMenuItem } from '../../../common/api/tips';
import { MSG } from '../../../common/messages';
import { lockForTransaction } from '../../platform/db/advisory-lock';
import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { tipMenuItems, tipMenuRequests } from './tables';

type ItemRow = typeof tipMenuItems.$inferSelect;
type RequestRow = typeof tipMenuRequests.$inferSelect;

const toItem = (row: ItemRow): TipMenuItem => ({ item_id: row.id, label: row.label, price: row.price });

/** The most requests the queue lists: the stream's latest. */
const QUEUE_MAX = 200;

export function createTipMenu(deps: { db: Db; accounts: Pick<AccountsService, 'publicUsers'> }) {
  const { db } = deps;

  const offered = (userId: number) => db.select().from(tipMenuItems)
    .where(and(eq(tipMenuItems.userId, userId), isNull(tipMenuItems.removedAt))).orderBy(asc(tipMenuItems.position));

  async function asRequests(rows: RequestRow[]): Promise<MenuRequest[]> {
    const people = await deps.accounts.publicUsers([...new Set(rows.map((row) => row.viewerId))]);
    return rows.map((row) => {
      const person = people.get(row.viewerId);
      return {
        request_id: row.transferId, user_id: row.viewerId, name: person ? person.fullname || person.username : '', avatar: person?.avatar ?? null,
        label: row.label, price: row.price, time: row.createdAt.toISOString(), done: row.done,
      };
    });
  }

  return {
    async items(userId: number): Promise<TipMenuItem[]> {
      return (await offered(userId)).map(toItem);
    },

    /** Replaces the broadcaster's menu: the items there were stay for the requests that name them. */
    async save(userId: number, items: MenuItemInput[]): Promise<TipMenuItem[]> {
      return db.transaction(async (tx) => {
        // One saving at a time per broadcaster: positions continue from the last.
        await lockForTransaction(tx, `tip-menu:${userId}`);
        await tx.update(tipMenuItems).set({ removedAt: new Date() }).where(and(eq(tipMenuItems.userId, userId), isNull(tipMenuItems.removedAt)));
        if (items.length === 0) return [];
        const [last] = await tx.select({ position: sql<number>`coalesce(max(${tipMenuItems.position}), 0)` }).from(tipMenuItems).where(eq(tipMenuItems.userId, userId));
        const rows = await tx.insert(tipMenuItems)
          .values(items.map((item, i) => ({ userId, position: (last?.position ?? 0) + i + 1, label: item.label, price: item.price })))
          .returning();
        return rows.sort((a, b) => a.position - b.position).map(toItem);
      });
    },

    /** The action a tip on `ownerId`'s stream buys: on their menu now, or refused. */
    async offeredItem(ownerId: number, itemId: number): Promise<ItemRow> {
      const [row] = await db.select().from(tipMenuItems)
        .where(and(eq(tipMenuItems.id, itemId), eq(tipMenuItems.userId, ownerId), isNull(tipMenuItems.removedAt)));
      if (!row) throw notFound(MSG.menuItemGone);
      return row;
    },

    /** The request, as a statement run with the tip's transfer (`t`: its row; none when nothing moved). */
    requestSql(streamId: number, viewerId: number, item: ItemRow): SQL {
      return sql`insert into ${tipMenuRequests} (transfer_id, stream_id, item_id, viewer_id, label, price)
        select t.id, ${streamId}, ${item.id}, ${viewerId}, ${item.label}, ${item.price} from t`;
    },

    /** The stream's queue, oldest first (the owner's: the route checks). */
    async requests(streamId: number): Promise<MenuRequest[]> {
      const rows = await db.select().from(tipMenuRequests).where(eq(tipMenuRequests.streamId, streamId))
        .orderBy(sql`${tipMenuRequests.createdAt} desc, ${tipMenuRequests.transferId} desc`).limit(QUEUE_MAX);
      return asRequests(rows.reverse());
    },

    async mark(streamId: number, requestId: number, done: boolean): Promise<MenuRequest> {
      const [row] = await db.update(tipMenuRequests).set({ done })
        .where(and(eq(tipMenuRequests.transferId, requestId), eq(tipMenuRequests.streamId, streamId))).returning();
      if (!row) throw notFound(MSG.menuRequestUnknown);
      return (await asRequests([row]))[0]!;
    },
  };
}

export type TipMenu = ReturnType<typeof createTipMenu>;
