/** What the accounts module says happened. */
declare module '../../platform/events' {
  interface DomainEvents {
    /**
     * An account was deleted by its owner (committed: archived, renamed, sessions ended), written to the
     * event outbox with the deletion. Each module removes what it keeps for the person, idempotently; the
     * ledger keeps everything (docs/architecture.md §9).
     */
    'account.deleted': [{ userId: number }];
  }
}

export {};
