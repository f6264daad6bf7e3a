/** What the meetings module says happened. */
declare module '../../platform/events' {
  interface DomainEvents {
    /** The host ended the call, or deleted it: its room is closed for good. */
    'meeting.ended': [{ meetingId: number }];
    /** People were invited to a call (on creation or when the host added them), written to the event outbox; `startTime` is ISO. */
    'meeting.invited': [{ meetingId: number; hostId: number; userIds: number[]; title: string; startTime: string }];
  }
}

export {};
