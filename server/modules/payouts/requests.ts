/**
 * Payout requests (decision 0061): made by the creator or their schedule, decided by an operator, paid or
 * failed by the method. Every step is one transaction: the request's state, its ledger transfer (keyed by
 * the request and the step, so a step never moves coins twice), the audit entry and the event for the
 * creator's notification commit together or not at all, so a kill -9 leaves either step whole or none.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { OPEN_PAYOUT_STATES, type PayoutRequest, type PayoutState } from '../../../common/api/payouts';
import type { AuditAction } from '../../../common/console';
import { COINS_PER_USD } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { recordAudit } from '../../platform/audit/audit';
import { sqlState, UNIQUE_VIOLATION, type Db, type Executor } from '../../platform/db/client';
import type { EventOutbox } from '../../platform/event-outbox';
import { badRequest, conflict, forbidden, notFound } from '../../platform/http/errors';
import { InsufficientFunds, lockWallet, payoutPosition, type Ledger, type TransferRequest } from '../ledger';
import { methodOf } from './methods';
import type { PayoutReadinessCheck } from './readiness';
import { payoutRequests } from './tables';
import './events';

export type PayoutRow = typeof payoutRequests.$inferSelect;

export const usdCentsOf = (coins: number) => (coins * 100) / COINS_PER_USD;

export const requestOut = (row: PayoutRow): PayoutRequest => ({
  id: row.id, coins: row.coins, usd_cents: row.usdCents, method: row.method, state: row.state, reason: row.reason, automatic: row.automatic,
  requested_at: row.requestedAt.toISOString(), updated_at: row.updatedAt.toISOString(),
});

/**
 * The ledger transfer of each step: coins into the holding account, out of the platform, or back; and,
 * for a paid transfer the bank sent back (`bank-return`), from the money-out account back to the wallet.
 */
type TransferStep = 'hold' | 'paid' | 'returned' | 'bank-return';
function stepTransfer(row: PayoutRow, step: TransferStep): TransferRequest {
  const wallet = { userId: row.userId, currency: 'CON' as const };
  const holding = { system: 'payouts' as const, currency: 'CON' as const };
  const paidOut = { system: 'paid-out' as const, currency: 'CON' as const };
  const legs = {
    hold: [{ account: wallet, amount: -row.coins }, { account: holding, amount: row.coins }],
    paid: [{ account: holding, amount: -row.coins }, { account: paidOut, amount: row.coins }],
    returned: [{ account: holding, amount: -row.coins }, { account: wallet, amount: row.coins }],
    'bank-return': [{ account: paidOut, amount: -row.coins }, { account: wallet, amount: row.coins }],
  }[step];
  return {
    kind: 'payout',
    idempotencyKey: `payout:${row.id}:${step}`,
    ...(step === 'hold' || step === 'paid' ? { fromUserId: row.userId } : { toUserId: row.userId }),
    amount: row.coins,
    currency: 'CON',
    details: { payout_request: row.id, step, usd_cents: row.usdCents, method: row.method },
    legs,
  };
}

/** Where each decision may start from, what it moves and how it is audited. */
const STEPS = {
  approve: { from: ['requested'], to: 'approved', transfer: null, audit: 'payout.approve' },
  reject: { from: ['requested', 'approved'], to: 'rejected', transfer: 'returned', audit: 'payout.reject' },
  // Handed to a processor's API (decision 0063): `sent` until it answers.
  send: { from: ['approved'], to: 'sent', transfer: null, audit: 'payout.send' },
  paid: { from: ['exported', 'sent'], to: 'paid', transfer: 'paid', audit: 'payout.paid' },
  failed: { from: ['exported', 'sent'], to: 'failed', transfer: 'returned', audit: 'payout.failed' },
  // An administrator gives up on a processor that never answered (decision 0064): the failed step, audited as theirs.
  'mark-failed': { from: ['sent'], to: 'failed', transfer: 'returned', audit: 'payout.mark-failed' },
  // The creator's own, before an operator took it up.
  cancel: { from: ['requested'], to: 'cancelled', transfer: 'returned', audit: 'payout.cancel' },
  // The bank (or Stripe, reversing the transfer) sent a paid payout back: the money is the platform's again, the coins the creator's.
  returned: { from: ['paid'], to: 'returned', transfer: 'bank-return', audit: 'payout.returned' },
} as const satisfies Record<string, { from: readonly PayoutState[]; to: PayoutState; transfer: Exclude<TransferStep, 'hold'> | null; audit: AuditAction }>;
export type PayoutStep = keyof typeof STEPS;

