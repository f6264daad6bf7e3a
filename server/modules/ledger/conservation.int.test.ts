/**
 * The conservation check (decision 0036) on real books: sound books made the product's way pass; each
 * way of creating coins nobody paid for — a system account paying what it never received, a deposit
 * without its money leg or its payment reference, a grant without its audit entry, the mint debited by
 * anything else — is reported, inside a transaction rolled back afterwards. Grants: audited, within the
 * month's budget, refused beyond it.
 */
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../platform/db/client';
import { startTestApp, type TestApp } from '../../testing/harness';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import { checkConservation, conservationViolations, formatConservation } from './conservation';
import { createGrants, GrantRefused } from './grants';
import { createLedger, InsufficientFunds, type Leg } from './service';
import type { TransferKind } from './tables';

const BUDGET = 500;
let t: TestApp;
let alice = 0;
let bob = 0;
let keys = 0;
const db = () => t.resources.database.db;
const ledger = () => createLedger({ db: db() });

const transfer = (kind: TransferKind, legs: Leg[], details: Record<string, unknown> = {}, exec?: Tx) =>
  ledger().transfer({ kind, idempotencyKey: `conservation-${(keys += 1)}`, amount: 1, currency: 'CON', details, toUserId: bob, legs }, exec);

/** Runs `breakBooks` in a transaction, reads the violations inside it, and rolls it all back. */
async function violationsAfter(breakBooks: (tx: Tx) => Promise<void>): Promise<string[]> {
  let found: string[] = [];
  await expect(db().transaction(async (tx) => {
    expect(conservationViolations(await checkConservation(tx))).toEqual([]);
    await breakBooks(tx);
    found = conservationViolations(await checkConservation(tx));
    tx.rollback();
  })).rejects.toBeInstanceOf(TransactionRollbackError);
  return found;
}

beforeAll(async () => {
  t = await startTestApp();
  alice = (await t.given.user()).id;
  bob = (await t.given.user()).id;
  await t.given.coins(alice, 100);
  // alice tips bob 50: 40 to bob, 10 to the fees account.
  await transfer('tip', [
    { account: { userId: alice, currency: 'CON' }, amount: -50 },
    { account: { userId: bob, currency: 'CON' }, amount: 40 },
    { account: { system: 'fees', currency: 'CON' }, amount: 10 },
  ]);
});
afterAll(() => closeCheckingLedger(t));

describe('the conservation check', () => {
  it('passes books where every coin was paid for, and shows where they are', async () => {
    const report = await checkConservation(db());
    expect(conservationViolations(report)).toEqual([]);
    expect(report.currencies.find((c) => c.currency === 'CON')).toEqual({ currency: 'CON', wallets: 90, systemHeld: 10, owed: 0, moneyIn: 100, grants: 0, moneyOut: 0, difference: 0 });
    expect(report.currencies.find((c) => c.currency === 'USD')).toMatchObject({ systemHeld: 100, moneyIn: 100, difference: 0 });
    expect(formatConservation(report)).toContain('Money is conserved: no violations.');
  });

  it('fails on a system account paying coins nobody funded, which the database refuses in the first place', async () => {
    const advertisingPays = (exec?: Tx) => transfer('ad_commission', [
      { account: { system: 'advertising', currency: 'CON' }, amount: -1000 },
      { account: { userId: bob, currency: 'CON' }, amount: 1000 },
    ], {}, exec);
    await expect(advertisingPays()).rejects.toBeInstanceOf(InsufficientFunds);
    const found = await violationsAfter(async (tx) => {
      await tx.execute(sql`alter table ledger_accounts drop constraint ledger_accounts_system_funded`);
      await advertisingPays(tx);
    });
    expect(found).toEqual(['system account advertising:CON is at -1000: it paid out what nobody paid in']);
  });

  it('fails on a deposit that issues coins without its money leg, or without a payment reference', async () => {
    const fromMint = (coins: number): Leg[] => [{ account: { system: 'mint', currency: 'CON' }, amount: -coins }, { account: { userId: bob, currency: 'CON' }, amount: coins }];
    let bare = 0;
    let unreferenced = 0;
    const found = await violationsAfter(async (tx) => {
      bare = (await transfer('deposit', fromMint(700), { payment_reference: 'made-up' }, tx)).transferId;
      unreferenced = (await transfer('deposit', [
        ...fromMint(300),
        { account: { system: 'card-payments', currency: 'USD' }, amount: -300 },
        { account: { system: 'sales', currency: 'USD' }, amount: 300 },
      ], {}, tx)).transferId;
    });
    expect(found).toEqual([
      'CON: users hold 1090 and system accounts 10, 0 went out, but only 100 came in and 0 were granted: 1000 unaccounted for',
      'USD: users hold 0 and system accounts 400, 0 went out, but only 100 came in and 0 were granted: 300 unaccounted for',
      `transfer ${bare} (deposit) took 700 from mint:CON: a deposit without its money leg (money paid in on an outside account in USD or CAD)`,
      `transfer ${unreferenced} (deposit) took 300 from card-payments:USD: a deposit without a payment reference`,
      `transfer ${unreferenced} (deposit) took 300 from mint:CON: a deposit without a payment reference`,
    ]);
  });

  it('fails on coins issued by any other kind of transfer, and on a grant without its audit entry', async () => {
    let tip = 0;
    let grant = 0;
    const found = await violationsAfter(async (tx) => {
      tip = (await transfer('tip', [{ account: { system: 'mint', currency: 'CON' }, amount: -5 }, { account: { userId: bob, currency: 'CON' }, amount: 5 }], {}, tx)).transferId;
      grant = (await transfer('grant', [{ account: { system: 'mint', currency: 'CON' }, amount: -7 }, { account: { userId: bob, currency: 'CON' }, amount: 7 }], { reason: 'none' }, tx)).transferId;
    });
    expect(found).toEqual([
      'CON: users hold 102 and system accounts 10, 0 went out, but only 100 came in and 0 were granted: 12 unaccounted for',
      `transfer ${tip} (tip) took 5 from mint:CON: issued by a transfer that is neither recorded money in nor an audited grant`,
      `transfer ${grant} (grant) took 7 from mint:CON: a grant without its audit entry`,
    ]);
  });
});

