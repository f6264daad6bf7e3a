/**
 * What the payments table says about a deposit attempt (decision 0058): the payer's history for the
 * scorer, and the last 24 hours' use of the account, card and address for the limits. Read from the
 * rows every instance writes, so the limits hold across instances; no counter is kept in memory.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/client';
import { paymentEvents, payments } from '../tables';
import type { DepositHistory } from './scorer';
import type { DepositUsage } from './limits';

export const RISK_WINDOW_MS = 24 * 3600_000;

/** The parts of an attempt the reads need. */
export interface AttemptKeys {
  userId: number;
  cardKey: string | null;
  address: string | null;
}

const num = (value: unknown) => Number(value ?? 0);

export async function readHistory(db: Executor, keys: AttemptKeys, now: Date): Promise<DepositHistory> {
  const since = new Date(now.getTime() - RISK_WINDOW_MS);
  const { rows } = await db.execute<Record<string, unknown>>(sql`select
      (select count(*) from ${payments} where user_id = ${keys.userId} and status = 'succeeded') as succeeded,
      (select count(*) from ${payments} where user_id = ${keys.userId} and status in ('declined', 'failed') and created_at > ${since}) as refused_today,
      (select count(distinct e.subject_ref) from ${paymentEvents} e join ${payments} p on p.id = e.payment_id
        where p.user_id = ${keys.userId} and e.kind = 'dispute.opened') as disputes,
      (select count(distinct user_id) from ${payments} where ${keys.cardKey}::text is not null and card_key = ${keys.cardKey} and user_id <> ${keys.userId}) as card_accounts,
      (select count(distinct user_id) from ${payments} where ${keys.address}::text is not null and client_address = ${keys.address}
        and created_at > ${since} and user_id <> ${keys.userId}) as address_accounts`);
  const row = rows[0] ?? {};
  return {
    succeeded: num(row.succeeded),
    refusedToday: num(row.refused_today),
    disputes: num(row.disputes),
    otherAccountsOnCard: num(row.card_accounts),
    otherAccountsOnAddress: num(row.address_accounts),
  };
}

/** Under the gate's locks: the attempts (and the account's live amount) of the last 24 hours. */
export async function readUsage(tx: Executor, keys: AttemptKeys, now: Date): Promise<DepositUsage> {
  const since = new Date(now.getTime() - RISK_WINDOW_MS);
  const { rows } = await tx.execute<Record<string, unknown>>(sql`select
      (select count(*) from ${payments} where user_id = ${keys.userId} and created_at > ${since}) as account_attempts,
      (select coalesce(sum(amount), 0) from ${payments} where user_id = ${keys.userId} and created_at > ${since}
        and status in ('pending', 'succeeded')) as account_cents,
      (select count(*) from ${payments} where card_key = ${keys.cardKey} and created_at > ${since}) as card_attempts,
      (select count(*) from ${payments} where client_address = ${keys.address} and created_at > ${since}) as address_attempts`);
  const row = rows[0] ?? {};
  return {
    accountAttempts: num(row.account_attempts),
    accountCents: num(row.account_cents),
    cardAttempts: keys.cardKey === null ? null : num(row.card_attempts),
    addressAttempts: keys.address === null ? null : num(row.address_attempts),
  };
}
