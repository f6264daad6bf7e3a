/**
 * Several transfers in one statement (decision 0033): what concurrent payments cost the database is
 * mostly per statement and per commit — the round trip, the plan's start, the commit's WAL flush, the
 * appends to the same index pages — so an instance writes the payments that arrive together as one.
 * Each transfer still stands alone: it moves money only when its own checks hold (its key unused, its
 * payer's wallet covers it, the caller's condition and guard), and a row that fails moves nothing
 * while the others go on. Rows must name distinct keys and distinct payers.
 */
import { sql, type SQL } from 'drizzle-orm';
import { heldSql, spendersOf } from './holds';
import { ledgerAccounts, ledgerTransfers } from './tables';
import type { TransferRequest } from './service';
import { integerArray } from '../../platform/db/arrays';

/** One transfer of a batch: the request, its legs' account ids, and the values the caller's SQL reads as `p.<name>`. */
export interface BatchRow {
  request: TransferRequest;
  legs: Array<{ accountId: number; amount: number }>;
  values: Record<string, number | string | boolean | null>;
}

export interface BatchOptions {
  /** The caller's per-row values and their SQL types (`p.<name>` in the SQL below). */
  columns: Record<string, 'bigint' | 'boolean' | 'text'>;
  /** Whether a row may move money at all (over `p`), judged before `with`: e.g. the stream is open. */
  condition?: SQL;
  /**
   * Statements over `ready` (the rows whose key is unused, whose payer can pay and whose condition
   * holds), by name, e.g. throttle tokens taken; the guard may read them.
   */
  with?: Record<string, SQL>;
  /** Whether a ready row moves money now (over `ready`). */
  guard?: SQL;
  /** Per-row reads (over `p`), answered as of before the batch. */
  select?: Record<string, SQL>;
  /**
   * Statements run with the transfers, by name, in the same statement (so in its transaction), reading
   * `done` (`i`, the new transfer's `id`) joined to `ok` (the rows that moved money): e.g. their domain
   * events written to the event outbox.
   */
  after?: Record<string, SQL>;
}

export interface BatchRowOutcome {
  /** The key had moved money before: nothing done (the caller answers the first transfer). */
  replay: boolean;
  /**
   * The payer's wallet (shard 0) held enough, read under its lock, and is not on hold (decision 0057;
   * a held payer's row goes alone, where the single transfer answers AccountOnHold).
   */
  covered: boolean;
  /** Key unused, covered and the condition held. */
  ready: boolean;
  /** Ready and the guard held. */
  allowed: boolean;
  /** The transfer written now; null when the row moved nothing. */
  transferId: number | null;
  selected: Record<string, unknown>;
}

export interface BatchOutcome {
  rows: BatchRowOutcome[];
  /** New balances of the accounts the batch moved, by account id. */
  balanceAfter: Map<number, number>;
}

const REQUEST_COLUMNS = sql.raw(`i int, kind text, idempotency_key text, from_user_id bigint, to_user_id bigint, stream_id bigint,
  amount bigint, currency text, details jsonb, booked_at timestamptz, spender bigint`);

/**
 * The batch as one statement, built once per kind of batch: its rows, legs and accounts are the
 * placeholders `requests`, `legs` and `accounts` (`values` fills them), so its text is the same for
 * every batch and stays one prepared statement.
 */
