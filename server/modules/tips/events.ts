/** What the tips module says happened. */
declare module '../../platform/events' {
  interface DomainEvents {
    /** A tip committed (published once, by the request that moved the coins). */
    'tip.received': [{
      transferId: number;
      streamId: number;
      ownerId: number;
      tipperId: number;
      amount: number;
      at: Date;
      /** The tipper's public name and avatar when the tip's statement read them. */
      tipper?: { username: string; fullname: string; avatar: string | null };
      /** What the tipper wrote with the tip, if anything (kept in the transfer's details). */
      message?: string | undefined;
    }];
  }
}

export {};
