/**
 * Holds on spending (decision 0057). A user is held while they owe coins (their debt account is below
 * zero) or while a hold is open on them (a dispute of one of their deposits). The ledger decides it in
 * the statement of every transfer: a transfer that takes coins out of a held user's wallet moves
 * nothing and answers AccountOnHold. Take-backs (refunds and disputes) and sweeps of the user's own
 * receiving shards are not spending and go through. A payout asks the same rule (`holdOf`).
 */
import { and, asc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { AppError } from '../../platform/http/errors';
import type { Executor } from '../../platform/db/client';
import { DEBT_PREFIX, debtAccountName, ledgerAccounts, ledgerHolds, type TransferKind } from './tables';
import type { TransferRequest } from './service';

/** A transfer refused because the payer's wallet is on hold: answered 403 `wallet_on_hold` wherever it is not caught. */
export class AccountOnHold extends AppError {
  constructor() {
    super('wallet_on_hold');
  }
}

/** Kinds that take coins out of a held wallet without being spending: coins taken back, shards swept home. */
const NOT_SPENDING: ReadonlySet<TransferKind> = new Set(['refund', 'sweep']);

/** The users whose wallets the transfer spends from (their shard 0 debited): none for a take-back or a sweep. */
export function spendersOf(request: Pick<TransferRequest, 'kind' | 'legs'>): number[] {
  if (NOT_SPENDING.has(request.kind)) return [];
  const spenders = new Set<number>();
  for (const { account, amount } of request.legs) {
    if (amount < 0 && 'userId' in account && (account.shard ?? 0) === 0) spenders.add(account.userId);
  }
  return [...spenders];
}

/** True (as SQL) when the user (a bigint expression) is held: an open hold, or a debt. */
export const heldSql = (userId: SQL) => sql`(
  exists (select 1 from ${ledgerHolds} h where h.user_id = ${userId} and h.released_at is null)
  or exists (select 1 from ${ledgerAccounts} d where d.system = ${DEBT_PREFIX} || ${userId}::text and d.currency = 'CON' and d.shard = 0 and d.balance < 0))`;

export interface Hold {
  held: boolean;
  /** Coins the user owes (0 when none). */
  owedCoins: number;
  /** The open holds' references and when each opened. */
  open: Array<{ reference: string; openedAt: Date }>;
}

export function ledgerHoldsOf(db: Executor) {
  return {
    /** Opens a hold on the user, once per reference (a replay changes nothing). */
    async openHold(userId: number, reference: string, exec: Executor = db): Promise<void> {
      await exec.insert(ledgerHolds).values({ userId, reference }).onConflictDoNothing();
    },

    /** Releases the hold of this reference, if open. */
    async releaseHold(reference: string, exec: Executor = db): Promise<void> {
      await exec.update(ledgerHolds).set({ releasedAt: new Date() }).where(and(eq(ledgerHolds.reference, reference), isNull(ledgerHolds.releasedAt)));
    },

    /**
     * Coins the user owes; `lock` takes the debt account's row lock, so two deposits paying it at once
     * queue instead of both paying the same debt.
     */
    async debtOf(userId: number, exec: Executor = db, lock = false): Promise<number> {
      const rows = await exec.execute<{ balance: string | number }>(sql`
        select balance from ${ledgerAccounts} where system = ${debtAccountName(userId)} and currency = 'CON' and shard = 0 ${lock ? sql`for update` : sql``}`);
      return 0 - Number(rows.rows[0]?.balance ?? 0);
    },

    /** Whether the user may spend and withdraw, and why not. */
    async holdOf(userId: number, exec: Executor = db): Promise<Hold> {
      const [owedCoins, open] = [
        0 - Number((await exec.select({ balance: ledgerAccounts.balance }).from(ledgerAccounts)
          .where(and(eq(ledgerAccounts.system, debtAccountName(userId)), eq(ledgerAccounts.currency, 'CON'), eq(ledgerAccounts.shard, 0))))[0]?.balance ?? 0),
        await exec.select({ reference: ledgerHolds.reference, openedAt: ledgerHolds.openedAt }).from(ledgerHolds)
          .where(and(eq(ledgerHolds.userId, userId), isNull(ledgerHolds.releasedAt))).orderBy(asc(ledgerHolds.openedAt)),
      ];
      return { held: owedCoins > 0 || open.length > 0, owedCoins, open };
    },

    /** Every held user: what each owes and their open holds, oldest first. */
    async heldUsers(exec: Executor = db): Promise<Array<{ userId: number; owedCoins: number; openSince: Date | null }>> {
      const debts = await exec.select({ system: ledgerAccounts.system, balance: ledgerAccounts.balance }).from(ledgerAccounts)
        .where(and(sql`${ledgerAccounts.system} like ${`${DEBT_PREFIX}%`}`, eq(ledgerAccounts.currency, 'CON'), lt(ledgerAccounts.balance, 0)));
      const open = await exec.select({ userId: ledgerHolds.userId, since: sql<string>`min(${ledgerHolds.openedAt})` }).from(ledgerHolds)
        .where(isNull(ledgerHolds.releasedAt)).groupBy(ledgerHolds.userId);
      const users = new Map<number, { userId: number; owedCoins: number; openSince: Date | null }>();
      for (const d of debts) {
        const userId = Number(d.system!.slice(DEBT_PREFIX.length));
        users.set(userId, { userId, owedCoins: 0 - Number(d.balance), openSince: null });
      }
      for (const o of open) {
        const entry = users.get(o.userId) ?? { userId: o.userId, owedCoins: 0, openSince: null };
        entry.openSince = new Date(o.since);
        users.set(o.userId, entry);
      }
      return [...users.values()];
    },
  };
}