export function transferBatchStatement(options: BatchOptions): {
  statement: SQL;
  values(rows: BatchRow[]): Record<'requests' | 'legs' | 'accounts', string>;
  read(result: { rows: unknown[] }): BatchOutcome;
} {
  const columnNames = Object.keys(options.columns);
  const extraColumns = columnNames.map((name) => sql`, ${sql.identifier(name)} ${sql.raw(options.columns[name]!)}`);
  const prelude = Object.entries(options.with ?? {}).map(([name, body]) => sql`${sql.identifier(name)} as (${body}),`);
  const epilogue = Object.entries(options.after ?? {}).map(([name, body]) => sql`, ${sql.identifier(name)} as (${body})`);
  const extras = Object.entries(options.select ?? {});
  const extraSelect = extras.map(([name, expr]) => sql`, (${expr}) as ${sql.identifier(name)}`);
  const requestsJson = sql.placeholder('requests');
  const legsJson = sql.placeholder('legs');
  const accountIds = sql.placeholder('accounts');

  // The accounts are locked first, all of them in the one global order (newest id first, as a single
  // transfer does), and each payer's balance is read from its locked row: exact however the batch runs.
  // Everything else reads the statement's snapshot, before any of the batch's transfers. The plan is
  // cached generic, blind to how many rows the JSON holds: accounts are found by `id = any(array)` and
  // keys by a correlated lookup with a limit, so neither becomes a scan of its whole table.
  const statement = sql`
    with req as materialized (
      select * from jsonb_to_recordset(${requestsJson}::jsonb) as r(${REQUEST_COLUMNS}${sql.join(extraColumns, sql``)})
    ),
    legs as materialized (select * from jsonb_to_recordset(${legsJson}::jsonb) as l(i int, account_id bigint, amount bigint)),
    locked as materialized (
      select a.id, a.balance from ${ledgerAccounts} a where a.id = any(${accountIds}::bigint[]) order by a.id desc for update
    ),
    p as materialized (
      select r.*,
        coalesce((select true from ${ledgerTransfers} x where x.idempotency_key = r.idempotency_key limit 1), false) as replay,
        not exists (select 1 from legs l join locked k on k.id = l.account_id where l.i = r.i and l.amount < 0 and k.balance + l.amount < 0)
          and not (r.spender is not null and ${heldSql(sql`r.spender`)}) as covered
      from req r
    ),
    ready as materialized (select p.* from p where not p.replay and p.covered and (${options.condition ?? sql`true`})),
    ${sql.join(prelude, sql` `)}
    ok as materialized (select ready.* from ready where ${options.guard ?? sql`true`}),
    t as (
      insert into ${ledgerTransfers} (kind, idempotency_key, from_user_id, to_user_id, stream_id, amount, currency, details, created_at)
      select kind, idempotency_key, from_user_id, to_user_id, stream_id, amount, currency, details, coalesce(booked_at, now()) from ok order by i
      on conflict (idempotency_key) do nothing
      returning id, idempotency_key
    ),
    done as materialized (select ok.i, t.id from t join ok using (idempotency_key)),
    moved as (
      update ${ledgerAccounts} a set balance = a.balance + s.amount
      from (select l.account_id, sum(l.amount)::bigint as amount from legs l join done using (i) group by l.account_id) s
      where a.id = any(${accountIds}::bigint[]) and a.id = s.account_id
      returning a.id, a.balance
    ),
    entries as (
      insert into ledger_entries (transfer_id, account_id, amount)
      select done.id, l.account_id, l.amount from done join legs l using (i) order by done.id
      returning 1
    ) ${sql.join(epilogue, sql` `)}
    select p.i, done.id as transfer_id, p.replay, p.covered, exists (select 1 from ready where ready.i = p.i) as ready,
      exists (select 1 from ok where ok.i = p.i) as allowed${sql.join(extraSelect, sql``)},
      (select count(*) from entries)::int as entries,
      (select json_agg(json_build_array(moved.id, moved.balance)) from moved) as balances
    from p left join done using (i) order by p.i`;

  return {
    statement,
    values(rows) {
      const keys = new Set(rows.map((r) => r.request.idempotencyKey));
      if (keys.size !== rows.length) throw new Error('a batch names each idempotency key once');
      return {
        requests: JSON.stringify(rows.map(({ request: r, values }, i) => ({
          ...values, i, kind: r.kind, idempotency_key: r.idempotencyKey, from_user_id: r.fromUserId ?? null, to_user_id: r.toUserId ?? null,
          stream_id: r.streamId ?? null, amount: r.amount, currency: r.currency, details: r.details ?? {}, booked_at: r.bookedAt?.toISOString() ?? null,
          spender: spendersOf(r)[0] ?? null,
        }))),
        legs: JSON.stringify(rows.flatMap(({ legs }, i) => legs.filter((l) => l.amount !== 0).map((l) => ({ i, account_id: l.accountId, amount: l.amount })))),
        accounts: integerArray([...new Set(rows.flatMap(({ legs }) => legs.map((l) => l.accountId)))]),
      };
    },
    read(result) {
      const answered = result.rows as Array<Record<string, unknown> & { i: number; transfer_id: string | number | null; replay: boolean; covered: boolean; ready: boolean; allowed: boolean; balances: Array<[number | string, number | string]> | null }>;
      const balanceAfter = new Map<number, number>();
      for (const [id, balance] of answered[0]?.balances ?? []) balanceAfter.set(Number(id), Number(balance));
      return {
        balanceAfter,
        rows: answered.map((row) => ({
          replay: row.replay,
          covered: row.covered,
          ready: row.ready,
          allowed: row.allowed,
          transferId: row.transfer_id === null || row.transfer_id === undefined ? null : Number(row.transfer_id),
          selected: Object.fromEntries(extras.map(([name]) => [name, row[name]])),
        })),
      };
    },
  };
}
