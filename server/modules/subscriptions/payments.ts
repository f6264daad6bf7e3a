/** How a subscription pays: its ledger legs, the keys of its charges, and the history line that records one. */
import type { HistoryEntry } from '../../../common/api/subscriptions';

/** The ledger key of a period's charge after the first: one charge per subscription and period, whoever runs it. */
export const renewalKey = (subscriptionId: number, periodNo: number) => `subscription:${subscriptionId}:period:${periodNo}`;

/** The ledger's legs of a subscription payment: the subscriber pays, the creator is paid less the platform's share. */
export { paymentLegs } from '../ledger';

export function historyRow(subscriptionId: number, category: HistoryEntry['category'], detail: string, transferId: number | null = null, at?: Date) {
  return { subscriptionId, category, detail, transferId, ...(at ? { createdAt: at } : {}) };
}

