import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerInvariants } from '../../testing/ledger-invariants';
import { startTestApp, type TestApp } from '../../testing/harness';
import { sqlState, type Db } from '../../platform/db/client';
import { accountKey, createLedger, InsufficientFunds, RECEIVING_SHARDS, type Ledger } from './service';
import { AccountOnHold } from './holds';
import { walletVersion } from './payout-position';
import { debtAccountName } from './tables';

let t: TestApp;
let ledger: Ledger;
beforeAll(async () => {
  t = await startTestApp();
  ledger = createLedger({ db: t.resources.database.db });
});
afterAll(async () => {
  await t.close();
});

let keys = 0;
const key = () => `test-${(keys += 1)}`;
/** A tip whose credit lands on one of the recipient's receiving shards. */
const tipToShard = (from: number, to: number, coins: number, shard: number) =>
  ledger.transfer({
    kind: 'tip', idempotencyKey: key(), fromUserId: from, toUserId: to, amount: coins, currency: 'CON',
    legs: [{ account: { userId: from, currency: 'CON' }, amount: -coins }, { account: { userId: to, currency: 'CON', shard }, amount: coins }],
  });
const sweeps = async (userId: number) => {
  const rows = await t.resources.database.db.execute(sql`select count(*)::int as n from ledger_transfers where kind = 'sweep' and from_user_id = ${userId}`);
  return Number((rows.rows[0] as { n: number }).n);
};
const tip = (from: number, to: number, coins: number, idempotencyKey = key()) =>
  ledger.transfer({
    kind: 'tip', idempotencyKey, fromUserId: from, toUserId: to, amount: coins, currency: 'CON',
    legs: [{ account: { userId: from, currency: 'CON' }, amount: -coins }, { account: { userId: to, currency: 'CON' }, amount: coins }],
  });

