import { bigint, date, index, integer, pgTable, primaryKey, smallint, timestamp } from 'drizzle-orm/pg-core';
import { userRef } from '../accounts/tables';

/**
 * A creator's figures per UTC day, folded from the books, views and follows (decision 0022). The fold
 * only adds: each row holds what happened on that day up to `analytics_fold.folded_until`.
 */
export const analyticsDays = pgTable(
  'analytics_days',
  {
    creatorId: userRef('creator_id'),
    day: date('day', { mode: 'string' }).notNull(),
    tipCoins: bigint('tip_coins', { mode: 'number' }).notNull().default(0),
    tips: integer('tips').notNull().default(0),
    views: integer('views').notNull().default(0),
    followers: integer('followers').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.day] })],
);

/** Coins a tipper gave a creator per day: the short ranges of Top tippers, and the edges of long ones. */
export const analyticsTipperDays = pgTable(
  'analytics_tipper_days',
  {
    creatorId: userRef('creator_id'),
    day: date('day', { mode: 'string' }).notNull(),
    tipperId: bigint('tipper_id', { mode: 'number' }).notNull(),
    coins: bigint('coins', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.day, t.tipperId] })],
);

/** The same per calendar month (`month` is its first day): whole months of a long range. */
export const analyticsTipperMonths = pgTable(
  'analytics_tipper_months',
  {
    creatorId: userRef('creator_id'),
    month: date('month', { mode: 'string' }).notNull(),
    tipperId: bigint('tipper_id', { mode: 'number' }).notNull(),
    coins: bigint('coins', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.month, t.tipperId] })],
);

/** The same over all time, ranked by an index: Top tippers of All time reads five rows. */
export const analyticsTipperTotals = pgTable(
  'analytics_tipper_totals',
  {
    creatorId: userRef('creator_id'),
    tipperId: bigint('tipper_id', { mode: 'number' }).notNull(),
    coins: bigint('coins', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.tipperId] }), index('analytics_tipper_totals_rank_idx').on(t.creatorId, t.coins, t.tipperId)],
);

/** Coins tipped on and new views of each of a creator's streams per day: the top stream lists. */
export const analyticsStreamDays = pgTable(
  'analytics_stream_days',
  {
    creatorId: userRef('creator_id'),
    day: date('day', { mode: 'string' }).notNull(),
    streamId: bigint('stream_id', { mode: 'number' }).notNull(),
    coins: bigint('coins', { mode: 'number' }).notNull().default(0),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.creatorId, t.day, t.streamId] })],
);

/** How far the fold has read (one row): facts stamped before `folded_until` are in the rollups. */
export const analyticsFold = pgTable('analytics_fold', {
  id: smallint('id').primaryKey(),
  foldedUntil: timestamp('folded_until', { withTimezone: true }),
});
