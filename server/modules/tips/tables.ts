import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { userRef } from '../accounts/tables';
import { streams } from '../streams/tables';

/**
 * A broadcaster's tip menu: actions with their price in coins, in `position` order. Saving the menu
 * removes the items there were (kept, `removed_at`, for the requests that name them) and adds the new ones.
 */
export const tipMenuItems = pgTable(
  'tip_menu_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: userRef('user_id'),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    price: integer('price').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tip_menu_items_offered_idx').on(t.userId, t.position).where(sql`${t.removedAt} is null`)],
);

/**
 * An action a viewer paid for from the menu: written by the tip's own statement, keyed by its transfer
 * (so a retried tip requests once). The label and price are the item's when it was bought.
 */
export const tipMenuRequests = pgTable(
  'tip_menu_requests',
  {
    transferId: bigint('transfer_id', { mode: 'number' }).primaryKey(),
    streamId: bigint('stream_id', { mode: 'number' }).notNull().references(() => streams.id, { onDelete: 'cascade' }),
    itemId: bigint('item_id', { mode: 'number' }).notNull().references(() => tipMenuItems.id),
    viewerId: bigint('viewer_id', { mode: 'number' }).notNull(),
    label: text('label').notNull(),
    price: integer('price').notNull(),
    done: boolean('done').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tip_menu_requests_stream_idx').on(t.streamId, t.createdAt)],
);
