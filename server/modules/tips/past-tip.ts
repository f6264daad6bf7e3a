/** A tip that happened in the past, as a ledger transfer: history brought in for demo data and tests. */
import type { TransferRequest } from '../ledger';

export interface PastTip {
  tipperId: number;
  creatorId: number;
  /** The stream it was given on, when it is known. */
  streamId: number | null;
  amount: number;
  at: Date;
  /** Unique per tip; the transfer's idempotency key is made of it. */
  key: string;
}

/** The transfer a tip made at `at` (no platform fee: the fee in force then is not known). */
export function pastTipTransfer(tip: PastTip): TransferRequest {
  return {
    kind: 'tip',
    idempotencyKey: `past-tip:${tip.tipperId}:${tip.key}`,
    fromUserId: tip.tipperId,
    toUserId: tip.creatorId,
    ...(tip.streamId === null ? {} : { streamId: tip.streamId }),
    amount: tip.amount,
    currency: 'CON',
    bookedAt: tip.at,
    legs: [
      { account: { userId: tip.tipperId, currency: 'CON' }, amount: -tip.amount },
      { account: { userId: tip.creatorId, currency: 'CON' }, amount: tip.amount },
    ],
  };
}
