import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { NOTIFICATION_KINDS } from '../../../common/api/notifications';
import { users } from '../accounts/tables';

/** One line of a person's bell: what happened, who did it, and whether they read it. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    /** The stream, meeting or subscription it is about. */
    subjectId: bigint('subject_id', { mode: 'number' }),
    /** What the text needs besides names: a title, an amount, a time. */
    data: jsonb('data').$type<NotificationData>().notNull().default({}),
    /** The source's own key (`stream_live:12`, `tip:904`): a source written twice notifies once. */
    dedupeKey: text('dedupe_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_idx').on(t.userId, t.dedupeKey),
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    // The hourly cap asks whether this actor already notified this person of this kind lately.
    index('notifications_cap_idx').on(t.userId, t.actorId, t.kind, t.createdAt),
  ],
);

export interface NotificationData {
  title?: string;
  amount?: number;
  /** ISO time (a meeting's start). */
  when?: string;
  /** A payout's new state, and why it was rejected or failed. */
  state?: string;
  reason?: string;
}

/**
 * The outbox of e-mail and push: one row per notification and way, written in the notification's
 * transaction and delivered by the job (a lease makes a crashed delivery due again).
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    notificationId: bigint('notification_id', { mode: 'number' }).notNull().references(() => notifications.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'push'] }).notNull(),
    state: text('state', { enum: ['pending', 'sent', 'skipped', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When it may be tried (again): now when written, the lease's end while trying, later after a failure. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notification_deliveries_once_idx').on(t.notificationId, t.channel),
    index('notification_deliveries_due_idx').on(t.dueAt).where(sql`${t.state} = 'pending'`),
  ],
);

/**
 * Notifying many people of one thing (a broadcaster's followers of a go-live), done in batches by the
 * job: `cursor` is the last follower id notified, moved in each batch's transaction.
 */
export const notificationFanouts = pgTable(
  'notification_fanouts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sourceKey: text('source_key').notNull().unique(),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    actorId: bigint('actor_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    subjectId: bigint('subject_id', { mode: 'number' }),
    data: jsonb('data').$type<NotificationData>().notNull().default({}),
    cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [index('notification_fanouts_open_idx').on(t.id).where(sql`${t.doneAt} is null`)],
);

/** A browser's Web Push subscription (RFC 8030/8291), kept for the person who made it. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId), check('push_subscriptions_endpoint_len', sql`length(${t.endpoint}) <= 1000`)],
);
