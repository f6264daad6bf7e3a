import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const countries = pgTable('countries', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
});

export const systemMessages = pgTable('system_messages', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  title: text('title').notNull(),
  /** HTML written by administrators. */
  content: text('content').notNull(),
  frequency: text('frequency', { enum: ['once', 'always'] }).notNull().default('once'),
  locale: text('locale').notNull().default('en'),
  active: boolean('active').notNull().default(true),
  /** Shown from this time on (null: at once); a time in the future schedules it. */
  startsAt: timestamp('starts_at', { withTimezone: true }),
  /** Shown until this time (null: until retired); retiring sets it to now. */
  endsAt: timestamp('ends_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Campaign and referral tracking events (spec part 2 §7 track-event), kept for referrals and analytics. */
export const trackingEvents = pgTable(
  'tracking_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    action: text('action', { enum: ['app_opened', 'user_login', 'user_registered'] }).notNull(),
    referralCode: text('referral_code'),
    campaign: text('campaign'),
    tracker: text('tracker').notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    refId: text('ref_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tracking_events_referral_idx').on(t.referralCode, t.createdAt), index('tracking_events_tracker_idx').on(t.tracker)],
);
