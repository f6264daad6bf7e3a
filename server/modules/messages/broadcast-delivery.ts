/**
 * The delivery of messages to many (decision 0086): the job `deliver-message-broadcasts` claims a sending
 * broadcast for a while and delivers it as each recipient's own conversation. Each batch (the
 * conversations, both members' rows, the messages, the cursor) is one transaction, and a message's key
 * (`broadcast-<id>-<recipient>`) lets it in once, so two instances or a run after kill -9 neither lose a
 * recipient nor deliver one twice.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { BroadcastAudience } from '../../../common/rules/messages';
import { userChannelOf, type RealtimeMessage } from '../../../common/realtime';
import type { Db, Executor } from '../../platform/db/client';
import type { MessageMedia } from './media';
import { conversationMembers, conversations, directMessages, messageBlocks, messageBroadcasts, messageSettings } from './tables';
import { integerArray } from '../../platform/db/arrays';

type BroadcastRow = typeof messageBroadcasts.$inferSelect;
type Publish = (channel: string, message: RealtimeMessage) => Promise<void>;

/** Recipients a batch delivers to; a claim outlives several batches. */
export const BROADCAST_BATCH = 2_000;
export const CLAIM_MS = 30_000;
/** A run delivers for at most this long, then leaves the rest to the next (the job runs every second). */
const RUN_BUDGET_MS = 5_000;

const bigintArray = (ids: readonly number[]) => sql`${integerArray(ids)}::bigint[]`;

