import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

export const channels = pgTable('channels', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull().unique(),
  type: text('type', { enum: ['group', 'channel', 'custom', 'user'] }).notNull().default('channel'),
  rating: text('rating', { enum: ['G', 'PLUS_14', 'PLUS_18'] }).notNull().default('G'),
  /** What the channel lists, for the streams module: popular, gender, live, discover, following. */
  selector: text('selector').notNull(),
  thumbnail: text('thumbnail'),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** A custom channel's broadcasters, chosen by an administrator: the channel lists their streams and posts. */
export const channelBroadcasters = pgTable('channel_broadcasters', {
  channelId: integer('channel_id').notNull().references(() => channels.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull(),
}, (t) => [primaryKey({ columns: [t.channelId, t.userId] })]);
