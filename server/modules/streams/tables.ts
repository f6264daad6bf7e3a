import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { userRef, users } from '../accounts/tables';

export const STREAM_AUDIENCES = ['PUBLIC', 'FOLLOWERS', 'SUBSCRIBERS', 'PRIVATE'] as const;
export const STREAM_RATINGS = ['G', 'PLUS_14', 'PLUS_18'] as const;

/**
 * A broadcast. get-live-stream creates it hidden; saving the setup makes it ready; Go Live shows it;
 * it is live while the encoder publishes; when the broadcast ends its closed playlist is the replay.
 */
export const streams = pgTable(
  'streams',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: userRef('user_id'),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    audience: text('audience', { enum: STREAM_AUDIENCES }).notNull().default('PUBLIC'),
    rating: text('rating', { enum: STREAM_RATINGS }).notNull().default('G'),
    /** When the broadcaster saved the setup: Go Live needs it. */
    setupAt: timestamp('setup_at', { withTimezone: true }),
    /** Not listed nor joinable by others until the broadcaster goes live. */
    hidden: boolean('hidden').notNull().default(true),
    /** The encoder is publishing now. */
    live: boolean('live').notNull().default(false),
    chatEnabled: boolean('chat_enabled').notNull().default(true),
    /** Set by a moderator (Move to 18+): the owner cannot lower the rating again. */
    ratingLocked: boolean('rating_locked').notNull().default(false),
    /** Set by a moderator (Make Followers Only): the owner cannot open the audience again. */
    audienceLocked: boolean('audience_locked').notNull().default(false),
    featured: boolean('featured').notNull().default(false),
    /** Coins a viewer must have tipped to watch (the money issue enforces it). */
    tipViewerMinAmount: integer('tip_viewer_min_amount').notNull().default(0),
    skin: text('skin').notNull().default('limelight'),
    /** Storage key of the HLS playlist (media/<stream>/<broadcast>/index.m3u8) once media exists. */
    playlistKey: text('playlist_key'),
    thumbnailKey: text('thumbnail_key'),
    width: integer('width'),
    height: integer('height'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Seconds of video in the replay. */
    lengthSeconds: integer('length_seconds').notNull().default(0),
    likes: integer('likes').notNull().default(0),
    /** Views over the stream's life (joins by distinct viewers). */
    totalViews: integer('total_views').notNull().default(0),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('streams_user_idx').on(t.userId, t.createdAt),
    // One current stream per broadcaster, even when two requests create it at once.
    uniqueIndex('streams_one_open_per_user_idx').on(t.userId).where(sql`${t.endedAt} is null and ${t.deletedAt} is null`),
    index('streams_listing_idx').on(t.live, t.startedAt),
    index('streams_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
    check('streams_min_amount_nonnegative', sql`${t.tipViewerMinAmount} >= 0`),
  ],
);

/** A required reference to a stream; the row goes with the stream. */
export const streamRef = () =>
  bigint('stream_id', { mode: 'number' })
    .notNull()
    .references(() => streams.id, { onDelete: 'cascade' });

/** A viewer's presence on a stream: joined, likes given, left. */
export const streamViews = pgTable(
  'stream_views',
  {
    streamId: streamRef(),
    viewerKey: text('viewer_key').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    /** When this viewer first joined the stream (one view); never changed, so analytics can fold it. */
    firstJoinedAt: timestamp('first_joined_at', { withTimezone: true }).notNull().defaultNow(),
    leftAt: timestamp('left_at', { withTimezone: true }),
    likes: integer('likes').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.streamId, t.viewerKey] }),
    index('stream_views_active_idx').on(t.streamId, t.leftAt),
    index('stream_views_first_joined_idx').on(t.firstJoinedAt),
  ],
);

/** Viewers an owner (or moderator) banned from a stream: their join answers "block". */
export const streamBans = pgTable(
  'stream_bans',
  {
    streamId: streamRef(),
    userId: userRef('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.userId] })],
);

/** The people a broadcaster appointed to moderate the chat of their streams (ban, time out, delete and approve lines, chat rules). */
export const channelModerators = pgTable(
  'channel_moderators',
  {
    ownerId: userRef('owner_id'),
    moderatorId: userRef('moderator_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.moderatorId] }), index('channel_moderators_moderator_idx').on(t.moderatorId)],
);

/** The Women / Men channel a broadcaster is listed in (set by moderators: "Move User to Men/Women"). */
export const broadcasterChannels = pgTable('broadcaster_channels', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  gender: text('gender', { enum: ['women', 'men'] }).notNull(),
});

/** Moderator actions taken on streams (report-stream-action), for the record. */
export const streamModerationLog = pgTable('stream_moderation_log', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  streamId: bigint('stream_id', { mode: 'number' }).notNull(),
  moderatorId: bigint('moderator_id', { mode: 'number' }).notNull(),
  event: text('event').notNull(),
  comment: text('comment'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A viewer's star rating of a stream (1–5); the broadcaster's overall rating is their average. */
export const streamRatings = pgTable(
  'stream_ratings',
  {
    streamId: streamRef(),
    userId: userRef('user_id'),
    rating: integer('rating').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.userId] }), check('stream_ratings_range', sql`${t.rating} between 1 and 5`)],
);

/** Bookmarks (save): the owner's profile Saved tab. */
export const streamSaves = pgTable(
  'stream_saves',
  {
    userId: userRef('user_id'),
    streamId: streamRef(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.streamId] }), index('stream_saves_user_idx').on(t.userId, t.createdAt)],
);

/** Complaints viewers file about streams (report-stream), for moderators. */
export const streamReports = pgTable(
  'stream_reports',
  {
    streamId: streamRef(),
    reporterId: userRef('reporter_id'),
    type: text('type', { enum: ['inappropriate', 'crime', 'troll', 'other'] }).notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.reporterId] }), index('stream_reports_created_idx').on(t.createdAt)],
);

/**
 * Who ingests a live broadcast now: the media instance that renews the lease every few seconds. A
 * lease past `expires_at` (its instance died, or stopped gracefully and the encoder's grace ran out)
 * is ended by any media instance; an encoder reconnecting to any instance before then takes it over.
 */
export const broadcastLeases = pgTable(
  'broadcast_leases',
  {
    streamId: streamRef().primaryKey(),
    instanceId: text('instance_id').notNull(),
    /** The broadcast (playlist folder) a reconnecting encoder continues. */
    broadcastId: text('broadcast_id').notNull(),
    /** True after a graceful stop: nobody ingests, the encoder may come back until `expires_at`. */
    inGrace: boolean('in_grace').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('broadcast_leases_expires_idx').on(t.expiresAt)],
);
