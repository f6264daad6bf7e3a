/**
 * The wallet: packages, deposits through a payment provider, balances, history, saved cards and
 * impressions. Every movement of money goes through the ledger (docs/architecture.md §9).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, isNull, or } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import type { Db, Executor } from '../../platform/db/client';
import { appError, badRequest, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { InsufficientFunds, type Currency, type Ledger, type TransferKind } from '../ledger';
import {
  CardRefused,
  PaymentMethodUnavailable,
  type CardDetails,
  type ChargeResult,
  type PaymentMethod,
  type PaymentProvider,
  type WebhookEvent,
} from './payment-provider';
import { coinPackages, impressionPackages, paymentCards, payments } from './tables';

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
}

export interface WalletTransferRow {
  transfer_id: number;
  kind: Exclude<TransferKind, 'sweep'>;
  amount: number;
  currency: Currency;
  counterparty: { user_id: number; username: string } | null;
  stream_id: number | null;
  created_at: string;
}

export function createWalletService(deps: { db: Db; ledger: Ledger; accounts: AccountsService; providers: Record<PaymentMethod, PaymentProvider> }) {
  const { db, ledger, providers } = deps;

  async function activeCoinPackage(id: number) {
    const [row] = await db.select().from(coinPackages).where(and(eq(coinPackages.id, id), eq(coinPackages.active, true)));
    if (!row) throw notFound(MSG.packageUnknown);
    return row;
  }

  /**
   * Marks a pending payment succeeded and mints its coins, in one transaction: whoever settles first
   * (the deposit call or the provider's webhook) moves the coins; the other finds nothing pending.
   * The ledger key `payment:<provider>:<ref>` makes a second settlement impossible even so.
   */
  async function settleSucceeded(paymentId: number, provider: string, providerRef: string): Promise<{ transferId: number | null; moved: boolean }> {
    return db.transaction(async (tx) => {
      const [payment] = await tx
        .update(payments)
        .set({ status: 'succeeded', providerRef, settledAt: new Date(), failure: null })
        .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')))
        .returning();
      if (!payment) {
        const [current] = await tx.select({ transferId: payments.transferId }).from(payments).where(eq(payments.id, paymentId));
        return { transferId: current?.transferId ?? null, moved: false };
      }
      const [pkg] = await tx.select().from(coinPackages).where(eq(coinPackages.id, payment.packageId));
      if (!pkg) throw new Error(`payment ${paymentId} names a missing package`);
      const { transferId, created } = await ledger.transfer(
        {
          kind: 'deposit',
          idempotencyKey: `payment:${provider}:${providerRef}`,
          toUserId: payment.userId,
          amount: payment.amount,
          currency: payment.currency,
          details: { payment_id: payment.id, package_id: pkg.id, coins: pkg.coins, provider },
          legs: [
            { account: { system: 'mint', currency: 'CON' }, amount: -pkg.coins },
            { account: { userId: payment.userId, currency: 'CON' }, amount: pkg.coins },
            { account: { system: 'card-payments', currency: payment.currency }, amount: -payment.amount },
            { account: { system: 'sales', currency: payment.currency }, amount: payment.amount },
          ],
        },
        tx,
      );
      await tx.update(payments).set({ transferId }).where(eq(payments.id, paymentId));
      return { transferId, moved: created };
    });
  }

  async function settleRefused(paymentId: number, providerRef: string, message: string): Promise<void> {
    await db
      .update(payments)
      .set({ status: 'declined', providerRef, failure: message, settledAt: new Date() })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')));
  }

  async function savedCardToken(userId: number, provider: string, given: string): Promise<string> {
    const byId = /^[0-9]{1,15}$/.test(given) ? eq(paymentCards.id, Number(given)) : undefined;
    const [card] = await db
      .select({ token: paymentCards.token })
      .from(paymentCards)
      .where(and(eq(paymentCards.userId, userId), eq(paymentCards.provider, provider), isNull(paymentCards.deletedAt),
        byId ? or(byId, eq(paymentCards.token, given)) : eq(paymentCards.token, given)));
    if (!card) throw badRequest(MSG.cardUnknown, 'card_token');
    return card.token;
  }

  return {
    /** Removes the user's saved cards (a deleted account); payments and the ledger stay. */
    async forgetCards(userId: number) {
      await db.delete(paymentCards).where(eq(paymentCards.userId, userId));
    },

    async coinPackages() {
      const rows = await db.select().from(coinPackages).where(eq(coinPackages.active, true)).orderBy(asc(coinPackages.price), asc(coinPackages.id));
      return rows.map((p) => ({ package_id: p.id, name: p.name, coins: p.coins, price: p.price, currency: p.currency }));
    },

    balances: (userId: number, exec?: Executor) => ledger.balances(userId, exec),

    /** Charges the package's price and, when the provider accepts, credits its coins. */
    async deposit(request: DepositRequest) {
      const provider = providers[request.method];
      if (!provider.available) throw toAppError(new PaymentMethodUnavailable());
      const pkg = await activeCoinPackage(request.packageId);
      if (request.method === 'card' && (request.cardToken === undefined) === (request.card === undefined)) {
        throw badRequest(MSG.chooseCard, 'card_token');
      }
      const token = request.cardToken !== undefined ? await savedCardToken(request.userId, provider.name, request.cardToken) : undefined;

      const [payment] = await db
        .insert(payments)
        .values({
          userId: request.userId,
          provider: provider.name,
          // Replaced by the provider's reference once it has answered.
          providerRef: `pending:${randomUUID()}`,
          packageId: pkg.id,
          amount: pkg.price,
          currency: pkg.currency,
          status: 'pending',
        })
        .returning({ id: payments.id });
      const paymentId = payment!.id;

      let result: ChargeResult;
      try {
        result = await provider.charge({ token, card: request.card, amountCents: pkg.price, currency: pkg.currency, reference: `payment:${paymentId}` });
      } catch (error) {
        const refused = error instanceof CardRefused || error instanceof PaymentMethodUnavailable;
        await db.update(payments).set({ status: refused ? 'declined' : 'failed', failure: refused ? (error as Error).message : 'provider error', settledAt: new Date() })
          .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')));
        throw toAppError(error);
      }

      if (result.status !== 'succeeded') {
        await settleRefused(paymentId, result.providerRef, result.message);
        // The processor's words stay in the payment row; the payer reads ours.
        throw appError(result.status === 'insufficient_funds' ? 'card_insufficient_funds' : 'payment_declined');
      }
      const { transferId } = await settleSucceeded(paymentId, provider.name, result.providerRef);
      return { balance: await ledger.balances(request.userId), coins: pkg.coins, transfer_id: transferId ?? 0 };
    },

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
      await settleRefused(payment.id, event.providerRef, event.message);
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
            created_at: line.createdAt.toISOString(),
          };
        }),
      };
    },

    /** Saves a card with the provider: only its token, brand, last four digits and expiry are kept. */
    async addCard(userId: number, card: CardDetails) {
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
      return { card_id: row!.id, brand: row!.brand, last4: row!.last4, exp_month: row!.expMonth, exp_year: row!.expYear };
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
