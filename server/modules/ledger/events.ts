/** What the books say happened, for modules that sell something through them. */
declare module '../../platform/events' {
  interface DomainEvents {
    /**
     * A user paid another for something other than a tip on a stream (which is `tip.received`): a first
     * subscription period, a post, a video call's fee, toy access. Written in the payment's transaction to
     * the event outbox, so it follows the commit at least once; `transferId` keys whatever it causes.
     */
    'payment.received': [{
      kind: 'subscription' | 'post_purchase' | 'meeting_fee' | 'toy_tip';
      transferId: number;
      payerId: number;
      payeeId: number;
      amount: number;
      /** The subscription, post, meeting or toy access paid for. */
      subjectId: number;
      /** The plan's, post's or call's name, when it has one. */
      title?: string;
    }];
  }
}

export {};
