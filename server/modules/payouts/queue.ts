/**
 * The operator's queue (decision 0061): payout requests oldest first, each with the creator's earnings,
 * what they were paid before, whether they are held (an open dispute or a debt: `canWithdraw` is false)
 * and where the money goes.
 */
import { asc, inArray, isNotNull } from 'drizzle-orm';
import { OPEN_PAYOUT_STATES, type ConsolePayout, type PAYOUT_FILTERS } from '../../../common/api/payouts';
import type { Db } from '../../platform/db/client';
import type { AccountsService } from '../accounts';
import { payoutPosition, type Ledger } from '../ledger';
import { shownMethod } from './methods';
import { markFailedAfter } from './processor-payouts';
import { requestOut, type PayoutRequests } from './requests';
import { payoutMethods, payoutRequests } from './tables';

export function createPayoutQueue(deps: { db: Db; ledger: Pick<Ledger, 'holdOf'>; accounts: Pick<AccountsService, 'publicUsers'>; requests: Pick<PayoutRequests, 'totals'>; holdSeconds: number }) {
  const { db } = deps;
  return async function list(filter: (typeof PAYOUT_FILTERS)[number], limit: number): Promise<ConsolePayout[]> {
    const which = filter === 'attention' ? isNotNull(payoutRequests.attention) : inArray(payoutRequests.state, filter === 'open' ? [...OPEN_PAYOUT_STATES] : [filter]);
    const rows = await db.select().from(payoutRequests).where(which).orderBy(asc(payoutRequests.id)).limit(limit);
    const userIds = [...new Set(rows.map((r) => r.userId))];
    if (userIds.length === 0) return [];
    const [people, totals, methods] = await Promise.all([
      deps.accounts.publicUsers(userIds),
      deps.requests.totals(userIds),
      db.select().from(payoutMethods).where(inArray(payoutMethods.userId, userIds)),
    ]);
    const standing = new Map(await Promise.all(userIds.map(async (id) => [id, {
      hold: await deps.ledger.holdOf(id), position: await payoutPosition(db, id, deps.holdSeconds),
    }] as const)));
    const methodOf = new Map(methods.map((m) => [m.userId, m]));
    return rows.map((row) => {
      const { hold, position } = standing.get(row.userId)!;
      return {
        ...requestOut(row),
        user: { user_id: row.userId, username: people.get(row.userId)?.username ?? '' },
        on_hold: hold.held,
        coins_owed: hold.owedCoins,
        open_disputes: hold.open.length,
        earnings: { earned_total: position.matured + position.pending, pending: position.pending, available: position.available, paid_out: totals.get(row.userId)?.paidOut ?? 0 },
        payee: shownMethod(methodOf.get(row.userId) ?? null),
        batch_id: row.batchId,
        mark_failed_after: markFailedAfter(row)?.toISOString() ?? null,
        attention: row.attention,
      };
    });
  };
}
