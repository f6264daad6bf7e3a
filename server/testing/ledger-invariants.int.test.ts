/**
 * The invariant checker must be able to fail: on real books (transfers made through the ledger
 * service) each test breaks them one way, inside a transaction that unlocks what guards them (the
 * immutability triggers, the wallet CHECK), asserts that findLedgerViolations reports exactly that
 * breakage and nothing else, and rolls back, so the books are sound again for the next test.
 */
import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../platform/db/client';
import { createLedger, type Leg } from '../modules/ledger/service';
import { ledgerAccounts, ledgerEntries, ledgerTransfers, type Currency } from '../modules/ledger/tables';
import { startTestApp, type TestApp } from './harness';
import { closeCheckingLedger, expectLedgerInvariants, findLedgerViolations, type LedgerViolations } from './ledger-invariants';

let t: TestApp;
const db = () => t.resources.database.db;

/** The books every test breaks: ids of the users, their wallets and the transfers between them. */
const books = {
  alice: 0, bob: 0, carol: 0,
  aliceCon: 0, bobCon: 0, carolCon: 0, aliceUsd: 0, feesCon: 0,
  /** 100 coins to alice, 50 to bob, 10 to carol, 1000 cents to alice. */
  depositAlice: 0, depositBob: 0, depositCarol: 0, depositAliceUsd: 0,
  /** alice → bob 30 coins: bob gets 24, the fees account 6. */
  tipAliceBob: 0,
  /** bob → alice 10 coins. */
  tipBobAlice: 0,
};

let keys = 0;
const transfer = async (kind: 'deposit' | 'tip', currency: Currency, legs: Leg[], exec?: Tx) => {
  const amount = legs.reduce((sum, leg) => sum + Math.max(leg.amount, 0), 0);
  const outcome = await createLedger({ db: db() }).transfer({ kind, idempotencyKey: `invariants-${(keys += 1)}`, amount, currency, legs }, exec);
  return outcome.transferId;
};
const mint = async (userId: number, amount: number, currency: Currency = 'CON') => (await t.given.coins(userId, amount, { currency })).transferId;

async function accountId(ref: { userId: number } | { system: string }, currency: Currency): Promise<number> {
  const owner = 'userId' in ref ? eq(ledgerAccounts.userId, ref.userId) : eq(ledgerAccounts.system, ref.system);
  const [row] = await db().select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(and(owner, eq(ledgerAccounts.currency, currency)));
  return row!.id;
}

