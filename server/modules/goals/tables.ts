import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { streams } from '../streams/tables';

/**
 * A broadcast's tip goals, in `position` order (decision 0079). The active one is the first not reached
 * nor removed; it counts the coins tipped on the stream past `base` (the stream's tipped total when it
 * became active, less what went past the goal before it). Queued goals have no base yet. Saving goals
 * removes those not reached and adds the new ones after them; reached and removed rows are kept with
 * the broadcast.
 */
export const streamGoals = pgTable(
  'stream_goals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    streamId: bigint('stream_id', { mode: 'number' }).notNull().references(() => streams.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    amount: integer('amount').notNull(),
    description: text('description').notNull(),
    base: bigint('base', { mode: 'number' }),
    /** Coins raised towards it as last counted (at most `amount`). */
    raised: integer('raised').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    reachedAt: timestamp('reached_at', { withTimezone: true }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('stream_goals_position_idx').on(t.streamId, t.position),
    index('stream_goals_open_idx').on(t.streamId).where(sql`${t.reachedAt} is null and ${t.removedAt} is null`),
  ],
);
