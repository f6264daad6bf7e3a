/** What the meetings module says happened. */
declare module '../../platform/events' {
  interface DomainEvents {
    /** The host ended the call, or deleted it: its room is closed for good. */
    'meeting.ended': [{ meetingId: number }];
  }
}

export {};
