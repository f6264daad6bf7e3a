/**
 * Payout methods behind one seam (decision 0061). A method says whether a creator finished its
 * onboarding and how an approved request leaves: the bank transfer as a file the operator hands to the
 * bank (paid or failed when the bank's answer is imported). Stripe Connect (Express) and PayPal Payouts
 * will be methods that pay through the processor's API and answer by webhook; they are not built yet.
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
  /** How approved requests leave: `file`, an export the operator takes to the bank. */
  settles: 'file';
}

export const bankTransfer: PayoutMethod = {
  id: 'bank_transfer',
  onboarded: (row) => row !== null && row.method === 'bank_transfer' && row.completedAt !== null,
  settles: 'file',
};

export const PAYOUT_METHOD_SEAM: Record<PayoutMethodId, PayoutMethod> = { bank_transfer: bankTransfer };

export async function methodOf(exec: Executor, userId: number): Promise<PayoutMethodRow | null> {
  return (await exec.select().from(payoutMethods).where(eq(payoutMethods.userId, userId)))[0] ?? null;
}

/** The method as the creator and the console see it: the account number cut to its last four. */
export const shownMethod = (row: PayoutMethodRow | null) => row && {
  method: row.method, account_holder: row.accountHolder, account_last4: row.accountNumber.slice(-4), bank_name: row.bankName, country: row.country,
};
