/**
 * The ledger's invariants (docs/architecture.md §9), for any test that moves money: every currency's balances
 * sum to zero, no user wallet is negative, every transfer has at least two entries and they sum to zero
 * per currency, and each account's balance equals the sum of its entries. Call it after a test file (afterAll) or after load.
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { checkConservation, conservationViolations } from '../modules/ledger';
import type { Executor } from '../platform/db/client';

export interface LedgerViolations {
  /** Currencies whose balances do not sum to zero, with the sum. */
  unbalancedCurrencies: Array<{ currency: string; total: number }>;
  /** User wallets below zero. */
  negativeWallets: Array<{ accountId: number; userId: number; currency: string; balance: number }>;
  /** Transfers with fewer than two entries: money cannot move with one leg, or none. */
  hollowTransfers: number[];
  /** Transfers whose entries do not sum to zero in some currency. */
  unbalancedTransfers: Array<{ transferId: number; currency: string; total: number }>;
  /** Accounts whose balance differs from the sum of their entries. */
  driftedAccounts: Array<{ accountId: number; balance: number; entries: number }>;
}

const rows = async <T>(db: Executor, query: ReturnType<typeof sql>) => (await db.execute(query)).rows as T[];

/** Reads every violation (empty lists when the ledger is sound). */
export async function findLedgerViolations(db: Executor): Promise<LedgerViolations> {
  const unbalancedCurrencies = await rows<{ currency: string; total: string | number }>(db, sql`
    select currency, sum(balance)::bigint as total from ledger_accounts group by currency having sum(balance) <> 0`);
  const negativeWallets = await rows<{ id: string | number; user_id: string | number; currency: string; balance: string | number }>(db, sql`
    select id, user_id, currency, balance from ledger_accounts where user_id is not null and balance < 0`);
  const unbalancedTransfers = await rows<{ transfer_id: string | number; currency: string; total: string | number }>(db, sql`
    select e.transfer_id, a.currency, sum(e.amount)::bigint as total
    from ledger_entries e join ledger_accounts a on a.id = e.account_id
    group by e.transfer_id, a.currency having sum(e.amount) <> 0`);
  const hollowTransfers = await rows<{ id: string | number }>(db, sql`
    select t.id from ledger_transfers t left join ledger_entries e on e.transfer_id = t.id
    group by t.id having count(e.id) < 2 order by t.id`);
  const driftedAccounts = await rows<{ id: string | number; balance: string | number; entries: string | number }>(db, sql`
    select a.id, a.balance, coalesce(sum(e.amount), 0)::bigint as entries
    from ledger_accounts a left join ledger_entries e on e.account_id = a.id
    group by a.id, a.balance having a.balance <> coalesce(sum(e.amount), 0)`);
  return {
    unbalancedCurrencies: unbalancedCurrencies.map((r) => ({ currency: r.currency, total: Number(r.total) })),
    negativeWallets: negativeWallets.map((r) => ({ accountId: Number(r.id), userId: Number(r.user_id), currency: r.currency, balance: Number(r.balance) })),
    hollowTransfers: hollowTransfers.map((r) => Number(r.id)),
    unbalancedTransfers: unbalancedTransfers.map((r) => ({ transferId: Number(r.transfer_id), currency: r.currency, total: Number(r.total) })),
    driftedAccounts: driftedAccounts.map((r) => ({ accountId: Number(r.id), balance: Number(r.balance), entries: Number(r.entries) })),
  };
}

/** A system account's balance in `currency`, its receiving shards summed. */
export async function systemBalance(db: Executor, name: string, currency = 'CON'): Promise<number> {
  const [row] = await rows<{ balance: string | number | null }>(db, sql`
    select sum(balance)::bigint as balance from ledger_accounts where system = ${name} and currency = ${currency}`);
  return Number(row?.balance ?? 0);
}

/**
 * Fails the test with every violation found: of the invariants, and of conservation (decision 0036: no
 * coin issued without money in or an audited grant, no system account paying what nobody funded).
 * Usage: `afterAll(() => expectLedgerInvariants(t.resources.database.db))`.
 */
export async function expectLedgerInvariants(db: Executor): Promise<void> {
  expect(await findLedgerViolations(db)).toEqual({ unbalancedCurrencies: [], negativeWallets: [], hollowTransfers: [], unbalancedTransfers: [], driftedAccounts: [] });
  expect(conservationViolations(await checkConservation(db))).toEqual([]);
}

/**
 * expectLedgerInvariants, and money in matches the payments (decision 0055): each succeeded payment's
 * transfer took exactly its amount in on `card-payments` and issued exactly its package's coins; a payment
 * that did not succeed moved nothing. Every coin a payment brought is then accounted for, and no more.
 */
export async function expectPaymentsBooked(db: Executor): Promise<void> {
  await expectLedgerInvariants(db);
  const booked = await rows<{ id: string | number; status: string; amount: number; coins: number; transfer_id: string | number | null; paid_in: string | number; minted: string | number }>(db, sql`
    select p.id, p.status, p.amount, k.coins, p.transfer_id,
      coalesce((select sum(-e.amount) from ledger_entries e join ledger_accounts a on a.id = e.account_id
        where e.transfer_id = p.transfer_id and a.system = 'card-payments' and a.currency = p.currency), 0)::bigint as paid_in,
      coalesce((select sum(-e.amount) from ledger_entries e join ledger_accounts a on a.id = e.account_id
        where e.transfer_id = p.transfer_id and a.system = 'mint' and a.currency = 'CON'), 0)::bigint as minted
    from payments p join coin_packages k on k.id = p.package_id order by p.id`);
  const wrong = booked.filter((p) => p.status === 'succeeded'
    ? p.transfer_id === null || Number(p.paid_in) !== p.amount || Number(p.minted) !== p.coins
    : p.transfer_id !== null);
  expect(wrong).toEqual([]);
}

/** Closes a test app after checking its books: every test file that moves money ends with this. */
export async function closeCheckingLedger(t: { resources: { database: { db: Executor } }; close(): Promise<void> } | undefined): Promise<void> {
  if (!t) return;
  try {
    await expectLedgerInvariants(t.resources.database.db);
  } finally {
    await t.close();
  }
}