describe('the ledger', () => {
  it('moves money between wallets and keeps every currency at zero overall', async () => {
    const [a, b] = [await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 100);
    await tip(a.id, b.id, 30);
    expect(await ledger.balances(a.id)).toMatchObject({ CON: 70, IMP: 0, USD: 0, CAD: 0 });
    expect((await ledger.balances(b.id)).CON).toBe(30);
    const sums = await t.resources.database.db.execute(sql`select currency, sum(balance)::bigint as total from ledger_accounts group by currency`);
    for (const row of sums.rows as Array<{ total: string | number }>) expect(Number(row.total)).toBe(0);
  });

  it('moves nothing the second time a key is used, and answers the first transfer', async () => {
    const [a, b] = [await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 50);
    const first = await tip(a.id, b.id, 20, 'retry-me');
    const again = await tip(a.id, b.id, 20, 'retry-me');
    expect(first.created).toBe(true);
    expect(again).toEqual({ transferId: first.transferId, created: false });
    expect((await ledger.balances(a.id)).CON).toBe(30);
  });

  it('refuses to take a wallet below zero and moves nothing', async () => {
    const [a, b] = [await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 10);
    await expect(tip(a.id, b.id, 11)).rejects.toBeInstanceOf(InsufficientFunds);
    expect((await ledger.balances(a.id)).CON).toBe(10);
    expect((await ledger.balances(b.id)).CON).toBe(0);
  });

  it('refuses legs that do not sum to zero, and keeps transfers and entries unchangeable', async () => {
    const a = await t.given.user();
    await expect(ledger.transfer({
      kind: 'adjustment', idempotencyKey: key(), amount: 5, currency: 'CON',
      legs: [{ account: { userId: a.id, currency: 'CON' }, amount: 5 }],
    })).rejects.toThrow(/sum to 5/);
    const { transferId } = await t.given.coins(a.id, 5);
    const db = t.resources.database.db;
    await expect(db.execute(sql`update ledger_transfers set amount = 500 where id = ${transferId}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from ledger_entries where transfer_id = ${transferId}`)).rejects.toThrow();
  });

  it('keeps concurrent tips between the same wallets consistent', async () => {
    const [a, b] = [await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 100);
    await t.given.coins(b.id, 100);
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => (i % 2 ? tip(a.id, b.id, 7) : tip(b.id, a.id, 3))));
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toEqual([]);
    const [ca, cb] = [(await ledger.balances(a.id)).CON, (await ledger.balances(b.id)).CON];
    expect(ca + cb).toBe(200);
    expect(ca).toBe(100 - 20 * 7 + 20 * 3);
  });

  it('credits receiving shards, counts them in the balance, and never debits them directly', async () => {
    const [a, b] = [await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 100);
    await tipToShard(a.id, b.id, 30, 3);
    await tipToShard(a.id, b.id, 20, RECEIVING_SHARDS - 1);
    expect((await ledger.balances(b.id)).CON).toBe(50);
    await expect(ledger.transfer({
      kind: 'tip', idempotencyKey: key(), amount: 5, currency: 'CON',
      legs: [{ account: { userId: b.id, currency: 'CON', shard: 3 }, amount: -5 }, { account: { userId: a.id, currency: 'CON' }, amount: 5 }],
    })).rejects.toThrow(/only credited/);
    await expect(tipToShard(a.id, b.id, 1, RECEIVING_SHARDS)).rejects.toThrow(/no receiving shard/);
    await expectLedgerInvariants(t.resources.database.db);
  });

  it('sweeps the shards of a payer into their wallet when the wallet alone cannot pay, and only then', async () => {
    const [a, b, c] = [await t.given.user(), await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 100);
    await t.given.coins(b.id, 10);
    await tipToShard(a.id, b.id, 30, 1);
    await tipToShard(a.id, b.id, 25, 2);
    await tip(b.id, c.id, 10); // the wallet itself covers it
    expect(await sweeps(b.id)).toBe(0);
    await tip(b.id, c.id, 40); // needs the shards
    expect(await sweeps(b.id)).toBe(1);
    expect((await ledger.balances(b.id)).CON).toBe(15);
    await expect(tip(b.id, c.id, 16)).rejects.toBeInstanceOf(InsufficientFunds);
    expect(await sweeps(b.id)).toBe(1);
    expect((await ledger.balances(b.id)).CON).toBe(15);
    await expectLedgerInvariants(t.resources.database.db);
  });

  it('keeps the books when payments race a wallet whose coins sit in shards', async () => {
    const [a, b, c] = [await t.given.user(), await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 400);
    for (let shard = 1; shard < 9; shard++) await tipToShard(a.id, b.id, 25, shard); // 200 coins over 8 shards
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => tip(b.id, c.id, 9)));
    const paid = results.filter((r) => r.status === 'fulfilled').length;
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(InsufficientFunds);
    expect(paid).toBe(Math.floor(200 / 9));
    expect((await ledger.balances(b.id)).CON).toBe(200 - 9 * paid);
    expect((await ledger.balances(c.id)).CON).toBe(9 * paid);
    await expectLedgerInvariants(t.resources.database.db);
  });

  it('locks the accounts of parallel payments to one receiver in one order: no deadlocks', async () => {
    const db = t.resources.database.db;
    // The ledger retries a deadlock's victim: count the deadlocks its statements meet on the way.
    let deadlocks = 0;
    let statements = 0;
    const client = (db as unknown as { $client?: Pick<pg.Pool, 'query'> }).$client;
    const query = client ? (client.query.bind(client) as (...args: unknown[]) => Promise<unknown>) : null;
    const counting = {
      async query(...args: unknown[]) {
        statements += 1;
        try {
          return await query!(...args);
        } catch (error) {
          if (sqlState(error) === '40P01') deadlocks += 1;
          throw error;
        }
      },
    };
    const observed = client ? (new Proxy(db, { get: (target, prop, receiver) => (prop === '$client' ? counting : Reflect.get(target, prop, receiver)) }) as Db) : db;
    const parallel = createLedger({ db: observed });
    const receiver = await t.given.user();
    // Payers created apart, so their wallets' ids fall on both sides of the receiver's shard and the fees'.
    const payers: Array<{ id: number }> = [];
    for (let i = 0; i < 6; i++) {
      const payer = await t.given.user();
      await t.given.coins(payer.id, 1_000);
      payers.push(payer);
      await tipToShard(payer.id, receiver.id, 1, 5);
    }
    const pay = (from: number) =>
      parallel.transfer({
        kind: 'tip', idempotencyKey: key(), fromUserId: from, toUserId: receiver.id, amount: 10, currency: 'CON',
        legs: [
          { account: { userId: from, currency: 'CON' }, amount: -10 },
          { account: { userId: receiver.id, currency: 'CON', shard: 5 }, amount: 8 },
          { account: { system: 'fees', currency: 'CON', shard: 5 }, amount: 2 },
        ],
      });
    await Promise.all(Array.from({ length: 120 }, (_, i) => pay(payers[i % payers.length]!.id)));
    expect(statements).toBeGreaterThanOrEqual(client ? 120 : 0); // the count saw the payments
    expect(deadlocks).toBe(0);
    expect((await ledger.balances(receiver.id)).CON).toBe(6 + 120 * 8);
    await expectLedgerInvariants(db);
  });
});

