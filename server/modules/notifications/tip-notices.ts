/**
 * Tips in the bell without costing the tip: `tip.received` is written by the tip's own transfer statement
 * to the event outbox (decision 0052), and its delivery, after the request, writes the notice. The source
 * key (`tip:<transfer>`) keeps every tip to one notice however often it is delivered; a failed statement
 * fails the delivery, so the tip is delivered again.
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

const noticeOf = (tip: TipFact): Notice => ({
  userId: tip.ownerId, actorId: tip.tipperId, subjectId: tip.streamId, data: { amount: tip.amount }, dedupeKey: `tip:${tip.transferId}`,
});

/** The durable handler of a tip: its notice written, then announced (the bell, the delivery job). */
export function createTipNotices(deps: { db: Db; created: (created: Created[]) => Promise<void> }) {
  return async (tip: TipFact) => deps.created(await notifyEach(deps.db, 'tip_received', [noticeOf(tip)]));
}

export type TipNotices = ReturnType<typeof createTipNotices>;
