/** What the wallet says happened, for whatever follows a deposit. */
declare module '../../platform/events' {
  interface DomainEvents {
    /**
     * A deposit's coins were credited (any provider, any path): written in its settlement's transaction
     * to the event outbox; the receipt is mailed from it, once per payment.
     */
    'deposit.credited': [{ paymentId: number }];
  }
}

export {};