describe('wallet versions', () => {
  it('answers each wallet its own version when many are asked at once, and a new one after it moved', async () => {
    const [a, b, never] = [await t.given.user(), await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 100);
    await tip(a.id, b.id, 30);
    const versionOf = walletVersion(t.resources.database.db);
    const alone = [await versionOf(a.id), await versionOf(b.id), await versionOf(never.id)];
    expect(alone[0]).not.toBe(alone[1]);
    expect(alone[2]).toBeNull();
    const together = await Promise.all(Array.from({ length: 4 }, () => [versionOf(a.id), versionOf(b.id), versionOf(never.id)]).flat());
    expect(together).toEqual([...alone, ...alone, ...alone, ...alone]);
    await tip(b.id, a.id, 5);
    const [movedA, movedB] = await Promise.all([versionOf(a.id), versionOf(b.id)]);
    expect([movedA === alone[0], movedB === alone[1]]).toEqual([false, false]);
  });
});

describe('a batch of transfers', () => {
  /** A batch of tips whose condition and guard read the rows' own values. */
  const tipsBatch = () => ledger.prepareTransferBatch({
    columns: { open: 'boolean', let_through: 'boolean' },
    condition: sql`p.open`,
    guard: sql`ready.let_through`,
    select: { spent_before: sql`select coalesce(sum(amount), 0)::int from ledger_transfers x where x.from_user_id = p.from_user_id and x.kind = 'tip'` },
  });
  const tipRow = (from: number, to: number, coins: number, values: { open?: boolean; let_through?: boolean } = {}, idempotencyKey = key()) => ({
    request: {
      kind: 'tip' as const, idempotencyKey, fromUserId: from, toUserId: to, amount: coins, currency: 'CON' as const,
      legs: [{ account: { userId: from, currency: 'CON' as const }, amount: -coins }, { account: { userId: to, currency: 'CON' as const, shard: from % RECEIVING_SHARDS }, amount: coins }],
    },
    values: { open: values.open ?? true, let_through: values.let_through ?? true },
  });

  it('moves each transfer whose own checks hold, in one statement, and nothing for the others', async () => {
    const receiver = await t.given.user();
    const payers: Array<{ id: number }> = [];
    for (let i = 0; i < 6; i++) {
      const payer = await t.given.user();
      await t.given.coins(payer.id, 50);
      payers.push(payer);
    }
    const replayed = tipRow(payers[2]!.id, receiver.id, 5);
    await ledger.transfer(replayed.request);
    const write = tipsBatch();
    const outcomes = await write([
      tipRow(payers[0]!.id, receiver.id, 20),
      tipRow(payers[1]!.id, receiver.id, 51), // more than the wallet holds
      replayed,
      tipRow(payers[3]!.id, receiver.id, 10, { open: false }),
      tipRow(payers[4]!.id, receiver.id, 10, { let_through: false }),
      tipRow(payers[5]!.id, receiver.id, 50),
    ]);
    expect(outcomes.map(({ replay, covered, ready, allowed, transferId }) => ({ replay, covered, ready, allowed, moved: transferId !== null }))).toEqual([
      { replay: false, covered: true, ready: true, allowed: true, moved: true },
      { replay: false, covered: false, ready: false, allowed: false, moved: false },
      { replay: true, covered: true, ready: false, allowed: false, moved: false },
      { replay: false, covered: true, ready: false, allowed: false, moved: false },
      { replay: false, covered: true, ready: true, allowed: false, moved: false },
      { replay: false, covered: true, ready: true, allowed: true, moved: true },
    ]);
    // Reads answer as of before the batch; new balances come back per account.
    expect(outcomes[2]!.selected.spent_before).toBe(5);
    expect(outcomes[0]!.selected.spent_before).toBe(0);
    expect(outcomes[0]!.balanceAfter.get(accountKey({ userId: payers[0]!.id, currency: 'CON' }))).toBe(30);
    expect(outcomes[5]!.balanceAfter.get(accountKey({ userId: payers[5]!.id, currency: 'CON' }))).toBe(0);
    expect(outcomes[1]!.balanceAfter.size).toBe(0);

    const balances = await Promise.all(payers.map((p) => ledger.balances(p.id)));
    expect(balances.map((b) => b.CON)).toEqual([30, 50, 45, 50, 50, 0]);
    expect((await ledger.balances(receiver.id)).CON).toBe(5 + 20 + 50);
    // A second run of the same rows moves nothing more.
    const again = await write([tipRow(payers[0]!.id, receiver.id, 20, {}, outcomes[0] && (await transferKey(outcomes[0].transferId!)))]);
    expect(again[0]).toMatchObject({ replay: true, transferId: null });
    await expectLedgerInvariants(t.resources.database.db);
  });

  it('keeps the books when batches race single transfers on the same wallets', async () => {
    const receiver = await t.given.user();
    const payers: Array<{ id: number }> = [];
    for (let i = 0; i < 8; i++) {
      const payer = await t.given.user();
      await t.given.coins(payer.id, 100);
      payers.push(payer);
    }
    const write = tipsBatch();
    // Every payer spends exactly their 100 coins, 10 at a time, half in batches and half alone: no
    // wallet may go below zero or lose a coin, whatever order the statements take their locks in.
    const batches = Array.from({ length: 5 }, () => write(payers.map((p) => tipRow(p.id, receiver.id, 10))));
    const singles = payers.flatMap((p) => Array.from({ length: 5 }, () => tipToShard(p.id, receiver.id, 10, p.id % RECEIVING_SHARDS)));
    const [outcomes] = await Promise.all([Promise.all(batches), Promise.all(singles)]);
    expect(outcomes.flat().filter((o) => o.transferId !== null)).toHaveLength(40);
    expect((await Promise.all(payers.map((p) => ledger.balances(p.id)))).map((b) => b.CON)).toEqual(payers.map(() => 0));
    expect((await ledger.balances(receiver.id)).CON).toBe(800);
    await expectLedgerInvariants(t.resources.database.db);
  });

  it('refuses a batch that names a key twice', async () => {
    const [a, b] = [await t.given.user(), await t.given.user()];
    const row = tipRow(a.id, b.id, 1);
    await expect(tipsBatch()([row, row])).rejects.toThrow('a batch names each idempotency key once');
  });
});

