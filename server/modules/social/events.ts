/** What the social module says happened. */
declare module '../../platform/events' {
  interface DomainEvents {
    /**
     * Someone started following someone (not a change of the bell on an existing follow), written to the
     * event outbox with the follow; `at` (ISO, the follow's creation) keys the followee's notice.
     */
    'social.followed': [{ followerId: number; followeeId: number; at: string }];
  }
}

export {};
