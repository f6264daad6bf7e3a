/**
 * What a notification says and where it leads, the same in the bell, the mail and the push message.
 * Names are read when it is shown (a renamed broadcaster is shown by the new name).
 */
import type { NotificationKind } from '../../../common/api/notifications';
import { fill, MSG } from '../../../common/messages';
import { shownTitle } from '../../../common/rules/stream-display';
import type { NotificationData } from './tables';

export interface NotificationFacts {
  kind: NotificationKind;
  actorId: number | null;
  actorName: string;
  subjectId: number | null;
  data: NotificationData;
}

const when = (iso: string | undefined) => (iso ? iso.slice(0, 16).replace('T', ' ') : '');

/** A payout's step: requested, approved, paid; rejected, failed or returned with why, or cancelled: the coins back. */
function payoutText(data: NotificationData): string {
  const values = { amount: data.amount ?? 0, state: data.state ?? 'requested', reason: data.reason ?? '' };
  if (data.state === 'cancelled') return fill(MSG.notifyPayoutCancelled, values);
  return fill(data.reason ? MSG.notifyPayoutReturned : MSG.notifyPayout, values);
}

export function notificationText({ kind, actorName: name, data }: NotificationFacts): string {
  switch (kind) {
    case 'stream_live':
      return data.title ? fill(MSG.notifyStreamLive, { name, title: shownTitle(data.title) }) : fill(MSG.notifyStreamLiveUntitled, { name });
    case 'new_follower':
      return fill(MSG.notifyNewFollower, { name });
    case 'tip_received':
      return fill(MSG.notifyTipReceived, { name, amount: data.amount ?? 0 });
    case 'meeting_invitation':
      return fill(MSG.notifyMeetingInvitation, { name, title: data.title ?? '', when: when(data.when) });
    case 'subscription_renewal_failed':
      return fill(MSG.subscriptionRenewalFailedSubject, { name });
    case 'new_subscriber':
      return fill(MSG.notifyNewSubscriber, { name, title: data.title ?? '', amount: data.amount ?? 0 });
    case 'post_purchased':
      return fill(MSG.notifyPostPurchased, { name, title: data.title ?? '', amount: data.amount ?? 0 });
    case 'post_comment':
      return fill(MSG.notifyPostComment, { name, title: data.title ?? '' });
    case 'meeting_paid':
      return fill(MSG.notifyMeetingPaid, { name, title: data.title ?? '', amount: data.amount ?? 0 });
    case 'toy_purchased':
      return fill(MSG.notifyToyPurchased, { name, amount: data.amount ?? 0 });
    case 'payout_update':
      return payoutText(data);
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
    case 'new_subscriber':
      return `/u/${actorId}`;
    case 'post_purchased':
    case 'post_comment':
      return `/post/post-view?id=${subjectId}`;
    case 'meeting_paid':
      return `/streams/meeting-view?id=${subjectId}`;
    case 'toy_purchased':
      return '/user/account';
    case 'payout_update':
      return '/user/account/earnings';
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

/** The mail's first paragraph: the line of the bell, or the longer notice a failed renewal needs. */
export function mailText(facts: NotificationFacts): string {
  if (facts.kind !== 'subscription_renewal_failed') return notificationText(facts);
  return fill(MSG.subscriptionRenewalFailedText, { name: facts.actorName, price: facts.data.amount ?? 0, plan: facts.data.title ?? '' });
}
