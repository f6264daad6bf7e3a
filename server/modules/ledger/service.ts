/**
 * The only writer of money (docs/architecture.md §9). A transfer is one SQL statement: the transfer row (its
 * idempotency key unique), the balance changes and the entries commit together or not at all; a
 * wallet that would go below zero fails the statement through its CHECK, so nothing moves.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, fillPlaceholders, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { sqlState, type Db, type Executor } from '../../platform/db/client';
import { namedStatementRunner } from '../../platform/db/prepared';
import { transferBatchStatement, type BatchOptions, type BatchRow, type BatchRowOutcome } from './batch';
import { AccountOnHold, heldSql, ledgerHoldsOf, spendersOf } from './holds';
import { ledgerReads } from './reads';
import { CURRENCIES, ledgerAccounts, ledgerTransfers, type Currency, type TransferKind } from './tables';
import { integerArray } from '../../platform/db/arrays';

const CHECK_VIOLATION = '23514';
const DEADLOCK = '40P01';
const SERIALIZATION_FAILURE = '40001';

/**
 * A user's wallet, or a system account (mint, fees, sales, card-payments, …). `shard` (default 0) names a
 * receiving shard: credits only (see RECEIVING_SHARDS).
 */
export type AccountRef = ({ userId: number } | { system: SystemAccount }) & { currency: Currency; shard?: number };
/** Issuers (`mint`, and the money-in accounts `card-payments`, `invoices`) may go below zero, and debt accounts (claims on users, decision 0057); no other (decision 0036). */
export type SystemAccount = 'mint' | 'fees' | 'sales' | 'card-payments' | 'invoices' | 'advertising' | 'payouts' | 'paid-out' | `ad-campaign:${number}` | `debt:${number}`;

/**
 * A busy receiver's credits spread over this many rows per currency (decision 0012): every payment to a
 * popular broadcaster, and every fee, would otherwise update one row and hold its lock until commit,
 * so payments to them would run one commit at a time.
 */
export const RECEIVING_SHARDS = 16;
/** The shard a payer's credits land on: stable per payer, so one payer's payments queue only on their own. */
export const receivingShard = (payerId: number) => payerId % RECEIVING_SHARDS;

/**
 * The receiving shard each batch credits, by its slot: slot s takes shards s, s + slots, s + 2 × slots, …
 * in turn, so batches running at once never wait on each other's receiving rows, and the credits still
 * spread over every shard (slots ≤ RECEIVING_SHARDS).
 */
export function receivingShardsBySlot(slots: number) {
  const turns = Array.from({ length: slots }, () => 0);
  const perSlot = Math.max(1, Math.floor(RECEIVING_SHARDS / slots));
  return {
    next(slot: number): number {
      const turn = turns[slot]!;
      turns[slot] = (turn + 1) % perSlot;
      return slot + turn * slots;
    },
  };
}

export interface Leg {
  account: AccountRef;
  amount: number;
}

export interface TransferRequest {
  kind: TransferKind;
  idempotencyKey: string;
  fromUserId?: number;
  toUserId?: number;
  streamId?: number;
  /** What the payer gave, in `currency`. */
  amount: number;
  currency: Currency;
  details?: Record<string, unknown>;
  legs: Leg[];
  /** When it happened, for history brought in from elsewhere (demo data, tests); now otherwise. */
  bookedAt?: Date;
}

export interface TransferOutcome {
  transferId: number;
  /** False when the key had moved money before: nothing moved this time. */
  created: boolean;
}

export interface TransferOptions {
  /**
   * Statements run first, by name, in the same statement (e.g. a throttle's token taken): the guard and
   * `select` may read their RETURNING rows.
   */
  with?: Record<string, SQL>;
  /** A boolean SQL condition: the transfer happens only when it holds. */
  guard?: SQL;
  /** Extra scalar SQL expressions answered by the same statement, by name. */
  select?: Record<string, SQL>;
  /**
   * Statements run with the transfer, by name, in the same statement (so in its transaction), reading `t`:
   * the new transfer's `id`, no row when nothing moved (e.g. its domain event written to the event outbox).
   */
  after?: Record<string, SQL>;
}

