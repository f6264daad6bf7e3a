import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { userRef, users } from '../accounts/tables';
import { CHAT_FILTER_ACTIONS } from '../../../common/rules/chat-filter';
import { streamRef } from '../streams/tables';

export const CHAT_LINE_STATUSES = ['shown', 'held', 'removed'] as const;

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
    /** `held`: waiting for a moderator (shown to moderators and its sender only); `removed`: deleted by one. */
    status: text('status', { enum: CHAT_LINE_STATUSES }).notNull().default('shown'),
    /** The emote codes the line uses, as checked when it was written (null: none). */
    emotes: text('emotes').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_messages_stream_idx').on(t.streamId, t.id),
    // History: the last shown lines of one channel, without walking past the stream's likes or held lines.
    index('chat_messages_history_idx').on(t.streamId, t.priority, t.id).where(sql`${t.type} = 'COMMENT' and ${t.status} = 'shown'`),
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
  /** What a line with a link or a blocked word meets: refused, or held for a moderator to approve. */
  filterAction: text('filter_action', { enum: CHAT_FILTER_ACTIONS }).notNull().default('refuse'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A viewer a channel's moderator timed out: no line on the owner's streams until `until`. */
export const chatTimeouts = pgTable(
  'chat_timeouts',
  {
    ownerId: userRef('owner_id'),
    userId: userRef('user_id'),
    until: timestamp('until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.userId] })],
);

/** The operator's words refused in every chat on the platform (one row). */
export const platformChatFilter = pgTable('platform_chat_filter', {
  id: integer('id').primaryKey().default(1),
  words: text('words').array().notNull().default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A broadcaster's emotes (decision 0084): `:code:` in any chat, for subscribers of at least `min_plan_level`. */
export const emotes = pgTable(
  'emotes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    ownerId: userRef('owner_id'),
    code: text('code').notNull(),
    minPlanLevel: integer('min_plan_level').notNull().default(1),
    /** The image's key in the file store. */
    file: text('file').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('emotes_code_idx').on(t.code), index('emotes_owner_idx').on(t.ownerId, t.id)],
);
