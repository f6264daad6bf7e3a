/**
 * The only writer of money (ARCHITECTURE §6). A transfer is one SQL statement: the transfer row (its
 * idempotency key unique), the balance changes and the entries commit together or not at all; a
 * wallet that would go below zero fails the statement through its CHECK, so nothing moves.
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { sqlState, type Db, type Executor } from '../../platform/db/client';
import { CURRENCIES, ledgerAccounts, ledgerTransfers, type Currency, type TransferKind } from './tables';

const CHECK_VIOLATION = '23514';
const DEADLOCK = '40P01';
const SERIALIZATION_FAILURE = '40001';

/** A user's wallet, or a system account (mint, fees, sales, card-payments). */
export type AccountRef = { userId: number; currency: Currency } | { system: SystemAccount; currency: Currency };
export type SystemAccount = 'mint' | 'fees' | 'sales' | 'card-payments';

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
}

export interface TransferOutcome {
  transferId: number;
  /** False when the key had moved money before: nothing moved this time. */
  created: boolean;
}

/** The payer's wallet cannot cover the transfer. */
export class InsufficientFunds extends Error {
  constructor() {
    super('Insufficient funds');
  }
}

const refKey = (ref: AccountRef) => ('userId' in ref ? `user:${ref.userId}:${ref.currency}` : `system:${ref.system}:${ref.currency}`);

/** Legs on one account become one amount; every currency must sum to zero. */
function netLegs(legs: Leg[]): Map<string, { ref: AccountRef; amount: number }> {
  const byAccount = new Map<string, { ref: AccountRef; amount: number }>();
  const perCurrency = new Map<Currency, number>();
  for (const { account, amount } of legs) {
    if (!Number.isSafeInteger(amount)) throw new Error(`ledger amounts are whole numbers (got ${amount})`);
    const key = refKey(account);
    byAccount.set(key, { ref: account, amount: (byAccount.get(key)?.amount ?? 0) + amount });
    perCurrency.set(account.currency, (perCurrency.get(account.currency) ?? 0) + amount);
  }
  for (const [currency, sum] of perCurrency) if (sum !== 0) throw new Error(`ledger legs in ${currency} sum to ${sum}, not zero`);
  return byAccount;
}

export function createLedger(deps: { db: Db }) {
  const { db } = deps;
  /** Account ids never change once created: resolved once per process. */
  const accountIds = new Map<string, number>();

  async function accountId(exec: Executor, ref: AccountRef): Promise<number> {
    const key = refKey(ref);
    const known = accountIds.get(key);
    if (known !== undefined) return known;
    const owner = 'userId' in ref ? { userId: ref.userId } : { system: ref.system };
    await exec.insert(ledgerAccounts).values({ ...owner, currency: ref.currency }).onConflictDoNothing();
    const where = 'userId' in ref
      ? and(eq(ledgerAccounts.userId, ref.userId), eq(ledgerAccounts.currency, ref.currency))
      : and(eq(ledgerAccounts.system, ref.system), eq(ledgerAccounts.currency, ref.currency), isNull(ledgerAccounts.userId));
    const [row] = await exec.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(where);
    accountIds.set(key, row!.id);
    return row!.id;
  }

  async function existing(exec: Executor, idempotencyKey: string): Promise<number | null> {
    const [row] = await exec.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, idempotencyKey));
    return row?.id ?? null;
  }

  async function transferOnce(exec: Executor, request: TransferRequest): Promise<TransferOutcome> {
    const legs = [...netLegs(request.legs).values()].filter((l) => l.amount !== 0);
    // One at a time: inside a transaction the queries share one connection.
    const ids: number[] = [];
    for (const leg of legs) ids.push(await accountId(exec, leg.ref));
    const values = sql.join(legs.map((l, i) => sql`(${ids[i]}::bigint, ${l.amount}::bigint)`), sql`, `);
    const statement: SQL = sql`
      with t as (
        insert into ${ledgerTransfers} (kind, idempotency_key, from_user_id, to_user_id, stream_id, amount, currency, details)
        values (${request.kind}, ${request.idempotencyKey}, ${request.fromUserId ?? null}, ${request.toUserId ?? null},
          ${request.streamId ?? null}, ${request.amount}, ${request.currency}, ${JSON.stringify(request.details ?? {})}::jsonb)
        on conflict (idempotency_key) do nothing
        returning id
      ),
      legs (account_id, amount) as (values ${values}),
      moved as (
        update ${ledgerAccounts} a set balance = a.balance + legs.amount
        from legs, t where a.id = legs.account_id
        returning a.id
      ),
      entries as (
        insert into ledger_entries (transfer_id, account_id, amount)
        select t.id, legs.account_id, legs.amount from t, legs
        returning 1
      )
      select (select id from t) as id, (select count(*) from moved)::int as moved, (select count(*) from entries)::int as entries`;
    const result = await exec.execute(statement);
    const row = result.rows[0] as { id: string | number | null } | undefined;
    if (row?.id !== null && row?.id !== undefined) return { transferId: Number(row.id), created: true };
    const earlier = await existing(exec, request.idempotencyKey);
    if (earlier === null) throw new Error('transfer neither written nor found');
    return { transferId: earlier, created: false };
  }

  return {
    /**
     * Moves money. Retrying with the same idempotency key answers the first transfer and moves
     * nothing. Throws InsufficientFunds when a wallet would go below zero.
     */
    async transfer(request: TransferRequest, exec: Executor = db): Promise<TransferOutcome> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await transferOnce(exec, request);
        } catch (error) {
          const state = sqlState(error);
          if (state === CHECK_VIOLATION) throw new InsufficientFunds();
          // Two transfers locking the same wallets in opposite order: one is chosen to fail; run it again.
          const retriable = (state === DEADLOCK || state === SERIALIZATION_FAILURE) && exec === db && attempt < 5;
          if (!retriable) throw error;
        }
      }
    },

    /** A user's balances in every currency (0 where no wallet exists yet). */
    async balances(userId: number, exec: Executor = db): Promise<Record<Currency, number>> {
      const rows = await exec.select({ currency: ledgerAccounts.currency, balance: ledgerAccounts.balance }).from(ledgerAccounts)
        .where(eq(ledgerAccounts.userId, userId));
      const balances = Object.fromEntries(CURRENCIES.map((c) => [c, 0])) as Record<Currency, number>;
      for (const row of rows) balances[row.currency] = Number(row.balance);
      return balances;
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