describe('grants', () => {
  const grants = () => createGrants({ db: db(), ledger: ledger(), monthlyBudget: BUDGET });

  it('issues coins with their audit entry in the same transaction, within the month\'s budget, once per key', async () => {
    const before = (await ledger().balances(alice)).CON;
    const first = await grants().grant({ userId: alice, coins: 300, reason: 'Launch contest prize', actorId: null, key: 'contest-1' });
    expect(first).toMatchObject({ created: true, budgetLeft: 200 });
    expect(await grants().grant({ userId: alice, coins: 300, reason: 'Launch contest prize', actorId: null, key: 'contest-1' })).toMatchObject({ transferId: first.transferId, created: false });
    expect((await ledger().balances(alice)).CON).toBe(before + 300);
    const { rows } = await db().execute<{ action: string; target_id: string; after: { transfer_id: number; coins: number; reason: string } }>(
      sql`select action, target_id, after from audit_log where action = 'coins.grant'`);
    expect(rows).toEqual([{ action: 'coins.grant', target_id: String(alice), after: { transfer_id: first.transferId, coins: 300, reason: 'Launch contest prize' } }]);
    const report = await checkConservation(db());
    expect(conservationViolations(report)).toEqual([]);
    expect(report.currencies.find((c) => c.currency === 'CON')).toMatchObject({ grants: 300, difference: 0 });
  });

  it('refuses a grant over the budget, without a reason or of no coins, and moves nothing', async () => {
    const before = (await ledger().balances(bob)).CON;
    await expect(grants().grant({ userId: bob, coins: 201, reason: 'Too much', actorId: null, key: 'over' }))
      .rejects.toThrow(new GrantRefused('This grant would exceed the monthly grant budget: 300 of 500 coins granted this month, 200 left.'));
    await expect(grants().grant({ userId: bob, coins: 10, reason: '  ', actorId: null, key: 'no-reason' })).rejects.toBeInstanceOf(GrantRefused);
    await expect(grants().grant({ userId: bob, coins: 0, reason: 'Nothing', actorId: null, key: 'zero' })).rejects.toBeInstanceOf(GrantRefused);
    expect((await ledger().balances(bob)).CON).toBe(before);
    // Two grants racing for the last 200 coins: one fits, the other is refused.
    const raced = await Promise.allSettled([150, 150].map((coins, i) => grants().grant({ userId: bob, coins, reason: 'Race', actorId: null, key: `race-${i}` })));
    expect(raced.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await grants().grantedThisMonth()).toBe(450);
  });
});
