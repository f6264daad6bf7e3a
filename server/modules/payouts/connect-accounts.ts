/**
 * A creator's Stripe Express account (decision 0063). Choosing Stripe makes the account once per creator
 * (Stripe's idempotency key and our unique row), makes Stripe the creator's payout method, and answers a
 * fresh onboarding link. Whether the account may be paid is what Stripe says — `account.updated`, or asked
 * on the return from onboarding — and the method counts as onboarded while `payouts_enabled` holds.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import type { ConnectAccountStatus, StripeConnect } from './stripe-connect';
import { payoutMethods, stripeConnectAccounts } from './tables';

export type ConnectApi = Pick<StripeConnect, 'createAccount' | 'onboardingLink' | 'account'>;

export function createConnectAccounts(deps: { db: Db; stripe: ConnectApi }) {
  const { db } = deps;

  const shown = (row: typeof stripeConnectAccounts.$inferSelect): ConnectAccountStatus => ({
    account: row.accountId, details_submitted: row.detailsSubmitted, payouts_enabled: row.payoutsEnabled,
  });

  async function of(userId: number): Promise<ConnectAccountStatus | null> {
    const [row] = await db.select().from(stripeConnectAccounts).where(eq(stripeConnectAccounts.userId, userId));
    return row ? shown(row) : null;
  }

  /** What Stripe said of an account; the creator's Stripe method follows `payouts_enabled`. */
  async function record(status: ConnectAccountStatus): Promise<ConnectAccountStatus | null> {
    return db.transaction(async (tx) => {
      const [row] = await tx.update(stripeConnectAccounts)
        .set({ detailsSubmitted: status.details_submitted, payoutsEnabled: status.payouts_enabled, updatedAt: new Date() })
        .where(eq(stripeConnectAccounts.accountId, status.account)).returning();
      if (!row) return null;
      await tx.update(payoutMethods)
        .set({ completedAt: status.payouts_enabled ? sql`coalesce(${payoutMethods.completedAt}, now())` : null, updatedAt: new Date() })
        .where(and(eq(payoutMethods.userId, row.userId), eq(payoutMethods.method, 'stripe_connect'), eq(payoutMethods.accountNumber, status.account)));
      return shown(row);
    });
  }

  return {
    of,
    record,

    /** Stripe chosen: the account (made once), Stripe as the payout method, and a link to onboarding. */
    async start(userId: number, email: string | undefined, earningsUrl: string): Promise<{ url: string; stripe: ConnectAccountStatus }> {
      let account = await of(userId);
      if (!account) {
        const made = await deps.stripe.createAccount(userId, email);
        await db.insert(stripeConnectAccounts).values({ userId, accountId: made.account, detailsSubmitted: made.details_submitted, payoutsEnabled: made.payouts_enabled })
          .onConflictDoNothing();
        account = (await of(userId))!;
      }
      const method = {
        method: 'stripe_connect' as const, accountHolder: '', accountNumber: account.account, bankName: 'Stripe', country: '',
        completedAt: account.payouts_enabled ? new Date() : null, updatedAt: new Date(),
      };
      await db.insert(payoutMethods).values({ userId, ...method }).onConflictDoUpdate({ target: payoutMethods.userId, set: method });
      const url = await deps.stripe.onboardingLink(account.account, `${earningsUrl}?stripe=return`, `${earningsUrl}?stripe=refresh`);
      return { url, stripe: account };
    },

    /** Asks Stripe again (the return from onboarding): null when the creator has no account. */
    async refresh(userId: number): Promise<ConnectAccountStatus | null> {
      const account = await of(userId);
      return account && record(await deps.stripe.account(account.account));
    },
  };
}

export type ConnectAccounts = ReturnType<typeof createConnectAccounts>;
