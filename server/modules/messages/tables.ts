import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { COMPLAINT_TYPES } from '../../../common/api/stream-interactions';
import { BROADCAST_AUDIENCES, BROADCAST_STATES, MESSAGE_AUDIENCES } from '../../../common/rules/messages';
import { users } from '../accounts/tables';
import { postMedia } from '../posts/tables';

const userRef = (name: string) => bigint(name, { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' });
/** A vault medium: it goes only with its owner's account, and the messages keep their text then. */
const mediaRef = () => bigint('media_id', { mode: 'number' }).references(() => postMedia.id, { onDelete: 'set null' });

/** Who may start a conversation with a member (no row: everyone). */
export const messageSettings = pgTable('message_settings', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  audience: text('audience', { enum: MESSAGE_AUDIENCES }).notNull().default('everyone'),
  /** Whether the member receives the messages creators send to many at once. */
  bulk: boolean('bulk').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One conversation per pair of members (`lowId` < `highId`), and who started it. */
export const conversations = pgTable(
  'conversations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    lowId: userRef('low_id'),
    highId: userRef('high_id'),
    startedBy: bigint('started_by', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('conversations_pair_idx').on(t.lowId, t.highId), index('conversations_started_idx').on(t.startedBy, t.createdAt)],
);

/**
 * A conversation as one of its members has it: the newest message's time (the list's order), how far
 * they read, how many messages to them are unread, and whether they have written in it (a conversation
 * both wrote in is open to both whatever their settings).
 */
export const conversationMembers = pgTable(
  'conversation_members',
  {
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull().references(() => conversations.id, { onDelete: 'cascade' }),
    userId: userRef('user_id'),
    partnerId: userRef('partner_id'),
    readId: bigint('read_id', { mode: 'number' }).notNull().default(0),
    unread: integer('unread').notNull().default(0),
    wrote: boolean('wrote').notNull().default(false),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.partnerId] }),
    index('conversation_members_recent_idx').on(t.userId, t.lastMessageAt.desc()),
  ],
);

/** A message; `clientKey` is the sender's page's key for the send, so a repeated send is the same message. */
export const directMessages = pgTable(
  'direct_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull().references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: userRef('sender_id'),
    recipientId: userRef('recipient_id'),
    body: text('body').notNull(),
    clientKey: text('client_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Removed by a moderator after a report (the audit log says who). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** The message to many this is the recipient's copy of. */
    broadcastId: bigint('broadcast_id', { mode: 'number' }),
    /** An image or video from the sender's vault (decision 0088). */
    mediaId: mediaRef(),
    /** Coins the recipient pays to open the media; 0: open. */
    price: integer('price').notNull().default(0),
  },
  (t) => [
    uniqueIndex('direct_messages_key_idx').on(t.senderId, t.clientKey),
    index('direct_messages_media_idx').on(t.mediaId, t.recipientId).where(sql`${t.mediaId} is not null`),
    check('direct_messages_price_range', sql`${t.price} >= 0`),
    index('direct_messages_conversation_idx').on(t.conversationId, t.id),
    index('direct_messages_sender_time_idx').on(t.senderId, t.createdAt),
    index('direct_messages_broadcast_idx').on(t.broadcastId).where(sql`${t.broadcastId} is not null`),
  ],
);

/** A member who blocked another: neither may message the other. */
export const messageBlocks = pgTable(
  'message_blocks',
  {
    blockerId: userRef('blocker_id'),
    blockedId: userRef('blocked_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('message_blocks_blocked_idx').on(t.blockedId)],
);

/** A recipient's report of a message (the console's queue); a new one replaces their earlier one. */
export const messageReports = pgTable(
  'message_reports',
  {
    messageId: bigint('message_id', { mode: 'number' }).notNull().references(() => directMessages.id, { onDelete: 'cascade' }),
    reporterId: userRef('reporter_id'),
    type: text('type', { enum: COMPLAINT_TYPES }).notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.reporterId] })],
);

/**
 * A creator's one message to many (their followers, or their subscribers of every plan or one), delivered
 * in batches of recipients taken in id order past `cursor`; a delivering instance holds it until
 * `claimedUntil`, and a batch, its messages and the cursor commit together.
 */
export const messageBroadcasts = pgTable(
  'message_broadcasts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    senderId: userRef('sender_id'),
    audience: text('audience', { enum: BROADCAST_AUDIENCES }).notNull(),
    planId: bigint('plan_id', { mode: 'number' }),
    body: text('body').notNull(),
    clientKey: text('client_key').notNull(),
    mediaId: mediaRef(),
    price: integer('price').notNull().default(0),
    state: text('state', { enum: BROADCAST_STATES }).notNull().default('sending'),
    cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('message_broadcasts_key_idx').on(t.senderId, t.clientKey),
    index('message_broadcasts_sender_idx').on(t.senderId, t.createdAt),
    index('message_broadcasts_sending_idx').on(t.id).where(sql`${t.state} = 'sending'`),
  ],
);

/** A recipient's unlock of a paid message's media: written in the transaction of its ledger transfer. */
export const messageUnlocks = pgTable(
  'message_unlocks',
  {
    messageId: bigint('message_id', { mode: 'number' }).notNull().references(() => directMessages.id, { onDelete: 'cascade' }),
    userId: userRef('user_id'),
    /** Whose message it was: the seller's list of unlocks reads by it. */
    sellerId: userRef('seller_id'),
    transferId: bigint('transfer_id', { mode: 'number' }).notNull(),
    price: integer('price').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] }), index('message_unlocks_seller_idx').on(t.sellerId, t.createdAt)],
);