export function createPayoutRequests(deps: {
  db: Db; ledger: Ledger; outbox: EventOutbox; readiness: PayoutReadinessCheck; holdSeconds: number; minimumCoins: number;
}) {
  const { db, ledger, outbox } = deps;

  const changed = (row: PayoutRow) => ({ requestId: row.id, userId: row.userId, state: row.state, coins: row.coins, reason: row.reason });
  const byKey = async (requestKey: string) => (await db.select().from(payoutRequests).where(eq(payoutRequests.requestKey, requestKey)))[0] ?? null;

  /**
   * Takes `coins` of the user's available earnings out of their wallet into the payouts account as a new
   * request. `requestKey` names the request: asked again, it answers the request it made.
   */
  async function request(userId: number, coins: number, requestKey: string, automatic = false): Promise<PayoutRow> {
    const earlier = await byKey(requestKey);
    if (earlier) return earlier;
    if (coins < deps.minimumCoins) throw badRequest(fill(MSG.payoutBelowMinimum, { minimum: deps.minimumCoins }), 'coins');
    if ((await ledger.holdOf(userId)).held) throw forbidden(MSG.payoutOnHold);
    const ready = await deps.readiness(userId);
    if (!ready.ready) throw conflict(fill(MSG.payoutNotReady, { missing: ready.requirements.filter((r) => !r.done).map((r) => r.key.replace('_', ' ')).join(', ') }));
    const method = (await methodOf(db, userId))!.method;
    // Earnings land on receiving shards; only the wallet row pays inside a transaction.
    await ledger.gather(userId, 'CON');
    try {
      const row = await db.transaction(async (tx) => {
        await lockWallet(tx, userId);
        const { available } = await payoutPosition(tx, userId, deps.holdSeconds);
        if (coins > available) throw conflict(fill(MSG.payoutAboveAvailable, { available }), 'coins');
        const [made] = await tx.insert(payoutRequests).values({ userId, coins, usdCents: usdCentsOf(coins), method, automatic, requestKey }).returning();
        await ledger.transfer(stepTransfer(made!, 'hold'), tx);
        await outbox.write(tx, 'payout.changed', changed(made!));
        return made!;
      });
      await outbox.afterCommit('payout.changed', changed(row));
      return row;
    } catch (error) {
      if (error instanceof InsufficientFunds) throw conflict(fill(MSG.payoutAboveAvailable, { available: 0 }), 'coins');
      if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
      // The same request committed meanwhile, or another one is open.
      const same = await byKey(requestKey);
      if (same) return same;
      throw conflict(MSG.payoutOpen);
    }
  }

  /**
   * One decision on a request, by an operator (`actorId`) or the bank's answer: the state moves only from
   * the states the step allows, with its transfer, audit entry and event in the same transaction.
   */
  async function decide(id: number, step: PayoutStep, actorId: number | null, reason: string | null = null, exec?: Executor): Promise<PayoutRow> {
    const rule = STEPS[step];
    const run = async (tx: Executor) => {
      const [row] = await tx.select().from(payoutRequests).where(eq(payoutRequests.id, id)).for('update');
      if (!row) throw notFound(MSG.payoutUnknown);
      if (!(rule.from as readonly PayoutState[]).includes(row.state)) throw conflict(fill(MSG.payoutNotOpen, { state: row.state }));
      if (step === 'approve' && (await ledger.holdOf(row.userId, tx)).held) throw conflict(MSG.payoutCreatorHeld);
      if (rule.transfer) await ledger.transfer(stepTransfer(row, rule.transfer), tx);
      const [updated] = await tx.update(payoutRequests)
        .set({ state: rule.to, reason, decidedBy: actorId, updatedAt: new Date() })
        .where(eq(payoutRequests.id, id)).returning();
      await recordAudit(tx, { actorId, action: rule.audit, targetType: 'payout', targetId: id, before: { state: row.state }, after: { state: rule.to, coins: row.coins, ...(reason ? { reason } : {}) } });
      await outbox.write(tx, 'payout.changed', changed(updated!));
      return updated!;
    };
    const row = exec ? await run(exec) : await db.transaction(run);
    if (!exec) await outbox.afterCommit('payout.changed', changed(row));
    return row;
  }

  /**
   * The creator cancels their own request while it is only `requested`; cancelled already, it answers the
   * same. Someone else's request is not told to exist (404).
   */
  async function cancel(userId: number, id: number): Promise<PayoutRow> {
    let moved = false;
    const row = await db.transaction(async (tx) => {
      const [mine] = await tx.select().from(payoutRequests).where(and(eq(payoutRequests.id, id), eq(payoutRequests.userId, userId))).for('update');
      if (!mine) throw notFound(MSG.payoutUnknown);
      if (mine.state === 'cancelled') return mine;
      if (mine.state !== 'requested') throw conflict(fill(MSG.payoutNotCancellable, { state: mine.state }));
      moved = true;
      return decide(id, 'cancel', userId, null, tx);
    });
    if (moved) await outbox.afterCommit('payout.changed', changed(row));
    return row;
  }

  return {
    request,
    decide,
    cancel,
    byId: async (id: number): Promise<PayoutRow | null> => (await db.select().from(payoutRequests).where(eq(payoutRequests.id, id)))[0] ?? null,

    /** The user's open request, and their requests newest first. */
    async of(userId: number, limit = 20) {
      const rows = await db.select().from(payoutRequests).where(eq(payoutRequests.userId, userId)).orderBy(sql`${payoutRequests.id} desc`).limit(limit);
      const [open] = await db.select().from(payoutRequests)
        .where(and(eq(payoutRequests.userId, userId), inArray(payoutRequests.state, [...OPEN_PAYOUT_STATES])));
      return { open: open ?? null, history: rows };
    },

    /** Coins paid out and in open requests, per user. */
    async totals(userIds: number[]) {
      if (userIds.length === 0) return new Map<number, { paidOut: number; inPayout: number }>();
      const rows = await db.select({
        userId: payoutRequests.userId,
        paidOut: sql<string>`coalesce(sum(${payoutRequests.coins}) filter (where ${payoutRequests.state} = 'paid'), 0)`,
        inPayout: sql<string>`coalesce(sum(${payoutRequests.coins}) filter (where ${inArray(payoutRequests.state, [...OPEN_PAYOUT_STATES])}), 0)`,
      }).from(payoutRequests).where(inArray(payoutRequests.userId, userIds)).groupBy(payoutRequests.userId);
      return new Map(rows.map((r) => [r.userId, { paidOut: Number(r.paidOut), inPayout: Number(r.inPayout) }]));
    },
  };
}

export type PayoutRequests = ReturnType<typeof createPayoutRequests>;
