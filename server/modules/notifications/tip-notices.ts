/**
 * Tips in the bell without costing the tip: `tip.received` is written with the tip's transfer (one
 * statement) to the event outbox, whose delivery hands this instance a batch of tips at once; their
 * notices are written together, in one statement for whatever arrived together. Each tip's handler
 * resolves once its notice is written (or rejects with its statement, so the outbox delivers the tip
 * again); the source key (`tip:<transfer>`) keeps every tip to one notice however often it is delivered.
 */
import type { Db } from '../../platform/db/client';
import { notifyEach, type Created, type Notice } from './store';

export interface TipFact {
  transferId: number;
  ownerId: number;
  tipperId: number;
  streamId: number | null;
  amount: number;
}

const BATCH = 5000;

const noticeOf = (tip: TipFact): Notice => ({
  userId: tip.ownerId, actorId: tip.tipperId, subjectId: tip.streamId, data: { amount: tip.amount }, dedupeKey: `tip:${tip.transferId}`,
});

interface Waiting {
  tip: TipFact;
  written: () => void;
  failed: (error: unknown) => void;
}

export function createTipNotices(deps: { db: Db; created: (created: Created[]) => Promise<void> }) {
  const waiting: Waiting[] = [];
  let writing: Promise<void> | null = null;

  function startWriting() {
    writing ??= writeWaiting().finally(() => {
      writing = null;
      // Handed in between the last batch and here: nobody else would write it.
      if (waiting.length > 0) startWriting();
    });
  }

  async function writeWaiting() {
    while (waiting.length > 0) {
      // The rest of the outbox's batch joins in: its rows are handed over side by side.
      await new Promise((resolve) => setImmediate(resolve));
      const batch = waiting.splice(0, BATCH);
      try {
        const created = await notifyEach(deps.db, 'tip_received', batch.map((w) => noticeOf(w.tip)));
        for (const w of batch) w.written();
        await deps.created(created);
      } catch (error) {
        for (const w of batch) w.failed(error);
      }
    }
  }

  return {
    /** A committed tip: resolves once its notice is written, with the others handed in meanwhile. */
    add(tip: TipFact): Promise<void> {
      const done = new Promise<void>((written, failed) => waiting.push({ tip, written, failed }));
      startWriting();
      return done;
    },

    /** Waits for the notices handed in so far (a clean stop). */
    flush: async () => {
      while (writing) await writing;
    },
  };
}

export type TipNotices = ReturnType<typeof createTipNotices>;
