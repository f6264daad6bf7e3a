/**
 * What a notification says and where it leads, the same in the bell, the mail and the push message.
 * Names are read when it is shown (a renamed broadcaster is shown by the new name).
 */
import type { NotificationKind } from '../../../common/api/notifications';
import { fill, MSG } from '../../../common/messages';
import type { NotificationData } from './tables';

export interface NotificationFacts {
  kind: NotificationKind;
  actorId: number | null;
  actorName: string;
  subjectId: number | null;
  data: NotificationData;
}

const when = (iso: string | undefined) => (iso ? iso.slice(0, 16).replace('T', ' ') : '');

export function notificationText({ kind, actorName: name, data }: NotificationFacts): string {
  switch (kind) {
    case 'stream_live':
      return data.title ? fill(MSG.notifyStreamLive, { name, title: data.title }) : fill(MSG.notifyStreamLiveUntitled, { name });
    case 'new_follower':
      return fill(MSG.notifyNewFollower, { name });
    case 'tip_received':
      return fill(MSG.notifyTipReceived, { name, amount: data.amount ?? 0 });
    case 'meeting_invitation':
      return fill(MSG.notifyMeetingInvitation, { name, title: data.title ?? '', when: when(data.when) });
    case 'subscription_renewal_failed':
      return fill(MSG.notifySubscriptionRenewalFailed, { name });
  }
}

/** A path of the reader's skin (without its prefix). */
export function notificationLink({ kind, actorId, subjectId }: NotificationFacts): string {
  switch (kind) {
    case 'stream_live':
      return `/streams/stream-view?id=${subjectId}`;
    case 'new_follower':
      return `/u/${actorId}`;
    case 'tip_received':
      return '/user/account';
    case 'meeting_invitation':
      return `/streams/meeting-view?id=${subjectId}`;
    case 'subscription_renewal_failed':
      return '/user/account/deposit-coins';
  }
}

/**
 * Where the mail leads: the spec's landing page for a new follower (follow back with the bell, or the
 * profile when signed in), the notification's own place otherwise.
 */
export function mailLink(facts: NotificationFacts): string {
  return facts.kind === 'new_follower' ? `/user/notifications/follow?id=${facts.actorId}` : notificationLink(facts);
}

export function mailSubject(facts: NotificationFacts): string {
  return facts.kind === 'meeting_invitation' ? fill(MSG.meetingInviteSubject, { name: facts.actorName }) : notificationText(facts);
}
