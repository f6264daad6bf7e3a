/**
 * Deposits through a processor's own page (decision 0055): the payment row is written, the provider
 * starts a checkout, the payer is sent there. What became of it arrives as provider events — the
 * webhook (stored once by id), the return page asking, or the reconcile job asking after the checkout
 * expired — and every path applies it through the same code, idempotently.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { fill, MSG } from '../../../common/messages';
import { formatCents } from '../../../common/rules/format';
import type { Db, Executor } from '../../platform/db/client';
import { recordAudit } from '../../platform/audit/audit';
import { appError, badRequest, conflict, notFound } from '../../platform/http/errors';
import { debtAccountName, depositTransfer, InsufficientFunds, type Ledger } from '../ledger';
import { openRecurringPackage, type RenewalNotices } from './coin-subscriptions';
import { RefundInProgress, type HostedPaymentProvider, type ProviderEvent, type SavedMethod } from './hosted-payment';
import type { PaymentMethod } from './payment-provider';
import { unlistedCoinPackage } from './packages';
import { hostedReference, paymentIdOfReference } from './renewal-chargers';
import type { DepositGate } from './risk/gate';
import { coinPackages, paymentEvents, payments } from './tables';

/** The hold a dispute keeps on its payer's account while it is open (decision 0057). */
export const disputeHold = (provider: string, disputeRef: string) => `dispute:${provider}:${disputeRef}`;
const takeBackKey = (why: 'refund' | 'dispute', provider: string, ref: string) => `${why}:${provider}:${ref}`;

/** A pending checkout past its expiry is asked about again no sooner than this (the reconcile job's lease). */
export const RECONCILE_LEASE_MS = 5 * 60_000;
export const RECONCILE_BATCH = 20;

type Payment = typeof payments.$inferSelect;
type Outcome = 'applied' | 'ignored' | 'deferred';

export interface HostedSettlement {
  succeeded(paymentId: number, provider: string, providerRef: string, at: Date, extras?: { paymentRef?: string; savedMethod?: SavedMethod }): Promise<{ moved: boolean }>;
  refused(paymentId: number, outcome: { status: 'declined' | 'failed' | 'expired'; providerRef?: string; message: string; at?: Date }): Promise<number | null>;
}

