/**
 * Recurring coin packages (spec part 1 §3 Coin subscription; part 2 §4 Other, §7 Subscriptions): a
 * coin package bought again on a saved card every month until cancelled. A deposit with
 * `renew_monthly` starts one; the renewal job charges each due one once per period; support applies
 * the subscriber's e-mailed cancellation request (`update-coin-subscription`).
 *
 * Exactly once per period, with several instances and crashes (docs/architecture.md §9):
 * 1. claim: in a short transaction, due subscriptions are locked (`FOR UPDATE SKIP LOCKED`) and each
 *    gets its pending payment row for (subscription, next period); the unique index on that pair
 *    lets only one such row exist, so only the claimer that inserted it charges it now;
 * 2. charge, outside any transaction, with the reference `payment:<id>` of that row: the provider
 *    answers a repeated reference with the charge it already made (idempotent);
 * 3. settle: the payment flips from pending once (the wallet's settlement), and in that transaction
 *    the coins are minted through the ledger and the subscription moves a month on.
 * A run that died between 1 and 3 leaves the subscription due and its payment pending: once that row
 * is older than RENEWAL_LEASE_MS, the next run charges it again with the same reference and settles it.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, exists, inArray, isNull, lte, notInArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { CoinSubscription } from '../../../common/api/subscriptions';
import { fill, MSG } from '../../../common/messages';
import { formatCents } from '../../../common/rules/format';
import { periodEnd } from '../../../common/rules/plans';
import type { Db, Executor } from '../../platform/db/client';
import { notFound } from '../../platform/http/errors';
import type { Mailer } from '../../platform/mail/mailer';
import type { AccountsService } from '../accounts';
import { CardRefused, PaymentMethodUnavailable } from './payment-provider';
import type { RenewalCharger } from './renewal-chargers';
import { coinPackages, coinSubscriptions, paymentCards, payments } from './tables';

/** Each period is a rolling month from the previous expiry. */
export const RENEWAL_PERIOD = 'RMONTH:1';
/** A renewal charge still pending after this long was left by a run that died: it is charged again (same reference). */
export const RENEWAL_LEASE_MS = 10 * 60_000;
/** Subscriptions claimed per transaction by the renewal job. */
export const RENEWAL_BATCH = 50;

/** The product id of a recurring package, as app stores name theirs: `coins-<package id>-monthly`. */
export const iapProductId = (packageId: number) => `coins-${packageId}-monthly`;

/** What the settlement of a payment knows of it. */
export interface SettledPayment {
  id: number;
  coinSubscriptionId: number | null;
  periodNo: number | null;
}

/**
 * First in a settlement transaction: locks the recurring package a payment is for, if any. Locks are
 * always taken package first, then payment (as the renewal claim does): the other order deadlocks
 * with a claim that waits on the payment's unique index while holding the package.
 */
export async function lockRecurringPackageOf(tx: Executor, paymentId: number): Promise<void> {
  const [payment] = await tx.select({ id: payments.coinSubscriptionId }).from(payments).where(eq(payments.id, paymentId));
  if (payment?.id) await tx.select({ id: coinSubscriptions.id }).from(coinSubscriptions).where(eq(coinSubscriptions.id, payment.id)).for('update');
}

/**
 * In the settlement transaction of a payment that succeeded: the first payment of a recurring package
 * starts it (enabled, a month from now); a renewal moves it a month on from its expiry (from `at` when
 * that too has passed: a month missed while nothing ran is not charged twice).
 */
export async function recurringPaymentSucceeded(tx: Executor, payment: SettledPayment, at: Date): Promise<void> {
  const { coinSubscriptionId: id, periodNo } = payment;
  if (id === null || periodNo === null) return;
  if (periodNo === 1) {
    await tx.update(coinSubscriptions).set({ state: 'enabled', startDate: at, expiryDate: periodEnd(at, RENEWAL_PERIOD) })
      .where(and(eq(coinSubscriptions.id, id), eq(coinSubscriptions.periodNo, 1)));
    return;
  }
  const [sub] = await tx.select({ expiryDate: coinSubscriptions.expiryDate, periodNo: coinSubscriptions.periodNo })
    .from(coinSubscriptions).where(eq(coinSubscriptions.id, id)).for('update');
  if (!sub || sub.periodNo !== periodNo - 1) return;
  let next = periodEnd(new Date(sub.expiryDate), RENEWAL_PERIOD);
  if (next <= at) next = periodEnd(at, RENEWAL_PERIOD);
  await tx.update(coinSubscriptions).set({ expiryDate: next, periodNo }).where(eq(coinSubscriptions.id, id));
}

