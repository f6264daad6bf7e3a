/** A creator ready to be paid out (decision 0061): a bank account and tax information on file, and earnings, matured or still in the hold. */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import * as api from '../../common/api/payouts';
import type { Db } from '../platform/db/client';
import { checkConservation, conservationViolations } from '../modules/ledger';
import { expectLedgerInvariants } from './ledger-invariants';
import { saveTaxInfo } from '../../common/api/statements';
import type { SignedInUser, TestApp } from './harness';

export const TEST_TAX_FORM = {
  legal_name: 'Ada Creator', entity_type: 'individual', country: 'us', tax_id: '987-65-4321',
  address_line1: '12 Analytical Row', city: 'London', region: 'Greater London', postal_code: 'N1 9GU',
} as const;

export const TEST_BANK_ACCOUNT = { method: 'bank_transfer', account_holder: 'Ada Creator', account_number: 'DE89 3704 0044 0532 0130 00', bank_name: 'Test Bank', country: 'DE' } as const;

/** Tipped `matured` coins `maturedAt` (default: 30 days ago, past any hold) and `pending` coins just now. */
export async function earningCreator(t: Pick<TestApp, 'given'>, earnings: { matured: number; pending?: number; bank?: boolean; taxForm?: boolean; maturedAt?: Date }): Promise<SignedInUser> {
  const { matured, pending = 0 } = earnings;
  const made = await t.given.signedInUser();
  if (earnings.bank !== false) await made.client.call(api.savePayoutMethod, TEST_BANK_ACCOUNT);
  if (earnings.taxForm !== false) await made.client.call(saveTaxInfo, TEST_TAX_FORM);
  const fan = await t.given.user();
  if (matured + pending > 0) await t.given.coins(fan, matured + pending);
  const tip = (amount: number, at: Date) => t.given.pastTip({ tipperId: fan.id, creatorId: made.user.id, streamId: null, amount, at });
  if (matured > 0) await tip(matured, earnings.maturedAt ?? new Date(Date.now() - 30 * 86_400_000));
  if (pending > 0) await tip(pending, new Date());
  return made;
}

/** A person on the Stripe stand-in's onboarding page: opens the link, fills it in, submits; answers where Stripe sent them back. */
export async function onboardOnStandin(url: string): Promise<string | null> {
  const page = await fetch(url, { redirect: 'manual' });
  if (page.status !== 200) return page.headers.get('location');
  const action = /action="([^"]+)"/.exec(await page.text())![1]!;
  const res = await fetch(new URL(action, url), {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Ada Creator', dob: '1990-12-10', routing: '110000000', account_number: '000123456789' }).toString(),
  });
  await res.arrayBuffer();
  return res.headers.get('location');
}

/** The books of payout tests: conservation, what left through `paid-out`, and a request's ledger steps (hold, paid, returned…). */
export function payoutBooks(db: () => Db) {
  return {
    async expectConserved() {
      await expectLedgerInvariants(db());
      expect(conservationViolations(await checkConservation(db()))).toEqual([]);
    },
    paidOut: async () => Number(((await db().execute(sql`select coalesce(sum(balance), 0) as balance from ledger_accounts where system = 'paid-out' and currency = 'CON'`)).rows[0] as { balance?: string | number } | undefined)?.balance ?? 0),
    steps: async (id: number) => ((await db().execute(sql`select idempotency_key as key from ledger_transfers where idempotency_key like ${`payout:${id}:%`}`)).rows as { key: string }[])
      .map((r) => r.key.split(':')[2]).sort(),
  };
}
