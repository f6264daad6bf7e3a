/** Tables the platform itself keeps: sessions, shared secrets, throttling events, spent captchas. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie token: a leaked table row cannot be replayed as a cookie. */
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    remember: boolean('remember').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * The addresses each account signed up or signed in from, kept after its sessions end: accounts that
 * share one are one person to the referral programme (decision 0036). One row per account and address.
 */
export const signInAddresses = pgTable(
  'sign_in_addresses',
  {
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    ip: text('ip').notNull(),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull().defaultNow(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.ip] }), index('sign_in_addresses_ip_idx').on(t.ip)],
);

/** True (as SQL) when the two accounts signed up or signed in from a common address. */
export const shareSignInAddressSql = (a: unknown, b: unknown) => sql<boolean>`exists (select 1 from ${signInAddresses} x
  join ${signInAddresses} y on y.ip = x.ip and y.user_id = ${b} where x.user_id = ${a})`;

/** Secrets generated once and shared by every instance (CSRF and captcha HMAC keys). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/** Failed attempts counted across instances (login throttling). */
export const throttleEvents = pgTable(
  'throttle_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('throttle_events_key_at_idx').on(t.key, t.at)],
);

/**
 * Token buckets: a key may act `capacity` times at once and earns the right back at a steady rate.
 * One row per key, updated in the statement that acts, so the count is exact across instances
 * without a read before the write (tips).
 */
export const throttleBuckets = pgTable('throttle_buckets', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/** Captcha solutions already used, so one solution cannot be replayed. */
export const captchaSpent = pgTable('captcha_spent', {
  challengeId: text('challenge_id').primaryKey(),
  spentAt: timestamp('spent_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Mail kept in the database: the outbox of the embedded default, and a record of what SMTP sent. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    transport: text('transport', { enum: ['outbox', 'smtp', 'none'] }).notNull(),
    /** A sender's own key for a message (a notification's delivery): kept once however often it is sent. */
    messageKey: text('message_key').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to), index('mail_outbox_created_idx').on(t.createdAt)],
);

/**
 * Members of each realtime channel per instance (viewers of a stream), refreshed while the instance
 * lives: the sum over fresh rows is the count every instance agrees on.
 */
export const realtimePresence = pgTable(
  'realtime_presence',
  {
    channel: text('channel').notNull(),
    instanceId: text('instance_id').notNull(),
    members: integer('members').notNull(),
    /** The signed-in members' user ids (at most PRESENCE_LISTED_USERS): who a broadcaster can pick among the watchers. */
    userIds: integer('user_ids').array().notNull().default(sql`'{}'::integer[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channel, t.instanceId] }), index('realtime_presence_instance_idx').on(t.instanceId)],
);

/**
 * Every moderator and administrator action (the console, report-stream-action, `npm run admin`): who,
 * what, on which object, the state before and after. Append-only: a trigger refuses UPDATE and DELETE
 * (migration 0025), as for the ledger's rows. `actor_id` is null for the command line.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorId: bigint('actor_id', { mode: 'number' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt), index('audit_log_target_idx').on(t.targetType, t.targetId)],
);

/**
 * The first request each Idempotency-Key of a user was sent with (platform/http/idempotency.ts): the
 * fingerprint of its route and canonical body. The same key with another body is refused (409); kept
 * as long as the ledger keeps the transfers those keys named.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * Domain events written in the transaction of the change they report (platform/event-outbox.ts): committed
 * with it or not at all, then handed to the event's handlers at least once, on whichever instance claims
 * them. `available_at` is when the row may next be claimed: a claim holds it for a lease, so a claimer killed
 * mid-delivery is followed by another once the lease runs out.
 */
export const eventOutbox = pgTable(
  'event_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    availableAt: timestamp('available_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('event_outbox_due_idx').on(t.availableAt, t.id).where(sql`${t.deliveredAt} is null`),
    index('event_outbox_delivered_idx').on(t.deliveredAt).where(sql`${t.deliveredAt} is not null`),
  ],
);

/**
 * Each periodic job's runs, over every instance that runs it (decision 0051): the operator console reads
 * it from any instance, an API one included, though only workers run the jobs.
 */
export const jobRuns = pgTable('job_runs', {
  job: text('job').primaryKey(),
  runs: bigint('runs', { mode: 'number' }).notNull().default(0),
  failures: bigint('failures', { mode: 'number' }).notNull().default(0),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }).notNull(),
  lastDurationMs: integer('last_duration_ms').notNull(),
  /** The last failure's message and moment (null: it never failed); kept when later runs succeed. */
  lastError: text('last_error'),
  lastFailedAt: timestamp('last_failed_at', { withTimezone: true }),
  /** The host and process that ran it last. */
  lastInstance: text('last_instance').notNull(),
});
