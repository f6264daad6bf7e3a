/**
 * Whether a creator may be paid: `payoutReadiness(userId)`, the one check before any payout (decision
 * 0061). Two requirements: the payout method's onboarding, and the tax-information form (decision 0062:
 * the statements module's `taxInfo.complete`, taken as `TaxForms`).
 */
import type { PayoutReadiness } from '../../../common/api/payouts';
import type { Executor } from '../../platform/db/client';
import { methodOf, PAYOUT_METHOD_SEAM } from './methods';

export interface TaxForms {
  /** Whether the user's tax information is complete for being paid. */
  complete(userId: number): Promise<boolean>;
}

export function createReadiness(deps: { db: Executor; taxForms: TaxForms }) {
  return async function payoutReadiness(userId: number, exec: Executor = deps.db): Promise<PayoutReadiness> {
    const row = await methodOf(exec, userId);
    const requirements = [
      { key: 'payout_method' as const, done: row !== null && PAYOUT_METHOD_SEAM[row.method].onboarded(row) },
      { key: 'tax_form' as const, done: await deps.taxForms.complete(userId) },
    ];
    return { ready: requirements.every((r) => r.done), requirements };
  };
}

export type PayoutReadinessCheck = ReturnType<typeof createReadiness>;
