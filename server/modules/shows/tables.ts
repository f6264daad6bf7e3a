import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { SEAT_END_REASONS, SEAT_ROLES, SHOW_END_REASONS, SHOW_KINDS } from '../../../common/rules/shows';
import { users } from '../accounts/tables';
import { streams } from '../streams/tables';

/** What a broadcaster charges for shows, in coins a minute (0: not offered), and the minutes they promise. */
export const showOffers = pgTable('show_offers', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  privatePrice: integer('private_price').notNull().default(0),
  groupPrice: integer('group_price').notNull().default(0),
  groupMinTickets: integer('group_min_tickets').notNull().default(3),
  spyPrice: integer('spy_price').notNull().default(0),
  minMinutes: integer('min_minutes').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A show's life: asked for (private), selling tickets (group), on, or over. */
export const SHOW_STATES = ['requested', 'gathering', 'live', 'ended'] as const;
export type ShowState = (typeof SHOW_STATES)[number];

/**
 * One private or group show on a broadcast (decision 0085), with the prices and minimum it was sold at
 * (the offer may change while it runs). At most one show of a stream is gathering or live.
 */
export const shows = pgTable(
  'shows',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    streamId: bigint('stream_id', { mode: 'number' }).notNull().references(() => streams.id, { onDelete: 'cascade' }),
    broadcasterId: bigint('broadcaster_id', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: SHOW_KINDS }).notNull(),
    state: text('state', { enum: SHOW_STATES }).notNull(),
    pricePerMinute: integer('price_per_minute').notNull(),
    spyPrice: integer('spy_price').notNull().default(0),
    minMinutes: integer('min_minutes').notNull().default(0),
    minTickets: integer('min_tickets').notNull().default(1),
    requestedBy: bigint('requested_by', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason', { enum: SHOW_END_REASONS }),
  },
  (t) => [
    uniqueIndex('shows_open_idx').on(t.streamId).where(sql`${t.state} in ('gathering', 'live')`),
    uniqueIndex('shows_request_idx').on(t.streamId, t.requestedBy).where(sql`${t.state} = 'requested'`),
    index('shows_requested_idx').on(t.createdAt).where(sql`${t.state} = 'requested'`),
  ],
);

export const SEAT_STATES = ['waiting', 'active', 'ended'] as const;

/**
 * A viewer's place in a show: waiting (a private request or a group ticket before the show starts),
 * active (paid up to `paidUntil`, billed a minute at a time while `seenAt` stays recent), or ended.
 * `minutesBilled` numbers the minutes: minute n's charge is keyed by the show, viewer and n.
 */
export const showSeats = pgTable(
  'show_seats',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    showId: bigint('show_id', { mode: 'number' }).notNull().references(() => shows.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    role: text('role', { enum: SEAT_ROLES }).notNull(),
    state: text('state', { enum: SEAT_STATES }).notNull(),
    pricePerMinute: integer('price_per_minute').notNull(),
    minutesBilled: integer('minutes_billed').notNull().default(0),
    coinsPaid: bigint('coins_paid', { mode: 'number' }).notNull().default(0),
    paidUntil: timestamp('paid_until', { withTimezone: true }),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** A billing run's claim on the due minute: other instances' runs pass the seat by until it lapses (a killed run's does). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason', { enum: SEAT_END_REASONS }),
  },
  (t) => [
    uniqueIndex('show_seats_viewer_idx').on(t.showId, t.userId),
    index('show_seats_due_idx').on(t.paidUntil).where(sql`${t.state} = 'active'`),
    index('show_seats_user_idx').on(t.userId).where(sql`${t.state} <> 'ended'`),
  ],
);
