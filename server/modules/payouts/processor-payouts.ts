/**
 * Payouts that settle through a processor's API (decision 0063), Stripe Connect today. Approved, a
 * request goes `sent` (with the approver, audited) and is handed to the processor with its key
 * (`po_<id>`); the answer — at once, by webhook, or by the reconcile job asking — settles it through the
 * same `decide` step the bank's answer uses: paid, failed (coins back), or returned when Stripe reverses a paid
 * transfer (coins back from `paid-out`, the step a bank's return takes). Each step is guarded by the states it may start from, so an answer heard twice,
 * late or out of order moves nothing again.
 */
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import type { PayoutRequests, PayoutRow } from './requests';
import type { TransferAnswer } from './stripe-connect';
import { payoutRequests, stripeConnectAccounts } from './tables';

/** A request `sent` is asked about again no sooner than this (the reconcile job's lease). */
export const PROCESSOR_LEASE_MS = 5 * 60_000;
/** An approved request its approver did not hand over (killed in between) is sent by the job after this. */
export const SEND_GRACE_MS = 60_000;
const BATCH = 20;

export interface PayoutProcessor {
  /** Pays the request (idempotent by its key); throws while the outcome is unknown. */
  pay(p: { requestId: number; userId: number; usdCents: number; destination: string }): Promise<TransferAnswer>;
  /** The request's transfer as the processor has it now; null when none was made. */
  find(requestId: number): Promise<TransferAnswer | null>;
}

type Log = { warn(obj: object, msg: string): void };

export function createProcessorPayouts(deps: { db: Db; requests: Pick<PayoutRequests, 'decide'>; processor: PayoutProcessor; log: Log }) {
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

  /** What the processor said about a request, applied once whatever the order it is heard in. */
  async function settle(requestId: number, answer: TransferAnswer): Promise<PayoutRow | null> {
    const [row] = await db.select().from(payoutRequests).where(eq(payoutRequests.id, requestId));
    if (!row || row.method !== 'stripe_connect') return null;
    if (answer.ref && row.processorRef === null) {
      await db.update(payoutRequests).set({ processorRef: answer.ref }).where(and(eq(payoutRequests.id, requestId), sql`${payoutRequests.processorRef} is null`));
    }
    if (answer.state === 'paid') return row.state === 'sent' ? step(requestId, 'paid', null) : null;
    if (row.state === 'sent') return step(requestId, 'failed', null, answer.reason);
    if (answer.state === 'reversed' && row.state === 'paid') return step(requestId, 'returned', null, answer.reason);
    return null;
  }

  async function destinationOf(userId: number): Promise<string | null> {
    const [account] = await db.select({ id: stripeConnectAccounts.accountId }).from(stripeConnectAccounts).where(eq(stripeConnectAccounts.userId, userId));
    return account?.id ?? null;
  }

  /** Hands a sent request to the processor and settles what it answers; an unknown outcome waits for the job. */
  async function pay(row: PayoutRow): Promise<void> {
    const destination = await destinationOf(row.userId);
    if (!destination) {
      await settle(row.id, { state: 'failed', ref: null, reason: 'No Stripe account to pay' });
      return;
    }
    let answer: TransferAnswer;
    try {
      answer = await deps.processor.pay({ requestId: row.id, userId: row.userId, usdCents: row.usdCents, destination });
    } catch (error) {
      deps.log.warn({ payoutRequest: row.id, err: error instanceof Error ? error.message : String(error) }, 'the processor did not answer a payout; asked again later');
      return;
    }
    await settle(row.id, answer);
  }

  /** Approved: sent now, by the approver (audited as theirs), with the lease that keeps the job away meanwhile. */
  async function send(id: number, actorId: number | null, now = new Date()): Promise<void> {
    const sent = await step(id, 'send', actorId);
    if (!sent) return;
    await db.update(payoutRequests).set({ reconcileAfter: new Date(now.getTime() + PROCESSOR_LEASE_MS) }).where(eq(payoutRequests.id, id));
    await pay(sent);
  }

  return {
    send,
    settle,

    /**
     * The job: requests the approver never handed over, and requests sent whose answer was lost. Claimed
     * under a lease (`FOR UPDATE SKIP LOCKED`), so several instances never ask about one at once; a sent
     * request is looked up by its transfer group and paid again with the same key only when none exists.
     */
    async reconcile(now = new Date()): Promise<{ asked: number; settled: number }> {
      const lease = new Date(now.getTime() + PROCESSOR_LEASE_MS);
      const stale = new Date(now.getTime() - SEND_GRACE_MS);
      const claimed = await db.transaction(async (tx) => {
        const due = await tx.select({ id: payoutRequests.id }).from(payoutRequests)
          .where(and(eq(payoutRequests.method, 'stripe_connect'), or(
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
          if (row.state === 'approved') {
            await send(row.id, null, now);
          } else {
            const found = await deps.processor.find(row.id);
            if (found) await settle(row.id, found);
            else await pay(row);
          }
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