export function createHostedDeposits(deps: {
  db: Db;
  ledger: Ledger;
  hosted: Partial<Record<PaymentMethod, HostedPaymentProvider>>;
  settlement: HostedSettlement;
  notices: RenewalNotices;
  activeCoinPackage(id: number): Promise<typeof coinPackages.$inferSelect>;
  log: Pick<FastifyBaseLogger, 'warn'>;
  gate: DepositGate;
}) {
  const { db, hosted, settlement } = deps;
  const byName = new Map(Object.values(hosted).map((p) => [p.name, p]));

  /** The payment an event is about: by our reference when echoed, else by the provider's references. */
  async function paymentOf(provider: string, event: ProviderEvent): Promise<Payment | undefined> {
    const id = paymentIdOfReference(event.reference);
    if (id !== null) {
      const [row] = await db.select().from(payments).where(and(eq(payments.id, id), eq(payments.provider, provider)));
      if (row) return row;
    }
    for (const column of [payments.providerRef, payments.paymentRef]) {
      for (const ref of [event.providerRef, event.paymentRef]) {
        if (!ref) continue;
        const [row] = await db.select().from(payments).where(and(eq(payments.provider, provider), eq(column, ref)));
        if (row) return row;
      }
    }
    return undefined;
  }

  /**
   * Coins taken back for money given back (a refund) or taken back by the card's bank (a dispute), keyed
   * by the refund's or dispute's id: as many coins as its share of the price bought. What the wallet no
   * longer holds becomes the user's debt (decision 0057): retired to the mint on credit, the debt account
   * going below zero by as much, so the books stay conserved and the wallet stays on hold until it is paid.
   * A dispute also opens a hold on the account until it is closed.
   */
  async function takeBack(payment: Payment, provider: string, event: ProviderEvent, why: 'refund' | 'dispute'): Promise<Outcome> {
    if (!event.subjectRef || !event.amountCents || event.amountCents <= 0) return 'ignored';
    const cents = Math.min(event.amountCents, payment.amount);
    const [pkg] = await db.select({ coins: coinPackages.coins }).from(coinPackages).where(eq(coinPackages.id, payment.packageId));
    const owed = Math.floor((pkg!.coins * cents) / payment.amount);
    // Coins waiting in receiving shards (a broadcaster's tips) are the wallet's too; only shard 0 is debited in a transaction.
    await deps.ledger.gather(payment.userId, 'CON');
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await db.transaction(async (tx) => {
          if (why === 'dispute') await deps.ledger.openHold(payment.userId, disputeHold(provider, event.subjectRef!), tx);
          const held = (await deps.ledger.balances(payment.userId, tx)).CON;
          const coins = Math.max(0, Math.min(owed, held));
          const debt = owed - coins;
          const { created } = await deps.ledger.transfer({
            kind: 'refund',
            idempotencyKey: takeBackKey(why, provider, event.subjectRef!),
            fromUserId: payment.userId,
            amount: cents,
            currency: payment.currency,
            details: { payment_id: payment.id, refund_reference: `${provider}:${event.subjectRef}`, reason: why, coins, coins_owed: owed, debt },
            legs: [
              { account: { userId: payment.userId, currency: 'CON' }, amount: -coins },
              { account: { system: debtAccountName(payment.userId), currency: 'CON' }, amount: -debt },
              { account: { system: 'mint', currency: 'CON' }, amount: owed },
              { account: { system: 'sales', currency: payment.currency }, amount: -cents },
              { account: { system: 'card-payments', currency: payment.currency }, amount: cents },
            ],
          }, tx);
          if (created) await tx.update(payments).set({ refundedCents: sql`${payments.refundedCents} + ${cents}` }).where(eq(payments.id, payment.id));
          if (created && debt > 0) deps.log.warn({ paymentId: payment.id, userId: payment.userId, debt }, 'coins taken back that the wallet no longer held: the account owes them and is on hold');
          return 'applied' as const;
        });
      } catch (error) {
        // Spent between the read and the transfer: read again.
        if (!(error instanceof InsufficientFunds)) throw error;
      }
    }
    throw new Error(`refund ${event.subjectRef} could not be applied`);
  }

  /**
   * A dispute closed: its hold is released. Won, the bank gave the money back, so the dispute is undone
   * as money paid in again (a `deposit`, keyed by the dispute): the coins it took return, first
   * cancelling what the account still owes of it, the rest to the wallet. Lost, what is owed stays owed.
   */
  async function closeDispute(payment: Payment, provider: string, event: ProviderEvent): Promise<Outcome> {
    if (!event.subjectRef) return 'ignored';
    const reference = event.subjectRef;
    const taken = event.won ? await deps.ledger.transferByKey(takeBackKey('dispute', provider, reference)) : null;
    await db.transaction(async (tx) => {
      await deps.ledger.releaseHold(disputeHold(provider, reference), tx);
      if (!taken) return;
      const coins = Number(taken.details.coins_owed ?? 0);
      const cents = Number(taken.amount);
      if (!(coins > 0 && cents > 0)) return;
      const debtPaid = Math.min(Number(taken.details.debt ?? 0), await deps.ledger.debtOf(payment.userId, tx, true));
      const { created } = await deps.ledger.transfer(depositTransfer({
        userId: payment.userId,
        coins,
        money: { account: 'card-payments', currency: payment.currency, cents },
        paymentReference: `${provider}:${reference}`,
        idempotencyKey: `dispute-won:${provider}:${reference}`,
        details: { payment_id: payment.id, reason: 'dispute_won', provider },
        debtPaid,
      }), tx);
      if (created) await tx.update(payments).set({ refundedCents: sql`greatest(0, ${payments.refundedCents} - ${cents})` }).where(eq(payments.id, payment.id));
    });
    return 'applied';
  }

  /** Applies one event to its payment; the same event applied again moves nothing. */
  async function apply(provider: HostedPaymentProvider, event: ProviderEvent): Promise<{ outcome: Outcome; paymentId: number | null }> {
    const payment = await paymentOf(provider.name, event);
    // Another integration's event on the same account, or a payment this installation never made.
    if (!payment) return { outcome: 'ignored', paymentId: null };
    const done = (outcome: Outcome) => ({ outcome, paymentId: payment.id });
    switch (event.kind) {
      case 'payment.succeeded': {
        if (payment.status !== 'pending') return done('ignored');
        await settlement.succeeded(payment.id, provider.name, event.providerRef, event.occurredAt, { paymentRef: event.paymentRef, savedMethod: event.savedMethod });
        await applyWaiting(provider, payment.id);
        return done('applied');
      }
      case 'payment.failed':
      case 'payment.expired':
      case 'payment.underpaid': {
        if (payment.status !== 'pending') return done('ignored');
        const cancelled = await settlement.refused(payment.id, {
          status: event.kind === 'payment.expired' ? 'expired' : 'failed',
          message: (event.message ?? event.kind).slice(0, 300),
          at: event.occurredAt,
        });
        if (cancelled !== null) await deps.notices.cardRefused(cancelled);
        return done('applied');
      }
      case 'refund.succeeded':
        if (payment.status === 'pending') return done('deferred');
        if (payment.status !== 'succeeded') return done('ignored');
        return done(await takeBack(payment, provider.name, event, 'refund'));
      case 'dispute.opened':
        // The bank took the money back: so are the coins, as far as the wallet holds them.
        if (payment.status === 'pending') return done('deferred');
        if (payment.status !== 'succeeded') return done('ignored');
        deps.log.warn({ paymentId: payment.id, disputeRef: event.subjectRef }, 'a deposit is disputed; its coins are taken back');
        return done(await takeBack(payment, provider.name, event, 'dispute'));
      case 'dispute.closed':
        if (payment.status === 'pending') return done('deferred');
        if (payment.status !== 'succeeded') return done('ignored');
        return done(await closeDispute(payment, provider.name, event));
    }
  }

  /** Events that arrived before their payment succeeded (a refund first), in the order they happened. */
  async function applyWaiting(provider: HostedPaymentProvider, paymentId: number): Promise<void> {
    const waiting = await db.select().from(paymentEvents)
      .where(and(eq(paymentEvents.paymentId, paymentId), eq(paymentEvents.provider, provider.name), isNull(paymentEvents.processedAt)))
      .orderBy(asc(paymentEvents.occurredAt), asc(paymentEvents.id));
    for (const row of waiting) {
      const event: ProviderEvent = {
        eventId: row.eventId, kind: row.kind as ProviderEvent['kind'], providerRef: row.providerRef, reference: hostedReference(paymentId),
        subjectRef: row.subjectRef ?? undefined, amountCents: row.amountCents ?? undefined, occurredAt: row.occurredAt, won: row.won ?? undefined,
      };
      const { outcome } = await apply(provider, event);
      if (outcome !== 'deferred') await db.update(paymentEvents).set({ processedAt: new Date(), outcome }).where(eq(paymentEvents.id, row.id));
    }
  }

  /** Stores an event once by its id and applies it, unless it was applied before. */
  async function receive(provider: HostedPaymentProvider, event: ProviderEvent, eventId: string): Promise<{ outcome: Outcome | 'replayed' }> {
    const [inserted] = await db.insert(paymentEvents).values({
      provider: provider.name, eventId, kind: event.kind, providerRef: event.providerRef, subjectRef: event.subjectRef ?? null,
      amountCents: event.amountCents ?? null, won: event.won ?? null, occurredAt: event.occurredAt,
    }).onConflictDoNothing().returning({ id: paymentEvents.id });
    const [row] = inserted ? [inserted] : await db.select({ id: paymentEvents.id, processedAt: paymentEvents.processedAt, outcome: paymentEvents.outcome })
      .from(paymentEvents).where(and(eq(paymentEvents.provider, provider.name), eq(paymentEvents.eventId, eventId)));
    if (!inserted && (row as { processedAt: Date | null }).processedAt !== null) return { outcome: 'replayed' };
    const { outcome, paymentId } = await apply(provider, event);
    await db.update(paymentEvents).set({ paymentId, outcome, ...(outcome === 'deferred' ? {} : { processedAt: new Date() }) }).where(eq(paymentEvents.id, row!.id));
    return { outcome };
  }

  return {
    /** Whether a method goes through a processor's page here (the deposit then answers where to send the payer). */
    isHosted: (method: PaymentMethod) => hosted[method] !== undefined,

    /**
     * Writes the pending payment (after the risk checks, decision 0058), starts the provider's checkout and
     * answers where to send the payer. `coins` instead of a package: that many coins at the list rate (a plan
     * paid here, decision 0059), with `alongside` written in the payment's transaction and `description`
     * shown on the provider's page.
     */
    async start(request: { userId: number; email: string; method: PaymentMethod; renewMonthly: boolean; returnUrl: string; address: string | null }
      & ({ packageId: number } | { coins: number; description: string; alongside: (tx: Executor, paymentId: number) => Promise<void> })) {
      const provider = hosted[request.method]!;
      if (request.renewMonthly && (request.method !== 'card' || !provider.chargeSaved)) throw badRequest(MSG.renewMonthlyCardOnly, 'renew_monthly');
      const pkg = 'coins' in request ? await unlistedCoinPackage(db, request.coins) : await deps.activeCoinPackage(request.packageId);
      // The card is typed on the processor's page, so unknown to the risk checks here.
      const paymentId = await deps.gate.admit(
        { userId: request.userId, provider: provider.name, method: request.method, packageId: pkg.id, amountCents: pkg.price, currency: pkg.currency, address: request.address, card: null },
        {
          openRecurring: request.renewMonthly
            ? (tx) => openRecurringPackage(tx, { userId: request.userId, packageId: pkg.id, cardId: null, price: pkg.price, currency: pkg.currency, at: new Date() })
            : undefined,
          alongside: 'alongside' in request ? request.alongside : undefined,
          // A start that dies before the provider's answer is stored is closed by the reconcile job after this.
          reconcileAfter: new Date(Date.now() + RECONCILE_LEASE_MS),
        },
      );
      const back = (outcome: string) => `${request.returnUrl}${request.returnUrl.includes('?') ? '&' : '?'}payment=${paymentId}&outcome=${outcome}`;
      let started;
      try {
        started = await provider.startCheckout({
          reference: hostedReference(paymentId), amountCents: pkg.price, currency: pkg.currency, description: 'description' in request ? request.description : pkg.name,
          returnUrl: back('success'), cancelUrl: back('cancel'),
          payer: { userId: request.userId, email: request.email }, saveForRecurring: request.renewMonthly,
        });
      } catch (error) {
        deps.log.warn({ paymentId, provider: provider.name, err: error instanceof Error ? error.message : String(error) }, 'the payment processor did not start a checkout');
        await settlement.refused(paymentId, { status: 'failed', message: 'the processor did not start a checkout' });
        throw appError('payment_provider_unavailable');
      }
      const stored = await db.update(payments).set({
        providerRef: started.providerRef, redirectUrl: started.redirectUrl, expiresAt: started.expiresAt, reconcileAfter: started.expiresAt,
      }).where(and(eq(payments.id, paymentId), eq(payments.status, 'pending'))).returning({ id: payments.id });
      // The processor answered after the reconcile job had closed this start: the payer is not sent to a checkout nothing would credit.
      if (stored.length === 0) throw appError('payment_provider_unavailable');
      return { payment_id: paymentId, redirect_url: started.redirectUrl, expires_at: started.expiresAt.toISOString() };
    },

    /**
     * The payer is back (or the page polls): the payment as stored; while it is pending, the provider is
     * asked once and its answer applied, so the page need not wait for the webhook.
     */
    async result(userId: number, paymentId: number) {
      const read = async () => (await db.select().from(payments).where(and(eq(payments.id, paymentId), eq(payments.userId, userId))))[0];
      let payment = await read();
      if (!payment) throw notFound(MSG.paymentUnknown);
      const provider = byName.get(payment.provider);
      if (payment.status === 'pending' && provider && !payment.providerRef.startsWith('pending:')) {
        let event: ProviderEvent | null = null;
        try {
          event = await provider.completeReturn(payment.providerRef);
        } catch (error) {
          deps.log.warn({ paymentId, err: error instanceof Error ? error.message : String(error) }, 'the payment processor did not answer about a return');
        }
        if (event) {
          await apply(provider, event);
          payment = await read();
        }
      }
      const [pkg] = await db.select({ coins: coinPackages.coins }).from(coinPackages).where(eq(coinPackages.id, payment!.packageId));
      const p = payment!;
      return {
        payment_id: p.id,
        status: p.status,
        coins: pkg!.coins,
        amount: p.amount,
        currency: p.currency,
        provider_reference: p.status === 'succeeded' ? (p.paymentRef ?? p.providerRef) : null,
      };
    },

    /**
     * An operator gives a deposit back through its processor. The processor's refund is keyed by what
     * was given back before, so a double click (or two operators at once) makes one refund; the coins
     * leave when its `refund.succeeded` arrives, through the same path as a refund made at the processor.
     */
    async refund(actorId: number, paymentId: number, amount: number | undefined) {
      const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
      if (!payment) throw notFound(MSG.paymentUnknown);
      const provider = byName.get(payment.provider);
      const left = payment.amount - payment.refundedCents;
      if (!provider || payment.status !== 'succeeded' || left <= 0) throw conflict(MSG.paymentNotRefundable, 'payment_id');
      const cents = amount ?? left;
      if (cents > left) throw badRequest(fill(MSG.refundTooLarge, { left: formatCents(left, payment.currency) }), 'amount');
      let answer;
      try {
        answer = await provider.refund(payment.paymentRef ?? payment.providerRef, cents, `${hostedReference(payment.id)}_refund_${payment.refundedCents}`);
      } catch (error) {
        if (error instanceof RefundInProgress) throw conflict(MSG.refundInProgress, 'amount');
        deps.log.warn({ paymentId, err: error instanceof Error ? error.message : String(error) }, 'the payment processor did not refund');
        throw appError('payment_provider_unavailable');
      }
      await recordAudit(db, {
        actorId, action: 'payment.refund', targetType: 'payment', targetId: payment.id,
        before: { refunded_cents: payment.refundedCents }, after: { refund_reference: answer.refundRef, amount: cents, status: answer.status },
      });
      return { refund_reference: answer.refundRef, status: answer.status, amount: cents };
    },

    /** A verified webhook delivery: each event stored once and applied; a replay moves nothing. */
    async receiveWebhook(provider: HostedPaymentProvider, events: ProviderEvent[]) {
      const outcomes = [];
      for (const [index, event] of events.entries()) {
        // One delivery may say several things (each refund of a charge): each is its own row.
        const eventId = events.length > 1 ? `${event.eventId}#${event.subjectRef ?? index}` : event.eventId;
        outcomes.push((await receive(provider, event, eventId)).outcome);
      }
      return outcomes;
    },

    /**
     * The reconcile job: payments still pending past their checkout's expiry are claimed (a lease, so
     * instances running this at once never ask about the same payment) and their provider is asked.
     */
    async reconcile(now = new Date(), batch = RECONCILE_BATCH): Promise<{ asked: number; settled: number }> {
      const names = [...byName.keys()];
      if (names.length === 0) return { asked: 0, settled: 0 };
      const { rows } = await db.execute<{ id: number | string; provider: string; provider_ref: string }>(sql`
        update ${payments} set reconcile_after = ${new Date(now.getTime() + RECONCILE_LEASE_MS)}
        where id in (
          select id from ${payments}
          where status = 'pending' and reconcile_after is not null and reconcile_after <= ${now}
            and provider in (${sql.join(names.map((n) => sql`${n}`), sql`, `)})
          order by reconcile_after, id limit ${batch}
          for update skip locked)
        and status = 'pending'
        returning id, provider, provider_ref`);
      let settled = 0;
      for (const row of rows) {
        const provider = byName.get(row.provider)!;
        try {
          if (row.provider_ref.startsWith('pending:')) {
            // Its start died before the provider's answer was stored: the payer never saw a checkout to pay.
            const cancelled = await settlement.refused(Number(row.id), { status: 'failed', message: 'the checkout was never started', at: now });
            if (cancelled !== null) await deps.notices.cardRefused(cancelled);
            settled += 1;
            continue;
          }
          const event = await provider.lookup(row.provider_ref);
          if (event && (await apply(provider, event)).outcome === 'applied') settled += 1;
        } catch (error) {
          deps.log.warn({ paymentId: Number(row.id), err: error instanceof Error ? error.message : String(error) }, 'reconciling a pending payment failed; asked again later');
        }
      }
      return { asked: rows.length, settled };
    },
  };
}

export type HostedDeposits = ReturnType<typeof createHostedDeposits>;
