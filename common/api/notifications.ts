/**
 * Notifications (spec part 1 §2 notification landing pages, §3 preferences; part 2 §7 settings).
 *
 * Something happened that a person wants to hear about — a followed broadcaster went live, a new
 * follower, a tip received, a meeting invitation, a subscription that could not be renewed. Each becomes
 * one in-app notification (the bell's list), pushed at once to the person's open pages over their user
 * channel (`NOTIFICATION`), and, as their preferences say, an e-mail with a signed unsubscribe link and
 * a Web Push message. A followed broadcaster going live notifies each follower at most once an hour.
 */
import { z } from 'zod';
import { UNREAD_COUNT_CAP } from '../constants';
import { MSG } from '../messages';
import { defineCall, success } from './define';
import { wholeNumber } from './fields';

export const NOTIFICATION_KINDS = [
  'stream_live', 'new_follower', 'tip_received', 'meeting_invitation', 'subscription_renewal_failed',
  // A creator's sales and their posts' comments.
  'new_subscriber', 'post_purchased', 'post_comment', 'meeting_paid', 'toy_purchased',
  // A creator's payout at each step (decision 0061).
  'payout_update',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Notifications a page of the list holds at most. */
export const NOTIFICATIONS_PAGE_MAX = 50;
/** Ids one read call may name. */
export const READ_IDS_MAX = 100;

export const notificationItem = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** What happened, in one line ("broadcaster1 is live: Evening set"). */
  text: z.string(),
  /** Where it leads, a path of the reader's skin ("/streams/stream-view?id=12"). */
  link: z.string(),
  /** Who did it (the broadcaster, follower, tipper, host or creator), when it was a person. */
  actor: z.object({ id: z.number(), username: z.string(), fullname: z.string(), avatar: z.string().nullable() }).nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const listNotifications = defineCall({
  method: 'GET',
  path: '/api/user/notifications',
  summary: `The caller's notifications, newest first, and how many are unread (counted up to ${UNREAD_COUNT_CAP})`,
  input: z.strictObject({
    limit: wholeNumber(1, NOTIFICATIONS_PAGE_MAX).optional(),
    /** The id of the last notification already shown: the next page starts after it. */
    before: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
  }),
  output: success({ notifications: z.array(notificationItem), unread: z.number(), has_more: z.boolean() }),
});

export const markNotificationsRead = defineCall({
  method: 'POST',
  path: '/api/user/notifications-read',
  summary: `Marks the named notifications read (or all of the caller's with all: true); answers the unread count (up to ${UNREAD_COUNT_CAP})`,
  input: z
    .strictObject({
      ids: z.array(wholeNumber(1, Number.MAX_SAFE_INTEGER), { error: MSG.notificationIds }).max(READ_IDS_MAX, MSG.notificationIds).optional(),
      all: z.literal(true, { error: MSG.notificationIds }).optional(),
    })
    .refine((input) => input.all === true || (input.ids !== undefined && input.ids.length > 0), { message: MSG.notificationIds, path: ['ids'] }),
  output: success({ unread: z.number() }),
});

export const pushKey = defineCall({
  method: 'GET',
  path: '/api/user/push-key',
  summary: "The installation's VAPID public key for Web Push subscriptions (null when push is off)",
  input: z.strictObject({}),
  output: success({ public_key: z.string().nullable() }),
});

const pushEndpoint = z.url({ error: MSG.pushEndpoint, protocol: /^https?$/ }).max(1000, MSG.pushEndpoint);
/** A base64url key of `min`–`max` characters (the lengths are in the pattern, so generators meet them). */
const pushKeyText = (min: number, max: number) => z.string({ error: MSG.pushKeys }).regex(new RegExp(`^[A-Za-z0-9_-]{${min},${max}}={0,2}$`), MSG.pushKeys);

export const subscribePush = defineCall({
  method: 'POST',
  path: '/api/user/push-subscribe',
  summary: "Keeps this browser's push subscription (the PushSubscription's JSON) for the caller",
  input: z.strictObject({
    endpoint: pushEndpoint,
    expirationTime: z.number().nullable().optional(),
    // An uncompressed P-256 point (65 bytes: 87 characters) and a 16-byte secret (22), with some room.
    keys: z.strictObject({ p256dh: pushKeyText(80, 100), auth: pushKeyText(16, 30) }, { error: MSG.pushKeys }),
  }),
  output: success({ subscribed: z.boolean() }),
  refusals: [409, 503],
});

export const unsubscribePush = defineCall({
  method: 'POST',
  path: '/api/user/push-unsubscribe',
  summary: "Forgets this browser's push subscription",
  input: z.strictObject({ endpoint: pushEndpoint }),
  output: success({ subscribed: z.boolean() }),
});
