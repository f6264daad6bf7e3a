/**
 * Payouts that settle through a processor's API: Stripe Connect (decision 0063) and PayPal Payouts
 * (decision 0064), one instance per processor. Approved, a request goes `sent` (with the approver,
 * audited) and is handed to the processor with its key (`po_<id>`); the answer — at once, by webhook, or
 * by the reconcile job asking — settles it through the same `decide` step the bank's answer uses: paid,
 * failed (coins back), or returned when the processor takes a paid payout back (coins back from
 * `paid-out`, the step a bank's return takes). Each step is guarded by the states it may start from, so an
 * answer heard twice, late or out of order moves nothing again. A success heard for a payout already
 * failed here (an operator gave up on it) moves nothing either: it is flagged for an operator.
 */
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { PayoutMethodId } from '../../../common/api/payouts';
import { recordAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import type { PayoutRequests, PayoutRow } from './requests';
import { payoutRequests } from './tables';

/** A request `sent` is asked about again no sooner than this (the reconcile job's lease). */
export const PROCESSOR_LEASE_MS = 5 * 60_000;
/** An approved request its approver did not hand over (killed in between) is sent by the job after this. */
export const SEND_GRACE_MS = 60_000;
const BATCH = 20;

/** From when an administrator may mark a sent request failed: its answer is overdue by a whole lease. */
export const markFailedAfter = (row: Pick<PayoutRow, 'state' | 'updatedAt'>): Date | null =>
  row.state === 'sent' ? new Date(row.updatedAt.getTime() + PROCESSOR_LEASE_MS) : null;

/**
 * What the processor says of a payout: paid; accepted and not settled yet (`pending`: PayPal's batch
 * being processed, or waiting for the receiver to claim it); taken back after it was paid; or refused.
 */
export type PayoutAnswer =
  | { state: 'paid'; ref: string }
  | { state: 'pending'; ref: string }
  | { state: 'reversed'; ref: string; reason: string }
  | { state: 'failed'; ref: string | null; reason: string };

export interface PayoutProcessor {
  /** Pays the request (idempotent by its key); throws while the outcome is unknown. */
  pay(p: { requestId: number; userId: number; usdCents: number; destination: string }): Promise<PayoutAnswer>;
  /** The request's payout as the processor has it now (`ref`: what it answered before, if anything); null when none is known. */
  find(request: { id: number; ref: string | null }): Promise<PayoutAnswer | null>;
}

type Log = { warn(obj: object, msg: string): void };

export function createProcessorPayouts(deps: {
  db: Db; requests: Pick<PayoutRequests, 'decide'>; processor: PayoutProcessor; log: Log;
  /** The payout method this processor pays, and its name for operators. */
  method: PayoutMethodId; name: string;
  /** Where the creator is paid (an account, an email); null when nowhere. */
  destination(userId: number): Promise<string | null>;
}) {
  const { db, requests } = deps;

  /** One step, unless the request already moved past it (another instance, an earlier event). */
  async function step(id: number, name: 'send' | 'paid' | 'failed' | 'returned', actorId: number | null, reason: string | null = null): Promise<PayoutRow | null> {
    try {
      return await requests.decide(id, name, actorId, reason);
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict') return null;
      throw error;
    }
  }

  /** The processor paid a payout failed here (its coins given back): nothing moves, an operator is told once. */
  async function lateSuccess(row: PayoutRow, ref: string): Promise<null> {
    const attention = `${deps.name} paid this payout (${ref}) after it failed here, and its coins were given back: recover the money from the creator or take the payout back with ${deps.name}.`;
    const flagged = await db.transaction(async (tx) => {
      const [marked] = await tx.update(payoutRequests).set({ attention })
        .where(and(eq(payoutRequests.id, row.id), eq(payoutRequests.state, 'failed'), isNull(payoutRequests.attention))).returning();
      if (marked) await recordAudit(tx, { actorId: null, action: 'payout.late-success', targetType: 'payout', targetId: row.id, before: { state: 'failed' }, after: { state: 'failed', processor_ref: ref } });
      return marked !== undefined;
    });
    if (flagged) deps.log.warn({ payoutRequest: row.id }, 'a processor paid a payout already failed: flagged for an operator');
    return null;
  }

  /** What the processor said about a request, applied once whatever the order it is heard in. */
  async function settle(requestId: number, answer: PayoutAnswer): Promise<PayoutRow | null> {
    const [row] = await db.select().from(payoutRequests).where(eq(payoutRequests.id, requestId));
    if (!row || row.method !== deps.method) return null;
    if (answer.ref && row.processorRef === null) {
      await db.update(payoutRequests).set({ processorRef: answer.ref }).where(and(eq(payoutRequests.id, requestId), sql`${payoutRequests.processorRef} is null`));
    }
    if (answer.state === 'pending') return null;
    if (answer.state === 'paid') {
      if (row.state === 'sent') return step(requestId, 'paid', null);
      return row.state === 'failed' ? lateSuccess(row, answer.ref) : null;
    }
    if (row.state === 'sent') return step(requestId, 'failed', null, answer.reason);
    if (answer.state === 'reversed' && row.state === 'paid') return step(requestId, 'returned', null, answer.reason);
    return null;
  }

  /** Hands a sent request to the processor and settles what it answers; an unknown outcome waits for the job. */
  async function pay(row: PayoutRow): Promise<PayoutAnswer | null> {
    const destination = await deps.destination(row.userId);
    if (!destination) {
      await settle(row.id, { state: 'failed', ref: null, reason: `No ${deps.name} account to pay` });
      return null;
    }
    let answer: PayoutAnswer;
    try {
      answer = await deps.processor.pay({ requestId: row.id, userId: row.userId, usdCents: row.usdCents, destination });
    } catch (error) {
      deps.log.warn({ payoutRequest: row.id, err: error instanceof Error ? error.message : String(error) }, 'the processor did not answer a payout; asked again later');
      return null;
    }
    await settle(row.id, answer);
    return answer;
  }

  /** Approved: sent now, by the approver (audited as theirs), with the lease that keeps the job away meanwhile. */
  async function send(id: number, actorId: number | null, now = new Date()): Promise<void> {
    const sent = await step(id, 'send', actorId);
    if (!sent) return;
    await db.update(payoutRequests).set({ reconcileAfter: new Date(now.getTime() + PROCESSOR_LEASE_MS) }).where(eq(payoutRequests.id, id));
    await pay(sent);
  }

  /** A request sent before: asked about; none known, paid again with the same key, and a payout that answer names is asked about at once. */
  async function reconcileSent(row: PayoutRow): Promise<void> {
    const found = await deps.processor.find({ id: row.id, ref: row.processorRef });
    if (found) {
      await settle(row.id, found);
      return;
    }
    const answer = await pay(row);
    if (answer?.state === 'pending') {
      const now = await deps.processor.find({ id: row.id, ref: answer.ref });
      if (now) await settle(row.id, now);
    }
  }

  return {
    method: deps.method,
    send,
    settle,

    /**
     * The job: requests the approver never handed over, and requests sent whose answer was lost. Claimed
     * with `FOR UPDATE SKIP LOCKED` and leased, so several instances never ask about one at once.
     */
    async reconcile(now = new Date()): Promise<{ asked: number; settled: number }> {
      const lease = new Date(now.getTime() + PROCESSOR_LEASE_MS);
      const stale = new Date(now.getTime() - SEND_GRACE_MS);
      const claimed = await db.transaction(async (tx) => {
        const due = await tx.select({ id: payoutRequests.id }).from(payoutRequests)
          .where(and(eq(payoutRequests.method, deps.method), or(
            and(eq(payoutRequests.state, 'sent'), or(lte(payoutRequests.reconcileAfter, now), and(sql`${payoutRequests.reconcileAfter} is null`, lte(payoutRequests.updatedAt, stale)))),
            and(eq(payoutRequests.state, 'approved'), lte(payoutRequests.updatedAt, stale), or(sql`${payoutRequests.reconcileAfter} is null`, lte(payoutRequests.reconcileAfter, now))),
          )))
          .orderBy(payoutRequests.id).limit(BATCH).for('update', { skipLocked: true });
        if (due.length === 0) return [];
        return tx.update(payoutRequests).set({ reconcileAfter: lease }).where(inArray(payoutRequests.id, due.map((d) => d.id))).returning();
      });
      let settled = 0;
      for (const row of claimed) {
        try {
          if (row.state === 'approved') await send(row.id, null, now);
          else await reconcileSent(row);
          const [after] = await db.select({ state: payoutRequests.state }).from(payoutRequests).where(eq(payoutRequests.id, row.id));
          if (after && after.state !== 'sent' && after.state !== 'approved') settled += 1;
        } catch (error) {
          deps.log.warn({ payoutRequest: row.id, err: error instanceof Error ? error.message : String(error) }, 'reconciling a payout failed; asked again later');
        }
      }
      return { asked: claimed.length, settled };
    },
  };
}

export type ProcessorPayouts = ReturnType<typeof createProcessorPayouts>;
