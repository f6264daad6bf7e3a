import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { POST_AUDIENCES, POST_KINDS, POST_STATES } from '../../../common/api/posts';
import { COMPLAINT_TYPES } from '../../../common/api/stream-interactions';
import { RATINGS } from '../../../common/api/streams';
import { userRef } from '../accounts/tables';

/**
 * An image or video post. Its files live in storage under `posts/<id>/`; a video post is `processing`
 * until its transcode (post_media.transcode_*) finished or failed.
 */
export const posts = pgTable(
  'posts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: userRef('user_id'),
    kind: text('kind', { enum: POST_KINDS }).notNull(),
    state: text('state', { enum: POST_STATES }).notNull(),
    failure: text('failure'),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    audience: text('audience', { enum: POST_AUDIENCES }).notNull(),
    rating: text('rating', { enum: RATINGS }).notNull().default('G'),
    /** Coins a viewer pays to see the media; 0 is free. */
    price: integer('price').notNull().default(0),
    commentsAllowed: boolean('comments_allowed').notNull().default(true),
    featured: boolean('featured').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    likes: integer('likes').notNull().default(0),
    comments: integer('comments').notNull().default(0),
    mediaCount: integer('media_count').notNull(),
    /** The bytes of the uploads it was made from: what it counts against its owner's storage quota. */
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('posts_user_idx').on(t.userId, t.createdAt),
    index('posts_listed_idx').on(t.createdAt).where(sql`${t.deletedAt} is null and ${t.audience} = 'public'`),
    check('posts_price_range', sql`${t.price} >= 0`),
    check('posts_bytes_range', sql`${t.bytes} >= 0`),
  ],
);

/**
 * Each upload a person started (at its creation, before a byte is stored): how many they start a day,
 * and the bytes an upload holds until it was published into a post or given up (`settled_at`), or
 * expired. The per-user quotas are decided from these and the posts' bytes.
 */
export const uploadStarts = pgTable(
  'upload_starts',
  {
    uploadId: text('upload_id').primaryKey(),
    userId: userRef('user_id'),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [index('upload_starts_user_idx').on(t.userId, t.createdAt), check('upload_starts_bytes_range', sql`${t.bytes} > 0`)],
);

/**
 * One image or video: a post's, or (no `post_id`) one in its owner's vault that messages carry (decision
 * 0088). `key` is the storage folder of its renditions, shared by the rows that reuse the same upload; a
 * video carries its transcode: queued, then claimed by one worker (a lease that a crash lets run out),
 * then done or failed.
 */
export const postMedia = pgTable(
  'post_media',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    postId: bigint('post_id', { mode: 'number' }).references(() => posts.id, { onDelete: 'cascade' }),
    ownerId: userRef('owner_id'),
    position: integer('position').notNull(),
    kind: text('kind', { enum: POST_KINDS }).notNull(),
    key: text('key').notNull(),
    width: integer('width'),
    height: integer('height'),
    durationSeconds: real('duration_seconds'),
    transcodeState: text('transcode_state', { enum: ['queued', 'running', 'done', 'failed'] }),
    transcodeProgress: integer('transcode_progress').notNull().default(0),
    transcodeAttempts: integer('transcode_attempts').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** A vault upload's bytes, counted against its owner's storage (a post's media count in the post's `bytes`). */
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('post_media_position_idx').on(t.postId, t.position),
    index('post_media_owner_idx').on(t.ownerId, t.id),
    index('post_media_key_idx').on(t.key),
    index('post_media_transcode_idx').on(t.id).where(sql`${t.transcodeState} in ('queued', 'running')`),
  ],
);

const postRef = () => bigint('post_id', { mode: 'number' }).notNull().references(() => posts.id, { onDelete: 'cascade' });

/** A viewer's purchase of a paid post: written in the transaction of its ledger transfer. */
export const postPurchases = pgTable(
  'post_purchases',
  {
    postId: postRef(),
    userId: userRef('user_id'),
    transferId: bigint('transfer_id', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);

export const postLikes = pgTable(
  'post_likes',
  {
    postId: postRef(),
    userId: userRef('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);

export const postSaves = pgTable(
  'post_saves',
  {
    userId: userRef('user_id'),
    postId: postRef(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.postId] }), index('post_saves_user_idx').on(t.userId, t.createdAt)],
);

export const postReports = pgTable(
  'post_reports',
  {
    postId: postRef(),
    reporterId: userRef('reporter_id'),
    type: text('type', { enum: COMPLAINT_TYPES }).notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.reporterId] })],
);

/** A comment, or a reply (parent_id); thread_id is the top comment of its tree. */
export const postComments = pgTable(
  'post_comments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    postId: postRef(),
    userId: userRef('user_id'),
    parentId: bigint('parent_id', { mode: 'number' }),
    threadId: bigint('thread_id', { mode: 'number' }),
    body: text('body').notNull(),
    replies: integer('replies').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('post_comments_post_idx').on(t.postId, t.parentId, t.id)],
);

export const commentReports = pgTable(
  'comment_reports',
  {
    commentId: bigint('comment_id', { mode: 'number' }).notNull().references(() => postComments.id, { onDelete: 'cascade' }),
    reporterId: userRef('reporter_id'),
    type: text('type', { enum: COMPLAINT_TYPES }).notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.reporterId] })],
);
