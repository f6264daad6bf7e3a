/**
 * Where the coins are: every CON account's balance by owner (a user's id, or a system account's name),
 * receiving shards summed. Money tests compare two readings: what a payer lost, others gained, and the
 * mint (which issues coins) did not move.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';

export type CoinHoldings = Map<string, number>;

export async function coinHoldings(db: Executor): Promise<CoinHoldings> {
  const { rows } = await db.execute<{ owner: string; balance: string | number }>(sql`
    select coalesce(user_id::text, system) as owner, sum(balance)::bigint as balance from ledger_accounts where currency = 'CON' group by 1`);
  return new Map(rows.map((r) => [r.owner, Number(r.balance)]));
}

/** How each owner's coins changed between two readings (owners whose coins did not change are left out). */
export function coinChanges(before: CoinHoldings, after: CoinHoldings): Record<string, number> {
  const changes: Record<string, number> = {};
  for (const owner of new Set([...before.keys(), ...after.keys()])) {
    const change = (after.get(owner) ?? 0) - (before.get(owner) ?? 0);
    if (change !== 0) changes[owner] = change;
  }
  return changes;
}
