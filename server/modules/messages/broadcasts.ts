/**
 * Messages to many (decision 0086): a creator's one message to their followers or subscribers (of every
 * plan or one), optionally with a medium at a price (decision 0088), recorded here and delivered by the
 * job (broadcast-delivery.ts); the sender's list says how far it got, who read it and who unlocked it.
 */
import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import type { MessageBroadcast } from '../../../common/api/messages';
import { fill, MSG } from '../../../common/messages';
import { BROADCASTS_PER_DAY, type BroadcastAudience } from '../../../common/rules/messages';
import type { Db, Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { forbidden, notFound, tooManyRequests } from '../../platform/http/errors';
import type { Viewer } from '../streams';
import type { MessageMedia } from './media';
import { isCreator } from './permission';
import type { MessageUnlocks } from './unlocks';
import { conversationMembers, directMessages, messageBroadcasts } from './tables';

type BroadcastRow = typeof messageBroadcasts.$inferSelect;

export function createBroadcasts(deps: {
  db: Db;
  offersPlan: (exec: Executor, creatorId: number, planId: number) => Promise<boolean>;
  /** The sender's vault medium a message carries, and how messages show it. */
  vaultMedium: (ownerId: number, mediaId: number) => Promise<number>;
  media: MessageMedia;
  unlocks: Pick<MessageUnlocks, 'ofBroadcasts'>;
  now?: () => number;
}) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  /** As its sender sees it (`viewer`): its medium signed for them, its reads and its unlocks. */
  async function shapeFor(row: BroadcastRow, viewer: Viewer | null): Promise<MessageBroadcast> {
    const [{ rows }, unlocks, [asMessage]] = await Promise.all([
      db.execute<{ n: number }>(sql`select count(*)::int as n from ${directMessages} d
        join ${conversationMembers} m on m.conversation_id = d.conversation_id and m.user_id = d.recipient_id
        where d.broadcast_id = ${row.id} and m.read_id >= d.id`),
      deps.unlocks.ofBroadcasts([row.id]),
      deps.media.present([{ id: 0, senderId: row.senderId, recipientId: 0, body: row.body, createdAt: row.createdAt, mediaId: row.mediaId, price: row.price }], viewer),
    ]);
    const sold = unlocks.get(row.id);
    return {
      broadcast_id: row.id, audience: row.audience, plan_id: row.planId, text: row.body, media: asMessage!.media, price: row.price,
      unlocks: sold?.unlocks ?? 0, coins: sold?.coins ?? 0, state: row.state, delivered: row.delivered,
      read: Number(rows[0]?.n ?? 0), created_time: row.createdAt.toISOString(), finished_time: row.finishedAt?.toISOString() ?? null,
    };
  }

  return {
    async send(viewer: Viewer & { principal: Principal }, input: {
      audience: BroadcastAudience; plan_id?: number | undefined; text: string; media_id?: number | undefined; price: number; client_key: string;
    }): Promise<MessageBroadcast> {
      const sender = viewer.principal;
      if (!isCreator(sender)) throw forbidden(MSG.broadcastsCreatorsOnly);
      const shape = (row: BroadcastRow) => shapeFor(row, viewer);
      const known = async () => (await db.select().from(messageBroadcasts)
        .where(and(eq(messageBroadcasts.senderId, sender.userId), eq(messageBroadcasts.clientKey, input.client_key))))[0];
      const again = await known();
      if (again) return shape(again);
      const planId = input.audience === 'subscribers' ? (input.plan_id ?? null) : null;
      if (planId !== null && !(await deps.offersPlan(db, sender.userId, planId))) throw notFound(MSG.planNotYours);
      const [sentToday] = await db.select({ n: count() }).from(messageBroadcasts)
        .where(and(eq(messageBroadcasts.senderId, sender.userId), gte(messageBroadcasts.createdAt, new Date(now() - 24 * 3600_000))));
      if ((sentToday?.n ?? 0) >= BROADCASTS_PER_DAY) throw tooManyRequests(fill(MSG.broadcastsPerDay, { count: BROADCASTS_PER_DAY }));
      const mediaId = input.media_id === undefined ? null : await deps.vaultMedium(sender.userId, input.media_id);
      const [made] = await db.insert(messageBroadcasts)
        .values({ senderId: sender.userId, audience: input.audience, planId, body: input.text, mediaId, price: mediaId === null ? 0 : input.price, clientKey: input.client_key })
        .onConflictDoNothing().returning();
      return shape(made ?? (await known())!);
    },

    async list(viewer: Viewer & { principal: Principal }, page: { offset: number; limit: number }) {
      const senderId = viewer.principal.userId;
      const [rows, [total]] = await Promise.all([
        db.select().from(messageBroadcasts).where(eq(messageBroadcasts.senderId, senderId)).orderBy(desc(messageBroadcasts.id)).offset(page.offset).limit(page.limit),
        db.select({ n: count() }).from(messageBroadcasts).where(eq(messageBroadcasts.senderId, senderId)),
      ]);
      return { broadcasts: await Promise.all(rows.map((row) => shapeFor(row, viewer))), total: total?.n ?? 0 };
    },
  };
}
export type Broadcasts = ReturnType<typeof createBroadcasts>;
