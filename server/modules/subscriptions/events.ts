/** What the subscriptions module says happened. */
declare module '../../platform/events' {
  interface DomainEvents {
    /**
     * A subscriber's relation to a creator changed (subscribed, cancelled, renewed, renewal failed, plan
     * withdrawn), written to the event outbox with the change: whatever depends on their benefits (the
     * priority chat, playback) checks them again.
     */
    'subscription.changed': [{ subscriptionId: number; subscriberId: number; creatorId: number; reason: 'subscribed' | 'cancelled' | 'renewed' | 'renewal-failed' | 'plan-deleted' | 'auto-renew-on';
      /** With a failed renewal: what it would have cost, the plan's name, and when it failed (ISO). */
      price?: number; plan?: string; at?: string }];
  }
}

export {};
