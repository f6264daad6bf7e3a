import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { userRef, users } from '../accounts/tables';
import { streamRef } from '../streams/tables';

/** Stored chat lines (COMMENT) and realtime likes (LIKE), so late joiners see history and limits hold across instances. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    streamId: streamRef(),
    userId: userRef('user_id'),
    type: text('type').notNull(),
    text: text('text').notNull().default(''),
    /** Sent on the stream's priority channel (subscribers and the owner). */
    priority: boolean('priority').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_messages_stream_idx').on(t.streamId, t.id),
    // History: the last lines of one channel, without walking past the stream's likes.
    index('chat_messages_history_idx').on(t.streamId, t.priority, t.id).where(sql`${t.type} = 'COMMENT'`),
    // The sender's recent lines: like limits and the chat rate limit.
    index('chat_messages_sender_idx').on(t.streamId, t.userId, t.createdAt),
  ],
);

/** A broadcaster's chat rules for their streams (decision 0081); no row: anyone may chat, no filters. */
export const chatRules = pgTable('chat_rules', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  slowModeSeconds: integer('slow_mode_seconds').notNull().default(0),
  audience: text('audience', { enum: ['everyone', 'followers', 'subscribers'] }).notNull().default('everyone'),
  blockLinks: boolean('block_links').notNull().default(false),
  blockedWords: text('blocked_words').array().notNull().default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
