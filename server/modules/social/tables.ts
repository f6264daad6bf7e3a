import { bigint, boolean, check, index, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from '../accounts/tables';

/** Who follows whom; `notify` is the bell (notifications from the followed user). */
export const follows = pgTable(
  'follows',
  {
    followerId: bigint('follower_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: bigint('followee_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    notify: boolean('notify').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index('follows_followee_idx').on(t.followeeId, t.createdAt),
    // Analytics folds new follows by time.
    index('follows_created_idx').on(t.createdAt),
    // A go-live notifies the followers who want it, in follower-id order, a batch at a time.
    index('follows_notify_idx').on(t.followeeId, t.followerId).where(sql`${t.notify}`),
    check('follows_not_self', sql`${t.followerId} <> ${t.followeeId}`),
  ],
);