export function createBroadcastDelivery(deps: {
  db: Db;
  /** Who a broadcast goes to, as SQL answering `user_id`. */
  audienceSql: (senderId: number, audience: BroadcastAudience, planId: number | null) => SQL;
  publish: Publish;
  /** How the realtime frames describe a message's medium. */
  media: Pick<MessageMedia, 'present'>;
  log: { warn(obj: object, msg: string): void };
  now?: () => number;
  /** Recipients a batch delivers to (BROADCAST_BATCH). */
  batchSize?: number;
}) {
  const { db } = deps;
  const batchSize = deps.batchSize ?? BROADCAST_BATCH;
  const now = deps.now ?? Date.now;

  /** The next recipients past the cursor: in the audience, not blocked either way, taking messages to many. */
  async function nextRecipients(exec: Executor, row: BroadcastRow): Promise<number[]> {
    const { rows } = await exec.execute<{ user_id: string | number }>(sql`select r.user_id from (${deps.audienceSql(row.senderId, row.audience, row.planId)}) r
      where r.user_id > ${row.cursor} and r.user_id <> ${row.senderId}
        and not exists (select 1 from ${messageBlocks} b where (b.blocker_id = r.user_id and b.blocked_id = ${row.senderId}) or (b.blocker_id = ${row.senderId} and b.blocked_id = r.user_id))
        and coalesce((select s.bulk from ${messageSettings} s where s.user_id = r.user_id), true)
      order by r.user_id limit ${batchSize}`);
    return rows.map((r) => Number(r.user_id));
  }

  /** One batch in one transaction; answers the recipients whose message it wrote (none: the broadcast is done). */
  async function deliverBatch(row: BroadcastRow): Promise<{ delivered: Array<{ id: number; recipientId: number; at: Date }>; done: boolean }> {
    return db.transaction(async (tx) => {
      const [current] = await tx.select().from(messageBroadcasts).where(eq(messageBroadcasts.id, row.id)).for('update');
      if (!current || current.state !== 'sending') return { delivered: [], done: true };
      const ids = await nextRecipients(tx, current);
      if (ids.length === 0) {
        await tx.update(messageBroadcasts).set({ state: 'done', finishedAt: new Date(), claimedUntil: null }).where(eq(messageBroadcasts.id, row.id));
        return { delivered: [], done: true };
      }
      const sender = current.senderId;
      await tx.execute(sql`insert into ${conversations} (low_id, high_id, started_by)
        select least(r, ${sender}::bigint), greatest(r, ${sender}::bigint), ${sender} from unnest(${bigintArray(ids)}) r
        on conflict do nothing`);
      await tx.execute(sql`insert into ${conversationMembers} (conversation_id, user_id, partner_id)
        select c.id, side.user_id, side.partner_id from unnest(${bigintArray(ids)}) r
        join ${conversations} c on c.low_id = least(r, ${sender}::bigint) and c.high_id = greatest(r, ${sender}::bigint)
        cross join lateral (values (r, ${sender}::bigint), (${sender}::bigint, r)) side(user_id, partner_id)
        on conflict do nothing`);
      const { rows } = await tx.execute<{ id: string | number; recipient_id: string | number; created_at: string | Date }>(sql`
        insert into ${directMessages} (conversation_id, sender_id, recipient_id, body, client_key, broadcast_id, media_id, price)
        select c.id, ${sender}, r, ${current.body}, 'broadcast-' || ${current.id} || '-' || r, ${current.id}, ${current.mediaId}::bigint, ${current.price}::int
        from unnest(${bigintArray(ids)}) r
        join ${conversations} c on c.low_id = least(r, ${sender}::bigint) and c.high_id = greatest(r, ${sender}::bigint)
        on conflict (sender_id, client_key) do nothing
        returning id, recipient_id, created_at`);
      const delivered = rows.map((r) => ({ id: Number(r.id), recipientId: Number(r.recipient_id), at: new Date(r.created_at) }));
      if (delivered.length > 0) {
        const [messageIds, recipientIds] = [delivered.map((d) => d.id), delivered.map((d) => d.recipientId)];
        await tx.execute(sql`update ${conversationMembers} m set unread = m.unread + 1, last_message_at = now()
          where m.partner_id = ${sender} and m.user_id = any(${bigintArray(recipientIds)})`);
        await tx.execute(sql`update ${conversationMembers} m set wrote = true, last_message_at = now(), read_id = greatest(m.read_id, sent.id)
          from unnest(${bigintArray(recipientIds)}, ${bigintArray(messageIds)}) sent(recipient_id, id)
          where m.user_id = ${sender} and m.partner_id = sent.recipient_id`);
      }
      await tx.update(messageBroadcasts).set({
        cursor: sql`greatest(${messageBroadcasts.cursor}, ${ids.at(-1)!})`,
        delivered: sql`${messageBroadcasts.delivered} + ${delivered.length}`,
        claimedUntil: new Date(now() + CLAIM_MS),
      }).where(eq(messageBroadcasts.id, row.id));
      return { delivered, done: false };
    });
  }

  /** Tells the recipients' pages (each with their unread count); a page that missed it reads it on its next look. */
  async function announce(row: BroadcastRow, delivered: Array<{ id: number; recipientId: number; at: Date }>) {
    if (delivered.length === 0) return;
    try {
      const { rows } = await db.execute<{ user_id: string | number; unread: number }>(sql`select m.user_id, coalesce(sum(m.unread), 0)::int as unread
        from ${conversationMembers} m where m.user_id = any(${bigintArray(delivered.map((d) => d.recipientId))}) group by m.user_id`);
      const unread = new Map(rows.map((r) => [Number(r.user_id), Number(r.unread)]));
      const messages = await deps.media.present(delivered.map((d) => ({
        id: d.id, senderId: row.senderId, recipientId: d.recipientId, body: row.body, createdAt: d.at, mediaId: row.mediaId, price: row.price,
      })), null);
      for (const [i, d] of delivered.entries()) {
        const message = messages[i]!;
        await deps.publish(userChannelOf(d.recipientId), { type: 'DM', data: { message, unread: unread.get(d.recipientId) ?? 0 } });
      }
    } catch (error) {
      deps.log.warn({ err: error, broadcastId: row.id }, 'a message to many was not announced');
    }
  }

  /** Claims a sending broadcast no other instance holds: the oldest first. */
  async function claim(): Promise<BroadcastRow | undefined> {
    const { rows } = await db.execute<{ id: string | number }>(sql`update ${messageBroadcasts} set claimed_until = ${new Date(now() + CLAIM_MS)}
      where id = (select id from ${messageBroadcasts} where state = 'sending' and (claimed_until is null or claimed_until < ${new Date(now())})
        order by id limit 1 for update skip locked)
      returning id`);
    const id = rows[0]?.id;
    if (id === undefined) return undefined;
    const [row] = await db.select().from(messageBroadcasts).where(eq(messageBroadcasts.id, Number(id)));
    return row;
  }

  return {
    /** The job: delivers claimed broadcasts batch by batch for up to RUN_BUDGET_MS; answers the messages written. */
    async deliver(): Promise<number> {
      const started = now();
      let written = 0;
      for (let row = await claim(); row; row = now() - started < RUN_BUDGET_MS ? await claim() : undefined) {
        for (;;) {
          const batch = await deliverBatch(row);
          written += batch.delivered.length;
          await announce(row, batch.delivered);
          if (batch.done) break;
          if (now() - started >= RUN_BUDGET_MS) {
            // Left for the next run, on whichever instance claims it first.
            await db.update(messageBroadcasts).set({ claimedUntil: null }).where(eq(messageBroadcasts.id, row.id));
            break;
          }
        }
      }
      return written;
    },
  };
}
export type BroadcastDelivery = ReturnType<typeof createBroadcastDelivery>;