export interface TransferExtras {
  /** False when the guard did not hold: nothing moved (transferId 0). */
  allowed: boolean;
  selected: Record<string, unknown>;
  /** New balances of the accounts this call moved, keyed by accountKey(ref). */
  balanceAfter: Map<string, number>;
}

/**
 * What a sweep found: coins it moved (or another sweep moved first), receiving shards that were all
 * empty, or no receiving shards at all.
 */
type SweepResult = 'moved' | 'empty' | 'no-shards';
const SWEEP_RANK: Record<SweepResult, number> = { 'no-shards': 0, empty: 1, moved: 2 };
/** How many times one payment gathers its payer's shards before it gives up as insufficient. */
const MAX_SWEEPS = 5;

/**
 * The platform's share of a payment, rounded up: ceil(amount × percent / 100). Rounding down let small
 * payments through free (25 tips of 4 coins paid no 20 % fee at all).
 */
export const platformFee = (amount: number, percent: number) => Math.ceil((amount * percent) / 100);

/** The payer's wallet cannot cover the transfer. */
export class InsufficientFunds extends Error {
  constructor() {
    super('Insufficient funds');
  }
}

const shardOf = (ref: AccountRef) => ref.shard ?? 0;
const refKey = (ref: AccountRef) =>
  `${'userId' in ref ? `user:${ref.userId}` : `system:${ref.system}`}:${ref.currency}${shardOf(ref) ? `:${shardOf(ref)}` : ''}`;
/** How TransferExtras.balanceAfter names an account. */
export const accountKey = refKey;

/** Legs on one account become one amount; every currency must sum to zero. */
function netLegs(legs: Leg[], kind: TransferKind): Map<string, { ref: AccountRef; amount: number }> {
  const byAccount = new Map<string, { ref: AccountRef; amount: number }>();
  const perCurrency = new Map<Currency, number>();
  for (const { account, amount } of legs) {
    if (!Number.isSafeInteger(amount)) throw new Error(`ledger amounts are whole numbers (got ${amount})`);
    const shard = shardOf(account);
    if (!Number.isInteger(shard) || shard < 0 || shard >= RECEIVING_SHARDS) throw new Error(`no receiving shard ${shard}`);
    const key = refKey(account);
    byAccount.set(key, { ref: account, amount: (byAccount.get(key)?.amount ?? 0) + amount });
    perCurrency.set(account.currency, (perCurrency.get(account.currency) ?? 0) + amount);
  }
  for (const [currency, sum] of perCurrency) if (sum !== 0) throw new Error(`ledger legs in ${currency} sum to ${sum}, not zero`);
  for (const { ref, amount } of byAccount.values()) {
    if (amount < 0 && shardOf(ref) !== 0 && kind !== 'sweep') throw new Error(`receiving shards are only credited, and swept (${refKey(ref)})`);
  }
  return byAccount;
}

