/**
 * Payout methods behind one seam (decision 0061). A method says whether a creator finished its
 * onboarding and how an approved request leaves: the bank transfer as a file the operator hands to the
 * bank (paid or failed when the bank's answer is imported), or Stripe Connect (decision 0063) and PayPal
 * Payouts (decision 0064), paid through the processor's API on approval and answered by webhook or by
 * asking (processor-payouts.ts).
 */
import { eq } from 'drizzle-orm';
import type { PayoutMethodId } from '../../../common/api/payouts';
import type { Executor } from '../../platform/db/client';
import { payoutMethods } from './tables';

export type PayoutMethodRow = typeof payoutMethods.$inferSelect;

export interface PayoutMethod {
  id: PayoutMethodId;
  /** Whether the creator finished the method's onboarding. */
  onboarded(row: PayoutMethodRow | null): boolean;
  /** How approved requests leave: `file`, an export the operator takes to the bank; `api`, sent to the processor on approval. */
  settles: 'file' | 'api';
}

export const bankTransfer: PayoutMethod = {
  id: 'bank_transfer',
  onboarded: (row) => row !== null && row.method === 'bank_transfer' && row.completedAt !== null,
  settles: 'file',
};

/** Onboarded while Stripe says the Express account may be paid out (`payouts_enabled`, connect-accounts.ts). */
export const stripeConnect: PayoutMethod = {
  id: 'stripe_connect',
  onboarded: (row) => row !== null && row.method === 'stripe_connect' && row.completedAt !== null,
  settles: 'api',
};

/** Onboarded once the creator gave the PayPal email the payout is sent to (paypal-routes.ts). */
export const paypal: PayoutMethod = {
  id: 'paypal',
  onboarded: (row) => row !== null && row.method === 'paypal' && row.completedAt !== null,
  settles: 'api',
};

export const PAYOUT_METHOD_SEAM: Record<PayoutMethodId, PayoutMethod> = { bank_transfer: bankTransfer, stripe_connect: stripeConnect, paypal };

export async function methodOf(exec: Executor, userId: number): Promise<PayoutMethodRow | null> {
  return (await exec.select().from(payoutMethods).where(eq(payoutMethods.userId, userId)))[0] ?? null;
}

/** The method as the creator and the console see it: the account number cut to its last four. */
export const shownMethod = (row: PayoutMethodRow | null) => row && {
  method: row.method, account_holder: row.accountHolder, account_last4: row.accountNumber.slice(-4), bank_name: row.bankName, country: row.country,
};
