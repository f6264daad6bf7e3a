/**
 * Held wallets (decision 0057): what a user is told about their hold, the question a payout asks, and
 * the console's queue of held accounts with their refunds and disputes. The rule itself is the
 * ledger's (`ledger/holds.ts`): it refuses spending from a held wallet in the statement of the transfer.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { HeldAccountCase } from '../../../common/api/wallet';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import type { Ledger } from '../ledger';
import { disputeHold } from './hosted-deposits';
import { coinPackages, paymentEvents, payments } from './tables';

export function createWalletHolds(deps: { db: Db; ledger: Ledger; accounts: AccountsService; refundable: (provider: string) => boolean }) {
  const { db, ledger } = deps;

  async function hold(userId: number) {
    const found = await ledger.holdOf(userId);
    return {
      on_hold: found.held,
      coins_owed: found.owedCoins,
      open_disputes: found.open.length,
      since: found.open[0]?.openedAt.toISOString() ?? null,
    };
  }

  return {
    hold,

    /**
     * Whether the user may take money out (a payout, when there are payouts): never while their wallet
     * is on hold. A payout transfer from a held wallet is refused by the ledger as well.
     */
    async canWithdraw(userId: number): Promise<boolean> {
      return !(await ledger.holdOf(userId)).held;
    },

    /** The console's queue: every refund and dispute of a held account's deposits, oldest held account first. */
    async heldCases(): Promise<HeldAccountCase[]> {
      const held = await ledger.heldUsers();
      const owed = new Map(held.map((h) => [h.userId, h.owedCoins]));
      const takeBacks = await ledger.takeBacksOf(held.map((h) => h.userId));
      if (takeBacks.length === 0) return [];
      const paymentIds = [...new Set(takeBacks.map((b) => Number(b.details.payment_id)))];
      const rows = await db.select().from(payments).where(inArray(payments.id, paymentIds));
      const byId = new Map(rows.map((p) => [p.id, p]));
      const closed = await db.select({ provider: paymentEvents.provider, subjectRef: paymentEvents.subjectRef, won: paymentEvents.won }).from(paymentEvents)
        .where(and(inArray(paymentEvents.paymentId, paymentIds), eq(paymentEvents.kind, 'dispute.closed')));
      const outcome = new Map(closed.map((c) => [disputeHold(c.provider, c.subjectRef ?? ''), c.won]));
      const open = new Set((await Promise.all(held.map((h) => ledger.holdOf(h.userId)))).flatMap((h) => h.open.map((o) => o.reference)));
      const people = await deps.accounts.publicUsers(held.map((h) => h.userId));
      const cases: HeldAccountCase[] = [];
      for (const b of takeBacks) {
        const payment = byId.get(Number(b.details.payment_id));
        if (!payment) continue;
        const [provider, ...ref] = String(b.details.refund_reference ?? '').split(':');
        const caseRef = ref.join(':');
        const reason = b.details.reason === 'dispute' ? 'dispute' : 'refund';
        const key = disputeHold(provider ?? payment.provider, caseRef);
        cases.push({
          user: { user_id: b.userId, username: people.get(b.userId)?.username ?? '' },
          user_coins_owed: owed.get(b.userId) ?? 0,
          payment_id: payment.id,
          provider: payment.provider,
          provider_reference: payment.paymentRef ?? payment.providerRef,
          case_reference: caseRef,
          reason,
          amount: b.cents,
          currency: payment.currency,
          coins_taken: Number(b.details.coins ?? 0),
          coins_short: Number(b.details.debt ?? 0),
          opened_at: b.createdAt.toISOString(),
          state: reason === 'refund' ? 'refunded' : open.has(key) ? 'dispute_open' : outcome.get(key) ? 'dispute_won' : 'dispute_lost',
        });
      }
      // Accounts held longest first; within one, its newest case first.
      const firstSeen = new Map<number, string>();
      for (const c of cases) if (!firstSeen.has(c.user.user_id) || c.opened_at < firstSeen.get(c.user.user_id)!) firstSeen.set(c.user.user_id, c.opened_at);
      return cases.sort((x, y) => firstSeen.get(x.user.user_id)!.localeCompare(firstSeen.get(y.user.user_id)!) || x.user.user_id - y.user.user_id || y.opened_at.localeCompare(x.opened_at));
    },

    /** A user's deposits, newest first, for an administrator who may refund them. */
    async userDeposits(username: string, limit: number) {
      const userId = await deps.accounts.idByUsername(username);
      if (userId === null) throw notFound(MSG.userNotFound);
      const user = { id: userId, username: (await deps.accounts.publicUsers([userId])).get(userId)!.username };
      const rows = await db.select({ payment: payments, coins: coinPackages.coins }).from(payments)
        .innerJoin(coinPackages, eq(coinPackages.id, payments.packageId))
        .where(eq(payments.userId, user.id)).orderBy(desc(payments.id)).limit(limit);
      const state = await hold(user.id);
      return {
        user: { user_id: user.id, username: user.username, coins_owed: state.coins_owed, on_hold: state.on_hold },
        deposits: rows.map(({ payment: p, coins }) => ({
          payment_id: p.id,
          provider: p.provider,
          provider_reference: p.paymentRef ?? p.providerRef,
          method: p.method,
          status: p.status,
          coins,
          amount: p.amount,
          refunded: p.refundedCents,
          currency: p.currency,
          created_at: p.createdAt.toISOString(),
          refundable: p.status === 'succeeded' && p.refundedCents < p.amount && deps.refundable(p.provider),
        })),
      };
    },
  };
}

export type WalletHolds = ReturnType<typeof createWalletHolds>;