async function transferKey(transferId: number): Promise<string> {
  const rows = await t.resources.database.db.execute(sql`select idempotency_key from ledger_transfers where id = ${transferId}`);
  return (rows.rows[0] as { idempotency_key: string }).idempotency_key;
}

describe('holds (decision 0057)', () => {
  const takeBack = (userId: number, coins: number, debt: number) =>
    ledger.transfer({
      kind: 'refund', idempotencyKey: key(), fromUserId: userId, amount: 0, currency: 'CON',
      legs: [
        { account: { userId, currency: 'CON' }, amount: -coins },
        { account: { system: debtAccountName(userId), currency: 'CON' }, amount: -debt },
        { account: { system: 'mint', currency: 'CON' }, amount: coins + debt },
      ],
    });

  it('refuses spending from a wallet with an open hold, but not a take-back, and spends again once it is released', async () => {
    const [a, b] = [await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 50);
    await ledger.openHold(a.id, `test-hold:${a.id}`);
    await ledger.openHold(a.id, `test-hold:${a.id}`);
    await expect(tip(a.id, b.id, 5)).rejects.toBeInstanceOf(AccountOnHold);
    // Receiving is not spending; a take-back is not either.
    await t.given.coins(b.id, 5);
    await tip(b.id, a.id, 5);
    await takeBack(a.id, 10, 0);
    expect(await ledger.holdOf(a.id)).toMatchObject({ held: true, owedCoins: 0, open: [expect.objectContaining({ reference: `test-hold:${a.id}` })] });
    await ledger.releaseHold(`test-hold:${a.id}`);
    await tip(a.id, b.id, 5);
    expect((await ledger.balances(a.id)).CON).toBe(40);
    await expectLedgerInvariants(t.resources.database.db);
  });

  it('holds a user who owes, and a debt account never goes above zero', async () => {
    const [a, b] = [await t.given.user(), await t.given.user()];
    await t.given.coins(a.id, 20);
    await takeBack(a.id, 20, 30);
    await t.given.coins(a.id, 10);
    await expect(tip(a.id, b.id, 1)).rejects.toBeInstanceOf(AccountOnHold);
    expect(await ledger.holdOf(a.id)).toMatchObject({ held: true, owedCoins: 30, open: [] });
    expect(await ledger.heldUsers()).toContainEqual({ userId: a.id, owedCoins: 30, openSince: null });
    // Paying more than is owed would put the debt account in credit: refused whole.
    const overpay = ledger.transfer({
      kind: 'adjustment', idempotencyKey: key(), amount: 31, currency: 'CON',
      legs: [{ account: { system: 'mint', currency: 'CON' }, amount: -31 }, { account: { system: debtAccountName(a.id), currency: 'CON' }, amount: 31 }],
    });
    await expect(overpay).rejects.toThrow();
    expect(await ledger.debtOf(a.id)).toBe(30);
  });
});
