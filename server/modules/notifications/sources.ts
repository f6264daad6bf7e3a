/**
 * What becomes a notification: the domain events of other modules, delivered from the event outbox at
 * least once (decision 0052), each turned into a source with its own key so that an event delivered twice
 * notifies once. A go-live is queued for the fan-out job (a broadcaster with many followers must not slow
 * the go-live; the fan-out's key is the stream); tips by tip-notices.ts; the others notify one person, or a
 * few, at once in one statement.
 */
import type { Db } from '../../platform/db/client';
import type { DomainEventHub } from '../../platform/events';
import { notifyPeople, type Created, type NotificationSource } from './store';
import type { Fanout } from './fanout';
import type { TipNotices } from './tip-notices';

export function listenForNotifications(deps: {
  db: Db;
  events: DomainEventHub;
  fanout: Fanout;
  /** Runs the fan-out job on this instance now rather than at its next tick. */
  wakeFanout: () => void;
  tipNotices: TipNotices;
  /** After a notification committed: frames to open pages, and the delivery job woken. */
  created: (created: Created[]) => Promise<void>;
}) {
  const { db, events } = deps;
  const notify = async (source: NotificationSource, userIds: number[]) => deps.created(await notifyPeople(db, source, userIds));

  events.onDurable('stream.went-live', async (live) => {
    await deps.fanout.queueGoLive(db, live);
    deps.wakeFanout();
  });

  // A follow is news once: keyed by the follow (unfollowing and following again is a new follow).
  events.onDurable('social.followed', ({ followerId, followeeId, at }) =>
    notify({ kind: 'new_follower', actorId: followerId, subjectId: null, data: {}, dedupeKey: `new_follower:${followerId}:${at}` }, [followeeId]));

  events.onDurable('tip.received', ({ transferId, tipperId, ownerId, streamId, amount }) => deps.tipNotices({ transferId, ownerId, tipperId, streamId, amount }));

  events.onDurable('meeting.invited', ({ meetingId, hostId, userIds, title, startTime }) =>
    notify({ kind: 'meeting_invitation', actorId: hostId, subjectId: meetingId, data: { title, when: startTime }, dedupeKey: `meeting:${meetingId}` }, userIds));

  // A creator's sales and comments: keyed by transfer and comment.
  const SALE_KINDS = { subscription: 'new_subscriber', post_purchase: 'post_purchased', meeting_fee: 'meeting_paid', toy_tip: 'toy_purchased' } as const;
  events.onDurable('payment.received', ({ kind, transferId, payerId, payeeId, amount, subjectId, title }) =>
    notify({ kind: SALE_KINDS[kind], actorId: payerId, subjectId: kind === 'subscription' || kind === 'toy_tip' ? null : subjectId, data: { amount, ...(title ? { title } : {}) }, dedupeKey: `payment:${transferId}` }, [payeeId]));

  // Each step of a payout once; being handed to the bank or to Stripe is no news to the creator.
  events.onDurable('payout.changed', ({ requestId, userId, state, coins, reason }) => {
    if (state === 'exported' || state === 'sent') return;
    return notify({ kind: 'payout_update', actorId: null, subjectId: requestId, data: { amount: coins, state, ...(reason ? { reason } : {}) }, dedupeKey: `payout:${requestId}:${state}` }, [userId]);
  });

  events.onDurable('post.commented', ({ commentId, postId, authorId, ownerId, title }) =>
    notify({ kind: 'post_comment', actorId: authorId, subjectId: postId, data: { title }, dedupeKey: `comment:${commentId}` }, [ownerId]));

  // The key makes a second delivery notify nobody again.
  events.onDurable('subscription.changed', ({ reason, subscriptionId, subscriberId, creatorId, price, plan, at }) => {
    if (reason !== 'renewal-failed') return;
    // One notice per subscription and day, however often the renewal is tried that day.
    const day = (at ?? new Date().toISOString()).slice(0, 10);
    return notify({ kind: 'subscription_renewal_failed', actorId: creatorId, subjectId: subscriptionId, data: { amount: price, title: plan }, dedupeKey: `renewal_failed:${subscriptionId}:${day}` }, [subscriberId]);
  });
}
