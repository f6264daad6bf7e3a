/** What the social module says happened. */
declare module '../../platform/events' {
  interface DomainEvents {
    /** Someone started following someone (not a change of the bell on an existing follow). */
    'social.followed': [{ followerId: number; followeeId: number }];
  }
}

export {};
