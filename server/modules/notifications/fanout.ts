/**
 * The fan-out job: a broadcaster going live writes one row (`notification_fanouts`); this job notifies
 * their followers from it in batches, each batch one transaction that inserts the notifications with
 * their deliveries and moves the row's cursor. A crash rolls the batch back whole; the next run starts
 * at the cursor, and the per-person source key stops any repeat. Instances skip a row another holds.
 */
import { asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { notifyingFollowersSql } from '../social';
import { notifyPeople, type Created } from './store';
import { notificationFanouts } from './tables';

export function createFanout(deps: { db: Db; batch: number; announce: (created: Created[]) => Promise<void> }) {
  const { db } = deps;
  return {
    /** Queues the go-live of a stream (once per stream, whatever calls it twice). */
    async queueGoLive(tx: Db, live: { streamId: number; ownerId: number; title: string }) {
      await tx.insert(notificationFanouts).values({
        sourceKey: `stream_live:${live.streamId}`, kind: 'stream_live', actorId: live.ownerId, subjectId: live.streamId, data: { title: live.title },
      }).onConflictDoNothing();
    },

    /** One batch of one open fan-out; answers whether there may be more. */
    async step(): Promise<boolean> {
      let created: Created[] = [];
      const worked = await db.transaction(async (tx) => {
        const [job] = await tx.select().from(notificationFanouts).where(isNull(notificationFanouts.doneAt))
          .orderBy(asc(notificationFanouts.id)).limit(1).for('update', { skipLocked: true });
        if (!job) return false;
        const batch = await tx.execute<{ user_id: string }>(sql`
          select user_id from (${notifyingFollowersSql(job.actorId)}) f where user_id > ${job.cursor} order by user_id limit ${deps.batch}`);
        const ids = batch.rows.map((row) => Number(row.user_id));
        created = await notifyPeople(tx, { kind: job.kind, actorId: job.actorId, subjectId: job.subjectId, data: job.data, dedupeKey: job.sourceKey }, ids);
        await tx.update(notificationFanouts)
          .set({ cursor: ids.at(-1) ?? job.cursor, doneAt: ids.length < deps.batch ? new Date() : null })
          .where(eq(notificationFanouts.id, job.id));
        return true;
      });
      await deps.announce(created);
      return worked;
    },
  };
}

export type Fanout = ReturnType<typeof createFanout>;
