/**
 * Grants (decision 0036): the only coins issued without money paid in. An operator gives a user coins
 * from the mint, with a reason; the transfer and its audit entry commit together, and the grants of a
 * calendar month (UTC) never exceed the installation's budget (GRANT_BUDGET_COINS). The conservation
 * check counts a debit of the mint as a grant only when its audit entry is there.
 */
import { and, eq, gte, sql } from 'drizzle-orm';
import type { AuditAction } from '../../../common/console';
import { recordAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import type { Ledger } from './service';
import { ledgerAccounts, ledgerTransfers } from './tables';

/** The audit log's action for a grant; its `after` names the transfer. */
export const GRANT_AUDIT_ACTION: AuditAction = 'coins.grant';
const MAX_REASON = 500;

/** A grant the rules refuse: the message says why, for the operator. */
export class GrantRefused extends Error {}

export interface GrantRequest {
  userId: number;
  coins: number;
  reason: string;
  /** The operator; null for the command line. */
  actorId: number | null;
  /** Unique per grant: retrying the same grant moves nothing more. */
  key: string;
}

const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

export function createGrants(deps: { db: Db; ledger: Pick<Ledger, 'transfer' | 'warmAccounts'>; monthlyBudget: number; now?: () => Date }) {
  const { db, ledger, monthlyBudget } = deps;
  const now = deps.now ?? (() => new Date());

  /** Coins granted since the start of the month `at` falls in. */
  async function grantedThisMonth(exec: Pick<Db, 'select'>, at: Date): Promise<number> {
    const [row] = await exec.select({ n: sql<string | number>`coalesce(sum(${ledgerTransfers.amount}), 0)` }).from(ledgerTransfers)
      .where(and(eq(ledgerTransfers.kind, 'grant'), gte(ledgerTransfers.createdAt, monthStart(at))));
    return Number(row?.n ?? 0);
  }

  return {
    monthlyBudget,
    grantedThisMonth: () => grantedThisMonth(db, now()),

    /** Grants the coins, audited, within the month's budget; answers the transfer and what is left of the budget. */
    async grant(request: GrantRequest): Promise<{ transferId: number; created: boolean; budgetLeft: number }> {
      const reason = request.reason.trim();
      if (!Number.isSafeInteger(request.coins) || request.coins <= 0) throw new GrantRefused('A grant is a whole number of coins above zero.');
      if (reason.length === 0 || reason.length > MAX_REASON) throw new GrantRefused(`A grant needs a reason (up to ${MAX_REASON} characters).`);
      const mint = { system: 'mint' as const, currency: 'CON' as const };
      await ledger.warmAccounts([mint, { userId: request.userId, currency: 'CON' }]);
      return db.transaction(async (tx) => {
        // Grants queue on the mint's row, so two at once cannot both fit in what is left of the budget.
        await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts)
          .where(and(eq(ledgerAccounts.system, 'mint'), eq(ledgerAccounts.currency, 'CON'), eq(ledgerAccounts.shard, 0))).for('update');
        const at = now();
        const granted = await grantedThisMonth(tx, at);
        const idempotencyKey = `grant:${request.key}`;
        const [earlier] = await tx.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, idempotencyKey));
        if (earlier) return { transferId: earlier.id, created: false, budgetLeft: monthlyBudget - granted };
        if (granted + request.coins > monthlyBudget) {
          throw new GrantRefused(`This grant would exceed the monthly grant budget: ${granted} of ${monthlyBudget} coins granted this month, ${Math.max(0, monthlyBudget - granted)} left.`);
        }
        const { transferId } = await ledger.transfer({
          kind: 'grant',
          idempotencyKey,
          toUserId: request.userId,
          amount: request.coins,
          currency: 'CON',
          details: { reason },
          legs: [{ account: mint, amount: -request.coins }, { account: { userId: request.userId, currency: 'CON' }, amount: request.coins }],
        }, tx);
        await recordAudit(tx, {
          actorId: request.actorId, action: GRANT_AUDIT_ACTION, targetType: 'user', targetId: request.userId,
          after: { transfer_id: transferId, coins: request.coins, reason },
        });
        return { transferId, created: true, budgetLeft: monthlyBudget - granted - request.coins };
      });
    },
  };
}

export type Grants = ReturnType<typeof createGrants>;
