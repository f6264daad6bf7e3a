import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { MEETING_STATES } from '../../../common/api/meetings';
import { COMPLAINT_TYPES } from '../../../common/api/stream-interactions';
import { userRef } from '../accounts/tables';

/** A scheduled paid video call: its host, when, and the meeting tip (coins an invitee pays to enter). */
export const meetings = pgTable(
  'meetings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    hostId: userRef('host_id'),
    title: text('title').notNull(),
    pwd: text('pwd').notNull().default(''),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    timezone: text('timezone').notNull().default(''),
    /** tip_rules.viewer_min_amount: a multiple of 10 in 250–5000 (common/rules/meeting.ts). */
    tip: integer('tip').notNull(),
    state: text('state', { enum: MEETING_STATES }).notNull().default('scheduled'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('meetings_host_idx').on(t.hostId, t.startTime).where(sql`${t.deletedAt} is null`),
    check('meetings_tip_range', sql`${t.tip} >= 0`),
  ],
);

const meetingRef = () => bigint('meeting_id', { mode: 'number' }).notNull().references(() => meetings.id, { onDelete: 'cascade' });

/**
 * The people the host invited; `paid` is what they paid in this call (the meeting tip and tips), `fees_paid`
 * the platform's part of it (a refund returns both), `kicked_at` keeps them out; `seen_at` is their first
 * look at the calendar since the invitation (until then the side bar counts it as new).
 */
export const meetingInvitees = pgTable(
  'meeting_invitees',
  {
    meetingId: meetingRef(),
    userId: userRef('user_id'),
    paid: integer('paid').notNull().default(0),
    feesPaid: integer('fees_paid').notNull().default(0),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp('seen_at', { withTimezone: true }),
    kickedAt: timestamp('kicked_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.userId] }), index('meeting_invitees_user_idx').on(t.userId)],
);

/** A participant's stars for an ended call (a second rating replaces the first). */
export const meetingRatings = pgTable(
  'meeting_ratings',
  {
    meetingId: meetingRef(),
    userId: userRef('user_id'),
    rating: smallint('rating').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.userId] }), check('meeting_ratings_range', sql`${t.rating} between 1 and 5`)],
);

/** Complaints about a call, for the moderators. */
export const meetingReports = pgTable(
  'meeting_reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    meetingId: meetingRef(),
    reporterId: userRef('reporter_id'),
    type: text('type', { enum: COMPLAINT_TYPES }).notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('meeting_reports_meeting_idx').on(t.meetingId)],
);

/** A participant's bookmark of a call. */
export const meetingSaves = pgTable(
  'meeting_saves',
  {
    meetingId: meetingRef(),
    userId: userRef('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.userId] })],
);

/** The room's chat lines (COMMENT), so a participant who arrives late sees the history. */
export const meetingMessages = pgTable(
  'meeting_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    meetingId: meetingRef(),
    userId: userRef('user_id'),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('meeting_messages_history_idx').on(t.meetingId, t.id), index('meeting_messages_sender_idx').on(t.meetingId, t.userId, t.createdAt)],
);

/**
 * Who is in the room, per realtime instance: a row while the user has a socket on the meeting's
 * channel on that instance. Counted only while that instance's realtime_presence row for the channel
 * is fresh, so a crashed instance's people drop out (decision 0010).
 */
export const meetingPresence = pgTable(
  'meeting_presence',
  {
    meetingId: meetingRef(),
    userId: userRef('user_id'),
    instanceId: text('instance_id').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.userId, t.instanceId] }), index('meeting_presence_instance_idx').on(t.instanceId)],
);