/**
 * In the settlement transaction of a payment that was refused: a refused first payment leaves no
 * recurring package (its row, made before the charge, goes); a refused renewal cancels it. Answers
 * the id of a subscription this cancelled (its subscriber is told after the commit).
 */
export async function recurringPaymentRefused(tx: Executor, payment: SettledPayment): Promise<number | null> {
  const { coinSubscriptionId: id, periodNo } = payment;
  if (id === null || periodNo === null) return null;
  if (periodNo === 1) {
    await tx.update(payments).set({ coinSubscriptionId: null, periodNo: null }).where(eq(payments.id, payment.id));
    await tx.delete(coinSubscriptions).where(and(eq(coinSubscriptions.id, id), eq(coinSubscriptions.periodNo, 1)));
    return null;
  }
  // The period was not paid: it no longer holds its slot, so support may enable the package again.
  await tx.update(payments).set({ periodNo: null }).where(eq(payments.id, payment.id));
  const [cancelled] = await tx.update(coinSubscriptions).set({ state: 'cancelled' })
    .where(and(eq(coinSubscriptions.id, id), eq(coinSubscriptions.state, 'enabled'))).returning({ id: coinSubscriptions.id });
  return cancelled?.id ?? null;
}

/** A package bought with a card but not yet paid: the row the first payment points to, enabled only when it succeeds. */
export async function openRecurringPackage(tx: Executor, row: { userId: number; packageId: number; cardId: number | null; price: number; currency: 'USD' | 'CAD'; at: Date }) {
  const [created] = await tx.insert(coinSubscriptions).values({
    userId: row.userId,
    packageId: row.packageId,
    cardId: row.cardId,
    salePrice: row.price,
    currency: row.currency,
    state: 'cancelled',
    startDate: row.at,
    expiryDate: row.at,
    periodNo: 1,
  }).returning({ id: coinSubscriptions.id });
  return created!.id;
}

/** A recurring package counts once its first payment succeeded (before that it is only the charge's note). */
const wasPaid = exists(sql`(select 1 from ${payments} p where p.coin_subscription_id = ${coinSubscriptions.id} and p.status = 'succeeded')`);

/** Telling a subscriber their package ended: after the commit, through the platform mailer; the log names only ids. */
export function createRenewalNotices(deps: { db: Db; accounts: AccountsService; mailer: Mailer; log: Pick<FastifyBaseLogger, 'warn'> }) {
  return {
    async cardRefused(coinSubscriptionId: number): Promise<void> {
      const [sub] = await deps.db
        .select({ userId: coinSubscriptions.userId, price: coinSubscriptions.salePrice, currency: coinSubscriptions.currency, name: coinPackages.name })
        .from(coinSubscriptions).innerJoin(coinPackages, eq(coinPackages.id, coinSubscriptions.packageId))
        .where(eq(coinSubscriptions.id, coinSubscriptionId));
      if (!sub) return;
      const contact = await deps.accounts.mailContact(sub.userId);
      if (!contact) return;
      try {
        await deps.mailer.send({
          to: contact.email,
          subject: fill(MSG.coinSubscriptionRefusedSubject, { package: sub.name }),
          text: fill(MSG.coinSubscriptionRefusedText, { package: sub.name, price: formatCents(sub.price, sub.currency) }),
        });
      } catch {
        deps.log.warn({ coinSubscriptionId }, 'the notice of a refused renewal could not be mailed');
      }
    },
  };
}
export type RenewalNotices = ReturnType<typeof createRenewalNotices>;

/** The wallet's settlement of a payment, which the renewal job shares with deposits and webhooks. */
export interface Settlement {
  succeeded(paymentId: number, provider: string, providerRef: string, at: Date, extras?: { paymentRef?: string }): Promise<unknown>;
  /** Answers the id of a recurring package the refusal cancelled. */
  refused(paymentId: number, outcome: { status: 'declined' | 'failed'; providerRef?: string; message: string; at: Date }): Promise<number | null>;
}

