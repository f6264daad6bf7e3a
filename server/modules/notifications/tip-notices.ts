/**
 * Tips in the bell without costing the tip. A notice written in the tip's request would add two
 * statements to the busiest money path; instead this instance writes the notices of its tips together,
 * one statement for whatever arrived within a fifth of a second and while the last one ran. A notice lost with its instance (kill -9 between the tip's commit and its notice) or with a
 * failed statement is found by the sweep, which reads the ledger's tips once they are surely committed
 * and writes what is missing; the source key (`tip:<transfer>`) keeps every tip to one notice.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { tipFactsSql } from '../ledger';
import { notifyEach, type Created, type Notice } from './store';
import { notificationCursors } from './tables';

export interface TipFact {
  transferId: number;
  ownerId: number;
  tipperId: number;
  streamId: number | null;
  amount: number;
}

/** Tips younger than this may still be committing: the sweep leaves them to the next run. */
const SETTLED_SECONDS = 10;
/** Older tips than this are history: a sweep after a long stop does not ring the bell for them. */
const NEWS_HOURS = 1;
const BATCH = 5000;
/**
 * Notices wait this long for the others of their burst, before each batch: the bell is not a race, and
 * the four statements of a batch (the notices, their rows, the people, the unread counts) are worth
 * sharing.
 */
const GATHER_MS = 200;
const SOURCE = 'tip_received';

const noticeOf = (tip: TipFact): Notice => ({
  userId: tip.ownerId, actorId: tip.tipperId, subjectId: tip.streamId, data: { amount: tip.amount }, dedupeKey: `tip:${tip.transferId}`,
});

export function createTipNotices(deps: { db: Db; created: (created: Created[]) => Promise<void> }) {
  const { db } = deps;
  const waiting: TipFact[] = [];
  let writing: Promise<void> | null = null;

  async function writeWaiting() {
    while (waiting.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      const batch = waiting.splice(0, BATCH);
      // A failed batch is the sweep's to find: the tips are in the ledger.
      const created = await notifyEach(db, 'tip_received', batch.map(noticeOf)).catch(() => []);
      await deps.created(created);
    }
  }

  return {
    /** A committed tip: its notice is written with the others waiting, soon. */
    add(tip: TipFact) {
      waiting.push(tip);
      writing ??= writeWaiting().finally(() => {
        writing = null;
      });
    },

    /** Waits for the notices handed in so far (tests, and a clean stop). */
    flush: async () => {
      while (writing) await writing;
    },

    /**
     * One step of the sweep: the next settled tips after the cursor, their missing notices written and
     * the cursor moved in one transaction (another instance's sweep skips the locked cursor). True when
     * there may be more.
     */
    async sweepStep(): Promise<boolean> {
      const step = await db.transaction(async (tx) => {
        const cursor = await tx.execute<{ last_id: string | number }>(sql`select last_id from ${notificationCursors} where source = ${SOURCE} for update skip locked`);
        const lastId = cursor.rows[0]?.last_id;
        if (lastId === undefined) {
          // The first sweep starts from the newest tip; a cursor locked by another instance is theirs.
          const started = await tx.execute(sql`insert into ${notificationCursors} (source, last_id)
            select ${SOURCE}, coalesce(max(f.transfer_id), 0) from (${tipFactsSql}) f on conflict (source) do nothing returning last_id`);
          return { created: [], more: started.rows.length > 0 };
        }
        const tips = await tx.execute<{ transfer_id: string | number; creator_id: string | number; tipper_id: string | number | null; stream_id: string | number | null; coins: string | number; at: string | Date }>(sql`
          select f.transfer_id, f.creator_id, f.tipper_id, f.stream_id, f.coins, f.at from (${tipFactsSql}) f
          where f.transfer_id > ${lastId} and f.at < now() - make_interval(secs => ${SETTLED_SECONDS})
          order by f.transfer_id limit ${BATCH}`);
        if (tips.rows.length === 0) return { created: [], more: false };
        const newsSince = Date.now() - NEWS_HOURS * 3_600_000;
        const news = tips.rows.filter((row) => row.tipper_id !== null && new Date(row.at).getTime() >= newsSince);
        const created = await notifyEach(tx, 'tip_received', news.map((row) => noticeOf({
          transferId: Number(row.transfer_id), ownerId: Number(row.creator_id), tipperId: Number(row.tipper_id), streamId: row.stream_id === null ? null : Number(row.stream_id), amount: Number(row.coins),
        })));
        await tx.update(notificationCursors).set({ lastId: Number(tips.rows[tips.rows.length - 1]!.transfer_id) }).where(sql`${notificationCursors.source} = ${SOURCE}`);
        return { created, more: tips.rows.length === BATCH };
      });
      // The bell hears of them after the commit, like any other notice.
      await deps.created(step.created);
      return step.more;
    },
  };
}

export type TipNotices = ReturnType<typeof createTipNotices>;
