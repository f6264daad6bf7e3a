/** What the tips module says happened. */
declare module '../../platform/events' {
  interface DomainEvents {
    /**
     * A tip committed. Written to the event outbox by the tip's own statement (its notice follows at least
     * once), and emitted at once by the request that moved the coins (the TIP frame, the balance), with
     * what only that request knows: the tipper's name and the message.
     */
    'tip.received': [{
      transferId: number;
      streamId: number;
      ownerId: number;
      tipperId: number;
      amount: number;
      /** ISO. */
      at: string;
      /** The tipper's public name and avatar when the tip's statement read them (the emit only). */
      tipper?: { username: string; fullname: string; avatar: string | null };
      /** What the tipper wrote with the tip, if anything (kept in the transfer's details; the emit only). */
      message?: string | undefined;
      /** The tip menu's action the tip bought, if any (kept in the transfer's details; the emit only). */
      menuItem?: string | undefined;
    }];
  }
}

export {};