export function createLedger(deps: {
  db: Db;
  /** PostgreSQL (not the embedded database): named statements also inside callers' transactions. */
  namedInTransactions?: boolean;
}) {
  const { db } = deps;
  const dialect = new PgDialect();
  const namedOrPlain = namedStatementRunner();
  /** Account ids never change once created: resolved once per process. */
  const accountIds = new Map<string, number>();

  async function accountId(exec: Executor, ref: AccountRef): Promise<number> {
    const key = refKey(ref);
    const known = accountIds.get(key);
    if (known !== undefined) return known;
    const owner = 'userId' in ref ? { userId: ref.userId } : { system: ref.system };
    const shard = shardOf(ref);
    await exec.insert(ledgerAccounts).values({ ...owner, currency: ref.currency, shard }).onConflictDoNothing();
    const where = 'userId' in ref
      ? and(eq(ledgerAccounts.userId, ref.userId), eq(ledgerAccounts.currency, ref.currency), eq(ledgerAccounts.shard, shard))
      : and(eq(ledgerAccounts.system, ref.system), eq(ledgerAccounts.currency, ref.currency), eq(ledgerAccounts.shard, shard), isNull(ledgerAccounts.userId));
    const [row] = await exec.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(where);
    // An id found inside a caller's transaction may vanish with its rollback: remembered only outside one.
    if (exec === db) accountIds.set(key, row!.id);
    return row!.id;
  }

  const statementName = (text: string) => `ledger_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;

  /**
   * Runs a statement; on the pool (not in a transaction) as a named prepared statement, so PostgreSQL
   * parses and plans each text once per connection: on a tip that was most of the server's work.
   */
  async function run(exec: Executor, statement: SQL): Promise<{ rows: unknown[] }> {
    const client = clientOf(exec);
    if (!client) return exec.execute(statement);
    const query = dialect.sqlToQuery(statement);
    const name = statementName(query.sql);
    return namedOrPlain(() => client.query({ name, text: query.sql, values: query.params }), () => exec.execute(statement));
  }

  /**
   * The connection a named statement can go to: the pool, or on PostgreSQL the connection a caller's
   * transaction holds (drizzle keeps it in the transaction's session), so a batch of payments in one
   * transaction (renewals) is not planned again for each. Not on the embedded database, whose one
   * backend can already hold the name: the refusal would abort the caller's transaction.
   */
  function clientOf(exec: Executor): Pick<pg.Pool, 'query'> | undefined {
    if (exec === db) return (db as { $client?: Pick<pg.Pool, 'query'> }).$client;
    if (!deps.namedInTransactions) return undefined;
    const client = (exec as { session?: { client?: Partial<Pick<pg.PoolClient, 'query'>> } }).session?.client;
    return typeof client?.query === 'function' ? (client as Pick<pg.Pool, 'query'>) : undefined;
  }

  async function existing(exec: Executor, idempotencyKey: string): Promise<number | null> {
    const [row] = await exec.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, idempotencyKey));
    return row?.id ?? null;
  }

  async function transferOnce(exec: Executor, request: TransferRequest, options: TransferOptions): Promise<TransferOutcome & TransferExtras> {
    const unordered = [...netLegs(request.legs, request.kind).values()].filter((l) => l.amount !== 0);
    // One at a time: inside a transaction the queries share one connection.
    const resolved: Array<{ id: number; ref: AccountRef; amount: number }> = [];
    for (const leg of unordered) resolved.push({ ...leg, id: await accountId(exec, leg.ref) });
    // The statement locks the accounts in one global order whatever its plan (`locked`: newest account
    // first; the update counts all of `locked` before it touches a row, so every lock is taken first), so two transfers between the same wallets in opposite directions queue instead of
    // deadlocking, and the busiest rows — the system accounts, created first — are locked last.
    resolved.sort((x, y) => y.id - x.id);
    const legs = resolved;
    const ids = resolved.map((l) => l.id);
    // The legs as two arrays: one statement text for any number of legs, so it can stay prepared. The
    // accounts are found by `id = any(ids)`: a cached generic plan knows nothing of the arrays' length
    // and would otherwise scan the whole accounts table.
    const legIds = integerArray(ids);
    const legAmounts = integerArray(legs.map((l) => l.amount));
    const guard = options.guard ?? sql`true`;
    // Spending from a held wallet (debt, an open dispute) moves nothing: decided here, for every kind of payment.
    const spenders = spendersOf(request);
    const held = spenders.length > 0 ? sql`exists (select 1 from unnest(${integerArray(spenders)}::bigint[]) s(u) where ${heldSql(sql`s.u`)})` : sql`false`;
    const extras = Object.entries(options.select ?? {});
    const extraColumns = extras.length ? sql`, ${sql.join(extras.map(([name, expr]) => sql`(${expr}) as ${sql.identifier(name)}`), sql`, `)}` : sql``;
    // The guard and the extra columns read the statement's snapshot (before this transfer). The select
    // list runs the CTEs in its order: the transfer row, the reads, the entries, and the balance updates
    // last, so the wallet row locks (held until commit) are taken as late as possible.
    const prelude = Object.entries(options.with ?? {}).map(([name, body]) => sql`${sql.identifier(name)} as (${body}),`);
    const epilogue = Object.entries(options.after ?? {}).map(([name, body]) => sql`, ${sql.identifier(name)} as (${body})`);
    const statement: SQL = sql`
      with ${sql.join(prelude, sql` `)} t as (
        insert into ${ledgerTransfers} (kind, idempotency_key, from_user_id, to_user_id, stream_id, amount, currency, details, created_at)
        select ${request.kind}, ${request.idempotencyKey}, ${request.fromUserId ?? null}::bigint, ${request.toUserId ?? null}::bigint,
          ${request.streamId ?? null}::bigint, ${request.amount}::bigint, ${request.currency}, ${JSON.stringify(request.details ?? {})}::jsonb,
          coalesce(${request.bookedAt?.toISOString() ?? null}::timestamptz, now())
        where ${guard} and not ${held}
        on conflict (idempotency_key) do nothing
        returning id
      ),
      legs (account_id, amount) as (select * from unnest(${legIds}::bigint[], ${legAmounts}::bigint[])),
      locked as materialized (
        select a.id from ${ledgerAccounts} a where a.id = any(${legIds}::bigint[]) and exists (select 1 from t)
        order by a.id desc for update
      ),
      moved as (
        update ${ledgerAccounts} a set balance = a.balance + legs.amount
        from legs where a.id = any(${legIds}::bigint[]) and a.id = legs.account_id and (select count(*) from locked) > 0
        returning a.id, a.balance
      ),
      entries as (
        insert into ledger_entries (transfer_id, account_id, amount)
        select t.id, legs.account_id, legs.amount from t, legs
        returning 1
      ) ${sql.join(epilogue, sql` `)}
      select (select id from t) as id, (select ${guard}) as allowed, (select ${held}) as held${extraColumns}, (select count(*) from entries)::int as entries,
        (select json_agg(json_build_array(moved.id, moved.balance)) from moved) as balances`;
    const result = await run(exec, statement);
    const row = result.rows[0] as { id: string | number | null; allowed: boolean; held: boolean; balances: Array<[number, number | string]> | null } & Record<string, unknown>;
    const selected = Object.fromEntries(extras.map(([name]) => [name, row[name]]));
    const balanceAfter = new Map<string, number>();
    for (const [id, balance] of row.balances ?? []) {
      const index = ids.indexOf(Number(id));
      if (index >= 0) balanceAfter.set(refKey(legs[index]!.ref), Number(balance));
    }
    if (row.id !== null && row.id !== undefined) return { transferId: Number(row.id), created: true, allowed: true, selected, balanceAfter };
    // A key that moved money before answers that transfer, whatever the guard says now.
    const earlier = await existing(exec, request.idempotencyKey);
    if (earlier !== null) return { transferId: earlier, created: false, allowed: true, selected, balanceAfter };
    if (row.held) throw new AccountOnHold();
    if (!row.allowed) return { transferId: 0, created: false, allowed: false, selected, balanceAfter };
    throw new Error('transfer neither written nor found');
  }

  /**
   * transfer, in the same statement as a condition and extra reads (one round trip for a whole
   * money path): nothing moves when `guard` is false (allowed: false); `select` columns and the guard
   * read the database as it was before the transfer; balanceAfter holds each moved account's new
   * balance by account (accountKey).
   */
  async function guardedTransfer(request: TransferRequest, options: TransferOptions, exec: Executor = db): Promise<TransferOutcome & TransferExtras> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await retryingConflicts(exec, () => transferOnce(exec, request, options));
      } catch (error) {
        if (sqlState(error) !== CHECK_VIOLATION) throw error;
        // A payer whose coins partly sit in receiving shards: gather them into the wallet, then pay once
        // more. Inside a caller's transaction the failed statement has aborted it: nothing more can run.
        // Concurrent payments by the same payer may spend what was gathered before this one runs again,
        // while new credits land in the shards: so again while a sweep still finds coins, a few times.
        if (exec !== db || attempt > MAX_SWEEPS) throw new InsufficientFunds();
        const swept = await sweepPayers(request.legs);
        if (swept === 'no-shards' || (swept === 'empty' && attempt > 1)) throw new InsufficientFunds();
      }
    }
  }

  /**
   * Runs a statement again when PostgreSQL chose it to fail a deadlock or a serialization conflict
   * (possible only between statements that do not share the lock order, e.g. outside the ledger).
   * Not inside a caller's transaction: the failure has aborted it.
   */
  async function retryingConflicts<T>(exec: Executor, statement: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await statement();
      } catch (error) {
        const state = sqlState(error);
        const retriable = (state === DEADLOCK || state === SERIALIZATION_FAILURE) && exec === db && attempt < 5;
        if (!retriable) throw error;
      }
    }
  }

  /**
   * Moves an account's receiving shards into shard 0 (a 'sweep' transfer, one statement like any other):
   * a wallet's, or a system account's (the fees a commission is paid from). Empty shards still answer
   * 'empty', not 'no-shards': another payment's sweep may have just filled the wallet, so paying again
   * is worth it once. Shards only gain between the read and the transfer, except by another sweep: then
   * the transfer fails its CHECK and the other sweep did the work.
   */
  async function sweep(owner: { userId: number } | { system: SystemAccount }, currency: Currency): Promise<SweepResult> {
    const ownedBy = 'userId' in owner ? eq(ledgerAccounts.userId, owner.userId) : and(eq(ledgerAccounts.system, owner.system), isNull(ledgerAccounts.userId));
    const rows = await db.select({ shard: ledgerAccounts.shard, balance: ledgerAccounts.balance }).from(ledgerAccounts)
      .where(and(ownedBy, eq(ledgerAccounts.currency, currency), gt(ledgerAccounts.shard, 0)));
    const shards = rows.filter((s) => Number(s.balance) > 0);
    if (shards.length === 0) return rows.length > 0 ? 'empty' : 'no-shards';
    const total = shards.reduce((sum, s) => sum + Number(s.balance), 0);
    const users = 'userId' in owner ? { fromUserId: owner.userId, toUserId: owner.userId } : {};
    const name = 'userId' in owner ? String(owner.userId) : owner.system;
    try {
      await retryingConflicts(db, () => transferOnce(db, {
        kind: 'sweep',
        idempotencyKey: `sweep:${name}:${currency}:${randomUUID()}`,
        ...users,
        amount: total,
        currency,
        legs: [
          ...shards.map((s) => ({ account: { ...owner, currency, shard: s.shard }, amount: -Number(s.balance) })),
          { account: { ...owner, currency }, amount: total },
        ],
      }, {}));
    } catch (error) {
      if (sqlState(error) !== CHECK_VIOLATION) throw error;
    }
    return 'moved';
  }

  /** What sweeping the payers found: the best of their answers ('moved' over 'empty' over 'no-shards'). */
  async function sweepPayers(legs: Leg[]): Promise<SweepResult> {
    let best: SweepResult = 'no-shards';
    for (const { account, amount } of legs) {
      if (amount >= 0 || !('userId' in account)) continue;
      const result = await sweep({ userId: account.userId }, account.currency);
      if (SWEEP_RANK[result] > SWEEP_RANK[best]) best = result;
    }
    return best;
  }

  /**
   * Several transfers as one statement (decision 0033), each moving money only when its own checks hold
   * (batch.ts): for batches of concurrent payments, by distinct payers with distinct keys. The statement
   * is built and compiled once; each batch only fills in its rows. Nothing is swept here: a row whose
   * payer's wallet falls short answers `covered: false` and moved nothing.
   */
  function prepareTransferBatch(options: BatchOptions) {
    const { statement, values, read } = transferBatchStatement(options);
    const query = dialect.sqlToQuery(statement);
    const name = statementName(query.sql);
    const client = clientOf(db)!;
    return async (items: Array<{ request: TransferRequest; values: BatchRow['values'] }>): Promise<Array<BatchRowOutcome & { balanceAfter: Map<string, number> }>> => {
      const rows: Array<BatchRow & { legs: Array<{ ref: AccountRef; accountId: number; amount: number }> }> = [];
      for (const item of items) {
        const legs: Array<{ ref: AccountRef; accountId: number; amount: number }> = [];
        for (const leg of netLegs(item.request.legs, item.request.kind).values()) legs.push({ ref: leg.ref, accountId: await accountId(db, leg.ref), amount: leg.amount });
        rows.push({ request: item.request, values: item.values, legs });
      }
      const params = fillPlaceholders(query.params, values(rows));
      const outcome = read(await retryingConflicts(db, () => namedOrPlain(
        () => client.query({ name, text: query.sql, values: params }),
        () => client.query({ text: query.sql, values: params }),
      )));
      return outcome.rows.map((row, i) => {
        const balanceAfter = new Map<string, number>();
        if (row.transferId !== null) {
          for (const leg of rows[i]!.legs) {
            const balance = outcome.balanceAfter.get(leg.accountId);
            if (balance !== undefined) balanceAfter.set(refKey(leg.ref), balance);
          }
        }
        return { ...row, balanceAfter };
      });
    };
  }

  return {
    /**
     * Moves money. Retrying with the same idempotency key answers the first transfer and moves
     * nothing. Throws InsufficientFunds when a wallet would go below zero. Inside a caller's
     * transaction (`exec`) only the wallet row itself pays: coins still in receiving shards are swept
     * only on the pool, so debit a receiver's wallet outside a transaction (or sweep it first).
     */
    async transfer(request: TransferRequest, exec: Executor = db): Promise<TransferOutcome> {
      const { transferId, created } = await guardedTransfer(request, {}, exec);
      return { transferId, created };
    },

    guardedTransfer,
    prepareTransferBatch,
    ...ledgerReads(db),
    ...ledgerHoldsOf(db),

    /**
     * Moves the user's receiving shards into their wallet: before a payment made inside a caller's
     * transaction, where the ledger cannot sweep by itself. Nothing when the shards are empty.
     */
    async gather(userId: number, currency: Currency): Promise<void> {
      await sweep({ userId }, currency);
    },

    /** Moves a system account's receiving shards into shard 0, the only row that pays: before paying out of it. */
    async gatherSystem(system: SystemAccount, currency: Currency): Promise<void> {
      await sweep({ system }, currency);
    },

    /**
     * Resolves (and creates) the accounts once, outside any transaction, so transfers made inside one
     * find their ids remembered instead of looking each up again.
     */
    async warmAccounts(refs: AccountRef[]): Promise<void> {
      const missing = new Map<string, AccountRef>();
      for (const ref of refs) if (!accountIds.has(refKey(ref))) missing.set(refKey(ref), ref);
      // In one order, so two instances warming overlapping accounts at once cannot deadlock on the inserts.
      const users = [...missing.values()].filter((ref): ref is AccountRef & { userId: number } => 'userId' in ref)
        .sort((a, b) => a.userId - b.userId || a.currency.localeCompare(b.currency) || shardOf(a) - shardOf(b));
      if (users.length > 0) {
        // Users' accounts in two statements for the lot (a renewal batch names hundreds).
        await db.insert(ledgerAccounts).values(users.map((ref) => ({ userId: ref.userId, currency: ref.currency, shard: shardOf(ref) }))).onConflictDoNothing();
        const rows = await db.select({ id: ledgerAccounts.id, userId: ledgerAccounts.userId, currency: ledgerAccounts.currency, shard: ledgerAccounts.shard })
          .from(ledgerAccounts).where(inArray(ledgerAccounts.userId, [...new Set(users.map((ref) => ref.userId))]));
        for (const row of rows) {
          const key = refKey({ userId: row.userId!, currency: row.currency, shard: row.shard });
          if (missing.has(key)) accountIds.set(key, row.id);
        }
      }
      for (const ref of missing.values()) if (!('userId' in ref)) await accountId(db, ref);
    },

    /** A user's balances in every currency, receiving shards included (0 where no wallet exists yet). */
    async balances(userId: number, exec: Executor = db): Promise<Record<Currency, number>> {
      const rows = await exec.select({ currency: ledgerAccounts.currency, balance: ledgerAccounts.balance }).from(ledgerAccounts)
        .where(eq(ledgerAccounts.userId, userId));
      const balances = Object.fromEntries(CURRENCIES.map((c) => [c, 0])) as Record<Currency, number>;
      for (const row of rows) balances[row.currency] += Number(row.balance);
      return balances;
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
