/**
 * Whether a creator may be paid: `payoutReadiness(userId)`, the one check before any payout (decision
 * 0061). Two requirements: the payout method's onboarding, and the tax-information form. The tax form
 * is built separately: it plugs in here as `TaxForms`. Until it does, `noTaxFormYet` answers that no
 * form is asked for, and the requirement reads done; replacing it is the whole of the integration.
 */
import type { PayoutReadiness } from '../../../common/api/payouts';
import type { Executor } from '../../platform/db/client';
import { methodOf, PAYOUT_METHOD_SEAM } from './methods';

export interface TaxForms {
  /** Whether the user's tax information is complete for being paid. */
  complete(userId: number): Promise<boolean>;
}

/** The stand-in until the tax-information form exists: no form is asked for yet. */
export const noTaxFormYet: TaxForms = { complete: async () => true };

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
