import type { PayoutState } from '../../../common/api/payouts';

/** What the payouts module says happened, for the notifications that follow each step. */
declare module '../../platform/events' {
  interface DomainEvents {
    /** A payout request was made or changed state: written to the event outbox in the change's transaction. */
    'payout.changed': [{ requestId: number; userId: number; state: PayoutState; coins: number; reason: string | null }];
  }
}

export {};