/** The one entry of a transfer on an account. */
async function entryId(exec: Tx, transferId: number, account: number): Promise<number> {
  const rows = await exec.select({ id: ledgerEntries.id }).from(ledgerEntries)
    .where(and(eq(ledgerEntries.transferId, transferId), eq(ledgerEntries.accountId, account)));
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

const balance = async (exec: Tx, account: number) =>
  (await exec.select({ balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.id, account)))[0]!.balance;

/** Violations in a stable order (the queries group without ordering). */
const sorted = (v: LedgerViolations): LedgerViolations => ({
  unbalancedCurrencies: [...v.unbalancedCurrencies].sort((x, y) => x.currency.localeCompare(y.currency)),
  negativeWallets: [...v.negativeWallets].sort((x, y) => x.accountId - y.accountId),
  hollowTransfers: [...v.hollowTransfers].sort((x, y) => x - y),
  unbalancedTransfers: [...v.unbalancedTransfers].sort((x, y) => x.transferId - y.transferId || x.currency.localeCompare(y.currency)),
  driftedAccounts: [...v.driftedAccounts].sort((x, y) => x.accountId - y.accountId),
});
const none: LedgerViolations = { unbalancedCurrencies: [], negativeWallets: [], hollowTransfers: [], unbalancedTransfers: [], driftedAccounts: [] };

/**
 * Runs `breakBooks` in a transaction with the guards off (`unlock`: the immutability triggers and
 * the wallet CHECK; DDL is transactional, so the rollback restores them), reads the violations inside
 * it, then rolls everything back. Answers the violations, sorted.
 */
async function violationsAfter(breakBooks: (tx: Tx) => Promise<void>, options: { unlock: boolean } = { unlock: true }): Promise<LedgerViolations> {
  let found: LedgerViolations | undefined;
  await expect(db().transaction(async (tx) => {
    if (options.unlock) {
      await tx.execute(sql`alter table ledger_transfers disable trigger ledger_transfers_immutable`);
      await tx.execute(sql`alter table ledger_entries disable trigger ledger_entries_immutable`);
      await tx.execute(sql`alter table ledger_accounts drop constraint ledger_accounts_wallet_not_negative`);
    }
    expect(await findLedgerViolations(tx)).toEqual(none);
    await breakBooks(tx);
    found = await findLedgerViolations(tx);
    tx.rollback();
  })).rejects.toBeInstanceOf(TransactionRollbackError);
  return sorted(found!);
}

beforeAll(async () => {
  t = await startTestApp();
  const [alice, bob, carol] = [await t.given.user(), await t.given.user(), await t.given.user()];
  Object.assign(books, { alice: alice.id, bob: bob.id, carol: carol.id });
  books.depositAlice = await mint(alice.id, 100);
  books.depositBob = await mint(bob.id, 50);
  books.depositCarol = await mint(carol.id, 10);
  books.depositAliceUsd = await mint(alice.id, 1000, 'USD');
  books.tipAliceBob = await transfer('tip', 'CON', [
    { account: { userId: alice.id, currency: 'CON' }, amount: -30 },
    { account: { userId: bob.id, currency: 'CON' }, amount: 24 },
    { account: { system: 'fees', currency: 'CON' }, amount: 6 },
  ]);
  books.tipBobAlice = await transfer('tip', 'CON', [
    { account: { userId: bob.id, currency: 'CON' }, amount: -10 },
    { account: { userId: alice.id, currency: 'CON' }, amount: 10 },
  ]);
  books.aliceCon = await accountId({ userId: alice.id }, 'CON');
  books.bobCon = await accountId({ userId: bob.id }, 'CON');
  books.carolCon = await accountId({ userId: carol.id }, 'CON');
  books.aliceUsd = await accountId({ userId: alice.id }, 'USD');
  books.feesCon = await accountId({ system: 'fees' }, 'CON');
});
// Every test rolled back: the books end as sound as they started.
afterAll(() => closeCheckingLedger(t));

describe('the ledger invariant checker', () => {
  it('finds nothing in sound books made by the ledger service', async () => {
    await expectLedgerInvariants(db());
    const balances = await db().select({ id: ledgerAccounts.id, balance: ledgerAccounts.balance }).from(ledgerAccounts);
    const of = (id: number) => balances.find((b) => b.id === id)?.balance;
    // The books are what the tests below assume: 100 - 30 + 10, 50 + 24 - 10, 10, 1000 cents, 6 in fees.
    expect([of(books.aliceCon), of(books.bobCon), of(books.carolCon), of(books.aliceUsd), of(books.feesCon)]).toEqual([80, 64, 10, 1000, 6]);
  });

  it('reports an entry whose amount was changed: its transfer no longer balances and its account drifted', async () => {
    const found = await violationsAfter(async (tx) => {
      const bobsLeg = await entryId(tx, books.tipAliceBob, books.bobCon);
      await tx.execute(sql`update ledger_entries set amount = amount + 1 where id = ${bobsLeg}`);
    });
    expect(found).toEqual({
      ...none,
      unbalancedTransfers: [{ transferId: books.tipAliceBob, currency: 'CON', total: 1 }],
      driftedAccounts: [{ accountId: books.bobCon, balance: 64, entries: 65 }],
    });
  });

  it('reports transfers that no longer balance even when every account still equals its entries', async () => {
    // Seven coins of alice's moved from her tip's entry to her deposit's: her entries still sum to her
    // balance, every currency still sums to zero; only the per-transfer check can see it.
    const found = await violationsAfter(async (tx) => {
      await tx.execute(sql`update ledger_entries set amount = amount + 7 where id = ${await entryId(tx, books.depositAlice, books.aliceCon)}`);
      await tx.execute(sql`update ledger_entries set amount = amount - 7 where id = ${await entryId(tx, books.tipAliceBob, books.aliceCon)}`);
    });
    expect(found).toEqual({
      ...none,
      unbalancedTransfers: [
        { transferId: books.depositAlice, currency: 'CON', total: 7 },
        { transferId: books.tipAliceBob, currency: 'CON', total: -7 },
      ],
    });
  });

  it('reports a transfer that balances overall but not per currency', async () => {
    // Alice's deposit leg re-pointed at her USD wallet: the transfer's legs still sum to zero across
    // currencies, but CON and USD each are off by 100, and both of her wallets drifted.
    const found = await violationsAfter(async (tx) => {
      await tx.execute(sql`update ledger_entries set account_id = ${books.aliceUsd} where id = ${await entryId(tx, books.depositAlice, books.aliceCon)}`);
    });
    expect(found).toEqual({
      ...none,
      unbalancedTransfers: [
        { transferId: books.depositAlice, currency: 'CON', total: -100 },
        { transferId: books.depositAlice, currency: 'USD', total: 100 },
      ],
      driftedAccounts: [
        { accountId: books.aliceCon, balance: 80, entries: -20 },
        { accountId: books.aliceUsd, balance: 1000, entries: 1100 },
      ].sort((x, y) => x.accountId - y.accountId),
    });
  });

  it('reports a deleted entry: its transfer is short and its account holds money it has no entry for', async () => {
    const found = await violationsAfter(async (tx) => {
      await tx.execute(sql`delete from ledger_entries where id = ${await entryId(tx, books.tipAliceBob, books.feesCon)}`);
    });
    expect(found).toEqual({
      ...none,
      unbalancedTransfers: [{ transferId: books.tipAliceBob, currency: 'CON', total: -6 }],
      driftedAccounts: [{ accountId: books.feesCon, balance: 6, entries: 0 }],
    });
  });

  it('reports a whole transfer erased while the balances it moved were kept', async () => {
    const found = await violationsAfter(async (tx) => {
      await tx.execute(sql`delete from ledger_entries where transfer_id = ${books.tipBobAlice}`);
      await tx.execute(sql`delete from ledger_transfers where id = ${books.tipBobAlice}`);
    });
    expect(found).toEqual({
      ...none,
      driftedAccounts: [
        { accountId: books.aliceCon, balance: 80, entries: 70 },
        { accountId: books.bobCon, balance: 64, entries: 74 },
      ].sort((x, y) => x.accountId - y.accountId),
    });
  });

  it('reports a transfer whose entries were erased, or that never had any', async () => {
    let empty = 0;
    const found = await violationsAfter(async (tx) => {
      await tx.execute(sql`delete from ledger_entries where transfer_id = ${books.tipBobAlice}`);
      const [row] = await tx.insert(ledgerTransfers).values({ kind: 'adjustment', idempotencyKey: 'hollow', amount: 0, currency: 'CON' }).returning({ id: ledgerTransfers.id });
      empty = row!.id;
    });
    expect(found).toEqual({
      ...none,
      hollowTransfers: [books.tipBobAlice, empty],
      driftedAccounts: [
        { accountId: books.aliceCon, balance: 80, entries: 70 },
        { accountId: books.bobCon, balance: 64, entries: 74 },
      ].sort((x, y) => x.accountId - y.accountId),
    });
  });

  it('reports an entry appended to an old transfer, which the immutability triggers do not stop', async () => {
    // The triggers refuse UPDATE and DELETE only: an INSERT into a committed transfer goes through
    // with every guard on, and the checker is what notices.
    const found = await violationsAfter(async (tx) => {
      await tx.insert(ledgerEntries).values({ transferId: books.depositCarol, accountId: books.carolCon, amount: 5 });
    }, { unlock: false });
    expect(found).toEqual({
      ...none,
      unbalancedTransfers: [{ transferId: books.depositCarol, currency: 'CON', total: 5 }],
      driftedAccounts: [{ accountId: books.carolCon, balance: 10, entries: 15 }],
    });
  });

  it('reports a balance bumped without an entry: its currency no longer sums to zero and the account drifted', async () => {
    const found = await violationsAfter(async (tx) => {
      await tx.execute(sql`update ledger_accounts set balance = balance + 5 where id = ${books.aliceCon}`);
    });
    expect(found).toEqual({
      ...none,
      unbalancedCurrencies: [{ currency: 'CON', total: 5 }],
      driftedAccounts: [{ accountId: books.aliceCon, balance: 85, entries: 80 }],
    });
  });

  it('reports balances moved between wallets without a transfer, though every currency still sums to zero', async () => {
    const found = await violationsAfter(async (tx) => {
      await tx.execute(sql`update ledger_accounts set balance = balance - 5 where id = ${books.aliceCon}`);
      await tx.execute(sql`update ledger_accounts set balance = balance + 5 where id = ${books.bobCon}`);
    });
    expect(found).toEqual({
      ...none,
      driftedAccounts: [
        { accountId: books.aliceCon, balance: 75, entries: 80 },
        { accountId: books.bobCon, balance: 69, entries: 64 },
      ].sort((x, y) => x.accountId - y.accountId),
    });
  });

  it('reports a wallet overdrawn by a balanced transfer once the CHECK that forbids it is gone', async () => {
    // Carol has 10 coins and tips 25 through the ledger service: a transfer correct in every other way.
    const found = await violationsAfter(async (tx) => {
      await transfer('tip', 'CON', [
        { account: { userId: books.carol, currency: 'CON' }, amount: -25 },
        { account: { userId: books.bob, currency: 'CON' }, amount: 25 },
      ], tx);
      expect(await balance(tx, books.carolCon)).toBe(-15);
    });
    expect(found).toEqual({ ...none, negativeWallets: [{ accountId: books.carolCon, userId: books.carol, currency: 'CON', balance: -15 }] });
  });

  it('does not count a system account below zero as a violation', async () => {
    // The mint carries the negative side of every deposit: that is the design, not a fault.
    const mintCon = await accountId({ system: 'mint' }, 'CON');
    expect(await db().select({ balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.id, mintCon))).toEqual([{ balance: -160 }]);
    expect(await findLedgerViolations(db())).toEqual(none);
  });

  it('left the guards in place after the rollbacks', async () => {
    await expect(db().execute(sql`update ledger_entries set amount = amount + 1 where transfer_id = ${books.tipAliceBob}`)).rejects.toThrow();
    await expect(db().execute(sql`delete from ledger_transfers where id = ${books.tipBobAlice}`)).rejects.toThrow();
    await expect(db().execute(sql`update ledger_accounts set balance = -1 where id = ${books.carolCon}`)).rejects.toThrow();
    await expectLedgerInvariants(db());
  });
});
