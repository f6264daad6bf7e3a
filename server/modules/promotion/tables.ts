import { bigint, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../accounts/tables';

/**
 * Who has been shown a promoted broadcaster in a window: a showing spends an impression once per
 * visitor (their viewer key: a signed-in user, or a guest's address) and broadcaster per window, on every instance.
 */
export const impressionShowings = pgTable(
  'impression_showings',
  {
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.visitor, t.windowStart] })],
);