interface RenewalCharge {
  paymentId: number;
  coinSubscriptionId: number;
  token: string;
  customer: string | null;
  amount: number;
  currency: 'USD' | 'CAD';
}

export function createCoinSubscriptionService(deps: {
  db: Db;
  /** Charges a saved card for the processor configured now (sandbox or Stripe, renewal-chargers.ts). */
  charger: RenewalCharger;
  settlement: Settlement;
  notices: RenewalNotices;
  log: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const { db, charger: provider, settlement, notices } = deps;

  const view = (row: {
    id: number; packageId: number; name: string; price: number; currency: 'USD' | 'CAD'; state: 'enabled' | 'cancelled'; startDate: Date; expiryDate: Date;
  }): CoinSubscription => ({
    id: row.id,
    iap_product_id: iapProductId(row.packageId),
    name: row.name,
    product_name: row.name,
    price_formatted: formatCents(row.price, row.currency),
    sale_price: row.price,
    state: row.state,
    start_date: new Date(row.startDate).toISOString(),
    expiry_date: new Date(row.expiryDate).toISOString(),
    next_renewal_date: row.state === 'enabled' ? new Date(row.expiryDate).toISOString() : null,
  });

  const columns = {
    id: coinSubscriptions.id,
    packageId: coinSubscriptions.packageId,
    name: coinPackages.name,
    price: coinSubscriptions.salePrice,
    currency: coinSubscriptions.currency,
    state: coinSubscriptions.state,
    startDate: coinSubscriptions.startDate,
    expiryDate: coinSubscriptions.expiryDate,
  };

  /** Locks due subscriptions, writes each its pending charge for the next period, and answers the charges this run makes. */
  async function claim(now: Date, seen: Set<number>, batch: number): Promise<{ charges: RenewalCharge[]; claimed: number }> {
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: coinSubscriptions.id, userId: coinSubscriptions.userId, packageId: coinSubscriptions.packageId, cardId: coinSubscriptions.cardId,
          price: coinSubscriptions.salePrice, currency: coinSubscriptions.currency, periodNo: coinSubscriptions.periodNo })
        .from(coinSubscriptions)
        .where(and(sql`${coinSubscriptions.state} = 'enabled'` /* literal: matches the partial due index under generic plans */, lte(coinSubscriptions.expiryDate, now),
          seen.size > 0 ? notInArray(coinSubscriptions.id, [...seen]) : undefined))
        .orderBy(asc(coinSubscriptions.expiryDate), asc(coinSubscriptions.id))
        .limit(batch)
        .for('update', { skipLocked: true });
      const cardIds = due.flatMap((s) => (s.cardId === null ? [] : [s.cardId]));
      const cards = cardIds.length === 0 ? [] : await tx.select({ id: paymentCards.id, token: paymentCards.token, customer: paymentCards.customer, provider: paymentCards.provider })
        .from(paymentCards).where(and(inArray(paymentCards.id, cardIds), isNull(paymentCards.deletedAt)));
      const byId = new Map(cards.map((c) => [c.id, c]));
      const charges: RenewalCharge[] = [];
      for (const sub of due) {
        seen.add(sub.id);
        const card = sub.cardId === null ? undefined : byId.get(sub.cardId);
        if (!card) {
          // The card was deleted (by its owner, or with the account), or the processor kept none: nothing to charge.
          await tx.update(coinSubscriptions).set({ state: 'cancelled' }).where(eq(coinSubscriptions.id, sub.id));
          continue;
        }
        if (card.provider !== provider.name) {
          // Saved with another processor than the one configured now: left due, not cancelled for a configuration.
          deps.log.warn({ coinSubscriptionId: sub.id }, 'recurring package saved with another payment processor; not renewed');
          continue;
        }
        const token = card.token;
        const period = sub.periodNo + 1;
        const [created] = await tx.insert(payments).values({
          userId: sub.userId,
          provider: provider.name,
          // Replaced by the provider's reference once it has answered.
          providerRef: `pending:${randomUUID()}`,
          packageId: sub.packageId,
          amount: sub.price,
          currency: sub.currency,
          status: 'pending',
          coinSubscriptionId: sub.id,
          periodNo: period,
          createdAt: now,
        }).onConflictDoNothing().returning({ id: payments.id });
        const charge = { coinSubscriptionId: sub.id, token, customer: card.customer, amount: sub.price, currency: sub.currency };
        if (created) {
          charges.push({ paymentId: created.id, ...charge });
          continue;
        }
        // Another run wrote this period's charge: it is charging it, or it died doing so (then the lease is over).
        const [pending] = await tx.select({ id: payments.id, createdAt: payments.createdAt }).from(payments)
          .where(and(eq(payments.coinSubscriptionId, sub.id), eq(payments.periodNo, period), eq(payments.status, 'pending')));
        if (pending && now.getTime() - new Date(pending.createdAt).getTime() >= RENEWAL_LEASE_MS) charges.push({ paymentId: pending.id, ...charge });
      }
      return { charges, claimed: due.length };
    });
  }

  async function charge(renewal: RenewalCharge, now: Date): Promise<'renewed' | 'cancelled' | 'retry'> {
    let result;
    try {
      result = await provider.charge({ paymentId: renewal.paymentId, token: renewal.token, customer: renewal.customer, amountCents: renewal.amount, currency: renewal.currency });
    } catch (error) {
      if (error instanceof CardRefused || error instanceof PaymentMethodUnavailable) {
        const cancelled = await settlement.refused(renewal.paymentId, { status: 'declined', message: error.message, at: now });
        if (cancelled !== null) await notices.cardRefused(cancelled);
        return 'cancelled';
      }
      // No answer from the processor: the payment stays pending and is charged again (same reference) after the lease.
      deps.log.warn({ paymentId: renewal.paymentId, coinSubscriptionId: renewal.coinSubscriptionId }, 'renewal charge got no answer; tried again later');
      return 'retry';
    }
    if (result.status === 'succeeded') {
      await settlement.succeeded(renewal.paymentId, provider.name, result.providerRef, now, { paymentRef: result.providerRef });
      return 'renewed';
    }
    const cancelled = await settlement.refused(renewal.paymentId, { status: 'declined', providerRef: result.providerRef, message: result.message, at: now });
    if (cancelled !== null) await notices.cardRefused(cancelled);
    return 'cancelled';
  }

  return {
    /**
     * The renewal job: every enabled package whose period ended by `now` is charged for the next
     * period, once, whoever else runs this at the same time. `now` is the clock (injected by tests).
     */
    async renewDue(now: Date = new Date(), batch = RENEWAL_BATCH): Promise<{ renewed: number; cancelled: number; retry: number }> {
      const outcome = { renewed: 0, cancelled: 0, retry: 0 };
      // No processor configured (PAYMENTS=none): nothing can be charged, and nothing is cancelled for it.
      if (!provider.available) return outcome;
      const seen = new Set<number>();
      for (;;) {
        const { charges, claimed } = await claim(now, seen, batch);
        for (const renewal of charges) outcome[await charge(renewal, now)] += 1;
        if (claimed < batch) return outcome;
      }
    },

    /** The caller's recurring packages, newest first. */
    async list(userId: number, page: { offset: number; limit: number }): Promise<{ subscriptions: CoinSubscription[]; total: number }> {
      const mine = and(eq(coinSubscriptions.userId, userId), wasPaid);
      const rows = await db.select(columns).from(coinSubscriptions).innerJoin(coinPackages, eq(coinPackages.id, coinSubscriptions.packageId))
        .where(mine).orderBy(desc(coinSubscriptions.id)).limit(page.limit).offset(page.offset);
      const [total] = await db.select({ n: count() }).from(coinSubscriptions).where(mine);
      return { subscriptions: rows.map(view), total: Number(total?.n ?? 0) };
    },

    /** Support applies an e-mailed request: cancels (or enables again) a recurring package. */
    async update(id: number, state: 'enabled' | 'cancelled'): Promise<CoinSubscription> {
      const [changed] = await db.update(coinSubscriptions).set({ state }).where(and(eq(coinSubscriptions.id, id), wasPaid)).returning({ id: coinSubscriptions.id });
      if (!changed) throw notFound(MSG.subscriptionNotFound);
      const [row] = await db.select(columns).from(coinSubscriptions).innerJoin(coinPackages, eq(coinPackages.id, coinSubscriptions.packageId))
        .where(eq(coinSubscriptions.id, id));
      return view(row!);
    },
  };
}

export type CoinSubscriptionService = ReturnType<typeof createCoinSubscriptionService>;
