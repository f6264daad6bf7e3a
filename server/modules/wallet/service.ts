/**
 * The wallet: packages, deposits through a payment provider, balances, history, saved cards and
 * impressions. Every movement of money goes through the ledger (docs/architecture.md §9).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, isNull, notInArray, or, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import type { Db, Executor } from '../../platform/db/client';
import type { EventOutbox } from '../../platform/event-outbox';
import { appError, badRequest, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { depositTransfer, InsufficientFunds, type Currency, type Ledger, type TransferKind } from '../ledger';
import {
  CardRefused,
  PaymentMethodUnavailable,
  type CardDetails,
  type ChargeResult,
  type PaymentMethod,
  type PaymentProvider,
  type WebhookEvent,
} from './payment-provider';
import { lockRecurringPackageOf, openRecurringPackage, recurringPaymentRefused, recurringPaymentSucceeded, type RenewalNotices } from './coin-subscriptions';
import { cardKeyOf } from './card-keys';
import type { DepositGate } from './risk/gate';
import type { SavedMethod } from './hosted-payment';
import './events';
import { coinPackages, coinSubscriptions, impressionPackages, paymentCards, payments } from './tables';

const toAppError = (error: unknown): unknown => {
  if (error instanceof PaymentMethodUnavailable) return badRequest(MSG.paymentMethodUnavailable, 'payment_method');
  if (error instanceof CardRefused) return badRequest(error.reason, 'card');
  return error;
};

export interface DepositRequest {
  userId: number;
  packageId: number;
  method: PaymentMethod;
  cardToken?: string;
  card?: CardDetails;
  /** Buy it again every month on this card (saved for it when typed in) until cancelled. */
  renewMonthly?: boolean;
  /** The payer's address (the risk checks count deposits per address). */
  address: string | null;
}

export interface WalletTransferRow {
  transfer_id: number;
  kind: Exclude<TransferKind, 'sweep'>;
  amount: number;
  currency: Currency;
  counterparty: { user_id: number; username: string } | null;
  stream_id: number | null;
  payment_reference: string | null;
  created_at: string;
}

/**
 * What a credited payment pays for besides its coins, in its settlement's transaction (a plan paid on a
 * processor's page: decision 0059); answers what to announce once that transaction committed, if anything.
 */
export type PaymentCredited = (tx: Executor, payment: { id: number; userId: number }) => Promise<(() => Promise<void>) | null>;

