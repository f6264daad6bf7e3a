/**
 * What the books say a creator may withdraw (decision 0061). Earnings (credits of earning transfers paid
 * to the user, net of fees) mature `holdSeconds` after they were booked, the chargeback window. Coins a
 * payout took out of the wallet (net of payouts that came back) are withdrawn. What is available is the
 * matured earnings not yet withdrawn, and never more than the wallet holds beyond the earnings still in
 * the hold: coins spent are taken from what was withdrawable first.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { COALESCED_READS, createBatcher } from '../../platform/batching';
import type { Executor } from '../../platform/db/client';
import { preparedStatement } from '../../platform/db/prepared';
import { EARNING_KINDS } from '../../../common/rules/transfer-kinds';
import { ledgerAccounts, ledgerEntries, ledgerTransfers } from './tables';
import { integerArray } from '../../platform/db/arrays';

export interface PayoutPosition {
  /** Earned and past the hold. */
  matured: number;
  /** Earned within the hold. */
  pending: number;
  /** Taken out by payout requests, less what came back. */
  withdrawn: number;
  /** The wallet's coins, receiving shards included. */
  balance: number;
  /** The platform's fees taken on the user's earnings. */
  feesTaken: number;
  /** Withdrawable now. */
  available: number;
}

const earningKinds = sql.raw(EARNING_KINDS.map((kind) => `'${kind}'`).join(', '));

/** The user's own coin-wallet movements per transfer, and those of them that are earnings. */
const earnedSql = (userId: number) => sql`
  mine as (
    select e.transfer_id, sum(e.amount)::bigint as amount from ${ledgerEntries} e join ${ledgerAccounts} a on a.id = e.account_id
    where a.user_id = ${userId} and a.currency = 'CON' group by e.transfer_id),
  earned as (
    select t.id, t.created_at, m.amount from mine m join ${ledgerTransfers} t on t.id = m.transfer_id
    where t.to_user_id = ${userId} and t.kind in (${earningKinds}) and m.amount > 0)`;

type Num = string | number | null;

export async function payoutPosition(exec: Executor, userId: number, holdSeconds: number, now = new Date()): Promise<PayoutPosition> {
  const cutoff = new Date(now.getTime() - holdSeconds * 1000).toISOString();
  const { rows } = await exec.execute<{ matured: Num; pending: Num; withdrawn: Num; balance: Num; fees: Num }>(sql`
    with ${earnedSql(userId)}
    select
      (select sum(amount) from earned where created_at <= ${cutoff}::timestamptz)::bigint as matured,
      (select sum(amount) from earned where created_at > ${cutoff}::timestamptz)::bigint as pending,
      (select -sum(m.amount) from mine m join ${ledgerTransfers} t on t.id = m.transfer_id where t.kind = 'payout')::bigint as withdrawn,
      (select sum(balance) from ${ledgerAccounts} where user_id = ${userId} and currency = 'CON')::bigint as balance,
      (select sum(fe.amount) from ${ledgerEntries} fe join ${ledgerAccounts} fa on fa.id = fe.account_id
        where fe.transfer_id in (select id from earned) and fa.system = 'fees')::bigint as fees`);
  const row = rows[0]!;
  const [matured, pending, withdrawn, balance, feesTaken] = [row.matured, row.pending, row.withdrawn, row.balance, row.fees].map((v) => Number(v ?? 0)) as [number, number, number, number, number];
  const available = Math.max(0, Math.min(matured - withdrawn, balance - pending));
  return { matured, pending, withdrawn, balance, feesTaken, available };
}

/**
 * Whether the user was ever paid an earning. Without one nothing is, or will become, withdrawable:
 * matured and pending earnings are 0, and payouts take out only what earnings made withdrawable, so
 * nothing is available and nothing matures (the next withdraw date is null). One probe of the partial
 * index `ledger_transfers_earned_idx`, a prepared statement, instead of the user's whole history: what
 * every signed-in page's session user asks of everyone who never earned (decision 0068).
 */
export function earnedProbe(exec: Executor): (userId: number) => Promise<boolean> {
  const probe = preparedStatement(
    exec.select({ one: sql<number>`1` }).from(ledgerTransfers)
      .where(and(eq(ledgerTransfers.toUserId, sql.placeholder('id')), inArray(ledgerTransfers.kind, [...EARNING_KINDS]))).limit(1),
    'ledger_has_earned',
  );
  return async (userId) => (await probe({ id: userId })).length > 0;
}

/**
 * A token of the user's coin wallet as it stands: its accounts and their row versions (`xmin`). Every
 * movement changes the balance of one of them, so a committed movement changes the token, and whatever is
 * read from the books after the token is at least as new as it. Null when the user has no coin wallet
 * (nothing ever moved). One prepared statement over the users' few account rows.
 */
export function walletVersion(exec: Executor): (userId: number) => Promise<string | null> {
  const read = preparedStatement(
    exec.select({
      version: sql<string | null>`(select string_agg(a.id::text || ':' || a.xmin::text, ',' order by a.id) from ${ledgerAccounts} a
        where a.user_id = asked.id and a.currency = 'CON')`,
    }).from(sql`unnest(${sql.placeholder('ids')}::bigint[]) with ordinality as asked(id, at)`).orderBy(sql`asked.at`),
    'ledger_wallet_versions',
  );
  // Every signed-in page asks it: the versions of the pages asked together are read together (decision 0078).
  const versions = createBatcher<number, string | null>({ ...COALESCED_READS, run: async (ids) => (await read({ ids: integerArray(ids) })).map((row) => row.version) });
  return (userId) => versions.submit(userId);
}

/**
 * When the earnings in the hold will have made `needed` more coins withdrawable: the booking time of the
 * earning that reaches it, plus the hold; null when the earnings in the hold do not reach it.
 */
export async function maturesEnoughAt(exec: Executor, userId: number, holdSeconds: number, needed: number, now = new Date()): Promise<Date | null> {
  const cutoff = new Date(now.getTime() - holdSeconds * 1000).toISOString();
  const { rows } = await exec.execute<{ at: string | Date | null }>(sql`
    with ${earnedSql(userId)}
    select min(created_at) as at from (
      select created_at, sum(amount) over (order by created_at, id) as reached from earned where created_at > ${cutoff}::timestamptz) r
    where reached >= ${needed}`);
  const at = rows[0]?.at;
  return at ? new Date(new Date(at).getTime() + holdSeconds * 1000) : null;
}

/**
 * Locks the user's coin wallet row (shard 0) in the caller's transaction, so that what is withdrawable is
 * read and taken out by one payout at a time, while spending waits.
 */
export async function lockWallet(exec: Executor, userId: number): Promise<void> {
  await exec.execute(sql`select 1 from ${ledgerAccounts} where user_id = ${userId} and currency = 'CON' and shard = 0 for update`);
}