export function createWalletService(deps: {
  db: Db;
  ledger: Ledger;
  accounts: AccountsService;
  providers: Record<PaymentMethod, PaymentProvider>;
  notices: RenewalNotices;
  outbox: Pick<EventOutbox, 'write' | 'afterCommit'>;
  /** Read when a payment is credited (the subscriptions module fills it). */
  paymentCredited?: () => PaymentCredited;
  gate: DepositGate;
}) {
  const { db, ledger, providers } = deps;

  async function activeCoinPackage(id: number) {
    const [row] = await db.select().from(coinPackages).where(and(eq(coinPackages.id, id), eq(coinPackages.active, true)));
    if (!row) throw notFound(MSG.packageUnknown);
    return row;
  }

  /**
   * Marks a pending payment succeeded and mints its coins, in one transaction: whoever settles first
   * (the deposit call, the provider's webhook, the reconcile job) moves the coins; the others find
   * nothing pending. The ledger key `payment:<provider>:<ref>` makes a second settlement impossible even
   * so. A payment of a recurring package starts it or moves it a month on in the same transaction, with
   * the card the provider kept for it (hosted checkouts). Coins the payer owes are paid from it first.
   * The receipt follows through the outbox.
   */
  async function settleSucceeded(
    paymentId: number, provider: string, providerRef: string, at = new Date(),
    extras: { paymentRef?: string; savedMethod?: SavedMethod } = {},
  ): Promise<{ transferId: number | null; moved: boolean }> {
    const settled = await db.transaction(async (tx) => {
      await lockRecurringPackageOf(tx, paymentId);
      const [payment] = await tx
        .update(payments)
        .set({ status: 'succeeded', providerRef, settledAt: at, failure: null, ...(extras.paymentRef ? { paymentRef: extras.paymentRef } : {}) })
        .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')))
        .returning();
      if (!payment) {
        const [current] = await tx.select({ transferId: payments.transferId }).from(payments).where(eq(payments.id, paymentId));
        return { transferId: current?.transferId ?? null, moved: false, announce: null };
      }
      const [pkg] = await tx.select().from(coinPackages).where(eq(coinPackages.id, payment.packageId));
      if (!pkg) throw new Error(`payment ${paymentId} names a missing package`);
      // What the payer owes is paid first, in the same transfer (decision 0057); the debt row stays locked to the commit.
      const debtPaid = Math.min(pkg.coins, await ledger.debtOf(payment.userId, tx, true));
      const { transferId, created } = await ledger.transfer(
        depositTransfer({
          userId: payment.userId,
          coins: pkg.coins,
          debtPaid,
          money: { account: 'card-payments', currency: payment.currency, cents: payment.amount },
          paymentReference: `${provider}:${payment.paymentRef ?? providerRef}`,
          idempotencyKey: `payment:${provider}:${providerRef}`,
          details: { payment_id: payment.id, package_id: pkg.id, provider },
        }),
        tx,
      );
      await tx.update(payments).set({ transferId }).where(eq(payments.id, paymentId));
      if (extras.savedMethod && payment.coinSubscriptionId !== null) await keepProvidersCard(tx, payment, provider, extras.savedMethod);
      await recurringPaymentSucceeded(tx, payment, at);
      if (created) await deps.outbox.write(tx, 'deposit.credited', { paymentId });
      const announce = created && deps.paymentCredited ? await deps.paymentCredited()(tx, { id: payment.id, userId: payment.userId }) : null;
      return { transferId, moved: created, announce };
    });
    if (settled.moved) await deps.outbox.afterCommit('deposit.credited', { paymentId });
    await settled.announce?.();
    return { transferId: settled.transferId, moved: settled.moved };
  }

  /** The card a hosted provider kept for a recurring package: saved as the package's card (its token and what may be shown). */
  async function keepProvidersCard(tx: Executor, payment: { userId: number; coinSubscriptionId: number | null }, provider: string, method: SavedMethod) {
    const [card] = await tx.insert(paymentCards)
      .values({ userId: payment.userId, provider, token: method.token, customer: method.customer ?? null, brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear })
      .onConflictDoUpdate({ target: [paymentCards.provider, paymentCards.token], set: { deletedAt: null } })
      .returning({ id: paymentCards.id });
    await tx.update(coinSubscriptions).set({ cardId: card!.id }).where(and(eq(coinSubscriptions.id, payment.coinSubscriptionId!), isNull(coinSubscriptions.cardId)));
  }

  /**
   * Marks a pending payment refused (or failed), once. A recurring package's first payment refused
   * leaves no package; a renewal refused cancels it: answers that package's id, for the notice.
   */
  async function settleRefused(
    paymentId: number,
    outcome: { status: 'declined' | 'failed' | 'expired'; providerRef?: string; message: string; at?: Date },
  ): Promise<number | null> {
    return db.transaction(async (tx) => {
      await lockRecurringPackageOf(tx, paymentId);
      const [payment] = await tx
        .update(payments)
        .set({ status: outcome.status, failure: outcome.message, settledAt: outcome.at ?? new Date(), ...(outcome.providerRef ? { providerRef: outcome.providerRef } : {}) })
        .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')))
        .returning();
      return payment ? recurringPaymentRefused(tx, payment) : null;
    });
  }

  async function savedCard(userId: number, provider: string, given: string): Promise<{ id: number; token: string; last4: string; expMonth: number; expYear: number }> {
    const byId = /^[0-9]{1,15}$/.test(given) ? eq(paymentCards.id, Number(given)) : undefined;
    const [card] = await db
      .select({ id: paymentCards.id, token: paymentCards.token, last4: paymentCards.last4, expMonth: paymentCards.expMonth, expYear: paymentCards.expYear })
      .from(paymentCards)
      .where(and(eq(paymentCards.userId, userId), eq(paymentCards.provider, provider), isNull(paymentCards.deletedAt),
        byId ? or(byId, eq(paymentCards.token, given)) : eq(paymentCards.token, given)));
    if (!card) throw badRequest(MSG.cardUnknown, 'card_token');
    return card;
  }

  /** Hands a typed card to the provider and keeps its token, brand, last four digits and expiry. */
  async function saveCard(userId: number, card: CardDetails) {
    const provider = providers.card;
    let tokenized;
    try {
      tokenized = await provider.tokenizeCard(card);
    } catch (error) {
      throw toAppError(error);
    }
    const [row] = await db
      .insert(paymentCards)
      .values({ userId, provider: provider.name, token: tokenized.token, brand: tokenized.brand, last4: tokenized.last4, expMonth: tokenized.expMonth, expYear: tokenized.expYear })
      .returning();
    return row!;
  }

  return {
    /**
     * A deleted account: its recurring packages end and its saved cards go; payments and the ledger
     * stay. A card a package still names keeps an empty row (the package points to it): no token,
     * brand or digits.
     */
    async forgetCards(userId: number) {
      await db.transaction(async (tx) => {
        await tx.update(coinSubscriptions).set({ state: 'cancelled' }).where(and(eq(coinSubscriptions.userId, userId), eq(coinSubscriptions.state, 'enabled')));
        const named = tx.select({ id: coinSubscriptions.cardId }).from(coinSubscriptions).where(and(eq(coinSubscriptions.userId, userId), isNotNull(coinSubscriptions.cardId)));
        await tx.update(paymentCards).set({ token: sql`'forgotten:' || ${paymentCards.id}`, brand: '', last4: '', deletedAt: sql`coalesce(${paymentCards.deletedAt}, now())` })
          .where(and(eq(paymentCards.userId, userId), inArray(paymentCards.id, named)));
        await tx.delete(paymentCards).where(and(eq(paymentCards.userId, userId), notInArray(paymentCards.id, named)));
      });
    },

    async coinPackages() {
      const rows = await db.select().from(coinPackages).where(eq(coinPackages.active, true)).orderBy(asc(coinPackages.price), asc(coinPackages.id));
      return rows.map((p) => ({ package_id: p.id, name: p.name, coins: p.coins, price: p.price, currency: p.currency }));
    },

    balances: (userId: number, exec?: Executor) => ledger.balances(userId, exec),

    /**
     * Charges the package's price and, when the provider accepts, credits its coins. With
     * `renewMonthly` (cards only) the package's recurring row is written with the payment and enabled
     * by its settlement, whichever of this call and the webhook settles it.
     */
    async deposit(request: DepositRequest) {
      if (request.renewMonthly && request.method !== 'card') throw badRequest(MSG.renewMonthlyCardOnly, 'renew_monthly');
      const provider = providers[request.method];
      if (!provider.available) throw toAppError(new PaymentMethodUnavailable());
      const pkg = await activeCoinPackage(request.packageId);
      if (request.method === 'card' && (request.cardToken === undefined) === (request.card === undefined)) {
        throw badRequest(MSG.chooseCard, 'card_token');
      }
      let card = request.cardToken !== undefined ? await savedCard(request.userId, provider.name, request.cardToken) : undefined;
      const shown = card ?? (request.card ? { last4: request.card.number.replace(/\D/g, '').slice(-4), expMonth: request.card.exp_month, expYear: request.card.exp_year } : undefined);
      const openPackage = (cardId: number) => (tx: Executor) =>
        openRecurringPackage(tx, { userId: request.userId, packageId: pkg.id, cardId, price: pkg.price, currency: pkg.currency, at: new Date() });

      // The risk checks come before the processor is asked anything (decision 0058).
      const paymentId = await deps.gate.admit({
        userId: request.userId, provider: provider.name, method: request.method, packageId: pkg.id, amountCents: pkg.price, currency: pkg.currency,
        address: request.address, card: shown ? { key: cardKeyOf(shown.last4, shown.expMonth, shown.expYear), last4: shown.last4 } : null,
      }, { openRecurring: request.renewMonthly && card ? openPackage(card.id) : undefined });

      if (request.renewMonthly && !card && request.card) {
        // A typed card renews on its token: saved now that the attempt is admitted.
        try {
          card = await saveCard(request.userId, request.card);
        } catch (error) {
          await settleRefused(paymentId, { status: 'declined', message: (error as Error).message });
          throw error;
        }
        const cardId = card.id;
        await db.transaction(async (tx) => {
          const coinSubscriptionId = await openPackage(cardId)(tx);
          await tx.update(payments).set({ coinSubscriptionId, periodNo: 1 }).where(eq(payments.id, paymentId));
        });
      }

      let result: ChargeResult;
      try {
        result = await provider.charge({
          token: card?.token,
          card: card ? undefined : request.card,
          amountCents: pkg.price,
          currency: pkg.currency,
          reference: `payment:${paymentId}`,
        });
      } catch (error) {
        const refused = error instanceof CardRefused || error instanceof PaymentMethodUnavailable;
        await settleRefused(paymentId, { status: refused ? 'declined' : 'failed', message: refused ? (error as Error).message : 'provider error' });
        throw toAppError(error);
      }

      if (result.status !== 'succeeded') {
        await settleRefused(paymentId, { status: 'declined', providerRef: result.providerRef, message: result.message });
        // The processor's words stay in the payment row; the payer reads ours.
        throw appError(result.status === 'insufficient_funds' ? 'card_insufficient_funds' : 'payment_declined');
      }
      const { transferId } = await settleSucceeded(paymentId, provider.name, result.providerRef);
      const [recurring] = await db
        .select({ id: coinSubscriptions.id, expiryDate: coinSubscriptions.expiryDate })
        .from(payments)
        .innerJoin(coinSubscriptions, eq(coinSubscriptions.id, payments.coinSubscriptionId))
        .where(eq(payments.id, paymentId));
      return {
        balance: await ledger.balances(request.userId),
        coins: pkg.coins,
        transfer_id: transferId ?? 0,
        coin_subscription: recurring ? { id: recurring.id, next_renewal_date: new Date(recurring.expiryDate).toISOString() } : null,
        checkout: null,
      };
    },

    /** The settlement the renewal job shares (coin-subscriptions.ts). */
    settlement: {
      succeeded: (paymentId: number, provider: string, providerRef: string, at: Date, extras?: { paymentRef?: string; savedMethod?: SavedMethod }) =>
        settleSucceeded(paymentId, provider, providerRef, at, extras),
      refused: settleRefused,
    },

    activeCoinPackage,

    /** A verified provider event about a charge: settles its payment once, however often it arrives. */
    async applyWebhook(provider: PaymentProvider, event: WebhookEvent): Promise<{ status: string; moved: boolean }> {
      const [payment] = await db
        .select({ id: payments.id, status: payments.status })
        .from(payments)
        .where(and(eq(payments.provider, provider.name), eq(payments.providerRef, event.providerRef)));
      if (!payment) throw notFound(MSG.paymentUnknown);
      if (payment.status !== 'pending') return { status: payment.status, moved: false };
      if (event.status === 'succeeded') {
        const { moved } = await settleSucceeded(payment.id, provider.name, event.providerRef);
        return { status: 'succeeded', moved };
      }
      const cancelled = await settleRefused(payment.id, { status: 'declined', providerRef: event.providerRef, message: event.message });
      if (cancelled !== null) await deps.notices.cardRefused(cancelled);
      return { status: 'declined', moved: false };
    },

    /** The caller's history: one line per transfer and currency, with the signed change to their wallet. */
    async transfers(userId: number, page: { offset: number; limit: number }): Promise<{ transfers: WalletTransferRow[]; total: number }> {
      const { lines, total } = await ledger.statement(userId, page);
      const people = await deps.accounts.publicUsers(lines.flatMap((line) => (line.otherId === null ? [] : [line.otherId])));
      return {
        total,
        transfers: lines.map((line) => {
          const other = line.otherId === null ? undefined : people.get(line.otherId);
          return {
            transfer_id: line.transferId,
            kind: line.kind as Exclude<TransferKind, 'sweep'>,
            amount: line.amount,
            currency: line.currency,
            counterparty: other && line.otherId !== null ? { user_id: line.otherId, username: other.username } : null,
            stream_id: line.streamId,
            payment_reference: line.paymentReference,
            created_at: line.createdAt.toISOString(),
          };
        }),
      };
    },

    /** Saves a card with the provider: only its token, brand, last four digits and expiry are kept. */
    async addCard(userId: number, card: CardDetails) {
      const row = await saveCard(userId, card);
      return { card_id: row.id, brand: row.brand, last4: row.last4, exp_month: row.expMonth, exp_year: row.expYear };
    },

    async cards(userId: number) {
      const rows = await db
        .select()
        .from(paymentCards)
        .where(and(eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt)))
        .orderBy(desc(paymentCards.id));
      return rows.map((c) => ({ card_id: c.id, brand: c.brand, last4: c.last4, exp_month: c.expMonth, exp_year: c.expYear }));
    },

    async impressionPackages() {
      const rows = await db
        .select()
        .from(impressionPackages)
        .where(eq(impressionPackages.active, true))
        .orderBy(asc(impressionPackages.impressions), asc(impressionPackages.id));
      return rows.map((p) => ({ package_id: p.id, name: p.name, price: p.price, currency: 'CON' as const, impressions: p.impressions }));
    },

    /**
     * Coins for impressions, as one transfer. `clientKey` (the Idempotency-Key header) makes a retry
     * answer the first purchase and move nothing; it is scoped to the buyer.
     */
    async buyImpressions(userId: number, packageId: number, clientKey: string | undefined) {
      const [pkg] = await db.select().from(impressionPackages).where(and(eq(impressionPackages.id, packageId), eq(impressionPackages.active, true)));
      if (!pkg) throw notFound(MSG.impressionPackageUnknown);
      try {
        await ledger.transfer({
          kind: 'impressions',
          idempotencyKey: `impressions:${userId}:${clientKey ?? randomUUID()}`,
          fromUserId: userId,
          amount: pkg.price,
          currency: 'CON',
          details: { package_id: pkg.id, impressions: pkg.impressions },
          legs: [
            { account: { userId, currency: 'CON' }, amount: -pkg.price },
            { account: { system: 'sales', currency: 'CON' }, amount: pkg.price },
            { account: { system: 'mint', currency: 'IMP' }, amount: -pkg.impressions },
            { account: { userId, currency: 'IMP' }, amount: pkg.impressions },
          ],
        });
      } catch (error) {
        if (error instanceof InsufficientFunds) throw appError('insufficient_funds');
        throw error;
      }
      const balance = await ledger.balances(userId);
      return { impression_balance: balance.IMP, balance };
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
