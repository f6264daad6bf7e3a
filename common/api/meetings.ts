/**
 * Scheduled paid video calls (spec part 2 §1–§9): the form, the calendar, and the room's calls. The five
 * calls of part 2 §7 Meetings keep the spec's paths and fields; the room's own calls (join, pay, kick,
 * end, rate, report, save) follow the `/api/user/<verb>-meeting` pattern.
 */
import { z } from 'zod';
import { MEETING } from '../constants';
import { fill, MSG } from '../messages';
import { defineCall, success } from './define';
import { flag, numeric, oneOf, optionalText, userId } from './fields';
import { COMPLAINT_TYPES } from './stream-interactions';

export const MEETING_AUDIENCES = ['PRIVATE', 'FOLLOWERS'] as const;
/** `scheduled` until the host first joins, `live` while the call runs, `ended` once the host ended it. */
export const MEETING_STATES = ['scheduled', 'live', 'ended'] as const;
export type MeetingState = (typeof MEETING_STATES)[number];
/** The room's conference: the built-in WebRTC mesh over /ws, or a self-hosted Jitsi Meet (CONFERENCE=jitsi). */
export const CONFERENCE_KINDS = ['builtin', 'jitsi'] as const;
export type ConferenceKind = (typeof CONFERENCE_KINDS)[number];

export const meetingId = numeric(z.number({ error: MSG.mustBeMeetingId }).int(MSG.mustBeMeetingId).positive(MSG.mustBeMeetingId).max(Number.MAX_SAFE_INTEGER, MSG.mustBeMeetingId));

/** "12,34" (the spec's comma list) or [12, 34]: one to ten distinct user ids. */
const audienceIds = z
  .preprocess(
    (value) => (typeof value === 'string' ? (value.trim() === '' ? [] : value.split(',').map((part) => part.trim())) : value),
    z.array(userId, { error: MSG.chooseRecipient }).max(50, MSG.maxInviteExceeded),
  )
  .transform((ids) => [...new Set(ids)])
  .pipe(z.array(z.number()).min(1, MSG.chooseRecipient).max(MEETING.maxInvitees, MSG.maxInviteExceeded));

const title = z
  .string({ error: (issue) => (issue.input === undefined ? MSG.titleRequired : MSG.mustBeText) })
  .trim()
  .min(1, MSG.titleRequired)
  .min(MEETING.titleMin, MSG.titleRequired)
  .max(MEETING.titleMax, fill(MSG.atMostChars, { max: MEETING.titleMax }));

/** An instant with its offset, as the form sends it (ISO 8601). "Now or later" is the server's check for new meetings. */
const startTime = z.iso.datetime({ offset: true, error: MSG.validDateTime });

/** The meeting tip in coins; the server rounds it up to a multiple of 10 and clamps it to 250–5000 (spec part 2 §5). */
const tipAmount = numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole).min(0, MSG.coinsNumber).max(1_000_000, MSG.coinsNumber));

export const tipRules = z.strictObject({
  currency: z.literal('CON', { error: oneOf(['CON']) }).default('CON'),
  viewer_min_amount: tipAmount.optional(),
  viewer_max_amount: tipAmount.optional(),
  min_amount: tipAmount.optional(),
  max_amount: tipAmount.optional(),
  subscriber_min_amount: tipAmount.optional(),
  subscriber_max_amount: tipAmount.optional(),
  tip_count: numeric(z.number().int().min(0).max(1000)).optional(),
});

/** The create payload of spec part 2 §3; the product sends audience PRIVATE with the chosen ids. */
export const meetingFields = z.strictObject({
  audience: z.enum(MEETING_AUDIENCES, { error: oneOf(MEETING_AUDIENCES) }).default('PRIVATE'),
  audience_ids: audienceIds,
  category_id: numeric(z.literal(2, { error: oneOf(['2']) })).default(2),
  title,
  pwd: optionalText(64),
  tip_class: z.literal('NORMAL', { error: oneOf(['NORMAL']) }).default('NORMAL'),
  start_time: startTime,
  tip_rules: tipRules.default({ currency: 'CON' }),
  /** The host's IANA time zone, kept to show the time as they meant it. */
  timezone: z.string().trim().max(64).regex(/^[A-Za-z0-9_+\-/]*$/, MSG.timezoneInvalid).optional(),
});
export type MeetingFields = z.input<typeof meetingFields>;

export const createMeeting = defineCall({
  method: 'POST',
  path: '/api/user/create-meeting',
  summary: 'Schedule a paid video call with one to ten of your followers (they are told in the app and by mail)',
  refusals: [403],
  input: meetingFields,
  output: success({ data: z.object({ meeting_id: z.number() }) }),
});

const person = z.object({ id: z.number(), first_name: z.string(), avatar: z.string().nullable() });

/** One meeting in the caller's calendar (spec part 2 §3 Meeting list entry). */
export const meetingListEntry = z.object({
  meeting_id: z.number(),
  /** The meeting's own id: the room's chat, likes and tips are the meeting's, not a broadcast's. */
  stream_id: z.number(),
  start_time: z.string(),
  end_time: z.string(),
  title: z.string(),
  pwd: z.string(),
  state: z.enum(MEETING_STATES),
  is_creator: z.boolean(),
  creator_user_id: z.number(),
  creator_sname: z.string(),
  creator_avatar: z.string().nullable(),
  is_following: z.boolean(),
  audience_ids: z.array(z.number()),
});
export type MeetingListEntry = z.infer<typeof meetingListEntry>;

/** A calendar window's edge: an instant with its offset, in years PostgreSQL stores (1–9999; year 0 does not exist there). */
const windowEdge = z.iso.datetime({ offset: true, error: MSG.validDateTime }).refine((value) => {
  const year = new Date(value).getUTCFullYear();
  return year >= 1 && year <= 9999;
}, MSG.validDateTime);

export const scheduleMeetings = defineCall({
  method: 'GET',
  path: '/api/user/schedule-meetings',
  summary: "The caller's meetings, hosting and invited, in a time window (default: a month back to three months ahead)",
  input: z.strictObject({ from: windowEdge.optional(), to: windowEdge.optional() }),
  output: success({ meetings: z.array(meetingListEntry) }),
});

export const meetingInvitations = defineCall({
  method: 'GET',
  path: '/api/user/meeting-invitations',
  summary: 'How many calls, not yet over, the caller was invited to since they last opened their calendar (the side bar shows it)',
  input: z.strictObject({}),
  output: success({ count: z.number().int().nonnegative() }),
});

/** The detail of spec part 2 §3, for the host and the invitees. */
export const meetingDetail = z.object({
  id: z.number(),
  title: z.string(),
  pwd: z.string(),
  state: z.enum(MEETING_STATES),
  start_time: z.string(),
  end_time: z.string(),
  timezone: z.string(),
  tip_rule: z.object({ viewer_min_amount: z.number() }),
  audience_ids: z.array(z.number()),
  participants: z.array(person),
  creator: z.object({ id: z.number(), first_name: z.string(), email: z.string(), avatar: z.string().nullable() }),
  /** The caller hosts it. */
  host: z.boolean(),
});
export type MeetingDetail = z.infer<typeof meetingDetail>;

export const scheduleMeeting = defineCall({
  method: 'GET',
  path: '/api/user/schedule-meeting',
  summary: 'One meeting, for its host or an invitee',
  refusals: [404],
  input: z.strictObject({ id: meetingId }),
  output: success({ data: meetingDetail }),
});

export const updateScheduleMeeting = defineCall({
  method: 'POST',
  path: '/api/user/update-schedule-meeting',
  summary: "Change a meeting that has not ended (the host only); newly invited people are told",
  refusals: [403, 404, 409],
  input: z.strictObject({ id: meetingId, params: meetingFields }),
  output: success({ data: z.object({ meeting_id: z.number() }) }),
});

export const deleteScheduleMeeting = defineCall({
  method: 'POST',
  path: '/api/user/delete-schedule-meeting',
  summary: 'Delete a meeting (the host only); a running call ends for everyone',
  refusals: [403, 404],
  input: z.strictObject({ id: meetingId }),
  output: success({ message: z.string() }),
});

/** Where the room's media goes: the built-in mesh with its ICE servers, or Jitsi with its domain and the caller's token. */
export const conference = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('builtin'),
    ice_servers: z.array(z.object({ urls: z.union([z.string(), z.array(z.string())]), username: z.string().optional(), credential: z.string().optional() })),
  }),
  z.object({ kind: z.literal('jitsi'), domain: z.string(), room: z.string(), jwt: z.string() }),
]);
export type Conference = z.infer<typeof conference>;

/** What the room needs to open: the caller's place in it and the conference to connect to. */
export const meetingRoom = z.object({
  meeting: meetingDetail,
  /** The caller paid the meeting tip (the host and a meeting without a price count as paid). */
  paid: z.boolean(),
  /** Coins still owed to enter: the meeting tip less what the caller already paid. */
  owed: z.number(),
  host_present: z.boolean(),
  /** Which conference the room uses, told before payment (the page says at once when the browser cannot join the built-in one). */
  conference_kind: z.enum(['builtin', 'jitsi']),
  /**
   * What opens the conference (the Jitsi token, the mesh's ICE servers): only for the host and for a
   * guest who owes nothing; null until then, so the pay wall is the server's, not the page's (decision 0038).
   */
  conference: conference.nullable(),
});
export type MeetingRoom = z.infer<typeof meetingRoom>;

export const joinMeeting = defineCall({
  method: 'POST',
  path: '/api/user/join-meeting',
  summary: 'Open the room: the caller must be the host or an invitee of a meeting that has not ended',
  refusals: [403, 404, 409],
  input: z.strictObject({ id: meetingId }),
  output: success({ data: meetingRoom }),
});

export const payMeeting = defineCall({
  method: 'POST',
  path: '/api/user/pay-meeting',
  summary: 'Pay the meeting tip, or tip the host during the call (0 % platform fee); idempotent by key',
  refusals: [402, 403, 404, 409],
  idempotencyKey: 'required',
  input: z.strictObject({ id: meetingId, amount: numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole).min(1, MSG.coinsAtLeastOne).max(1_000_000, fill(MSG.coinsAtMost, { max: 1_000_000 }))) }),
  output: success({ paid: z.boolean(), owed: z.number(), balance: z.object({ CON: z.number() }) }),
});

export const kickFromMeeting = defineCall({
  method: 'POST',
  path: '/api/user/kick-meeting-participant',
  summary: 'The host sends a participant out of the call (back to their calendar) until the meeting ends',
  refusals: [403, 404, 409],
  input: z.strictObject({ id: meetingId, user_id: userId }),
  output: success({}),
});

export const endMeeting = defineCall({
  method: 'POST',
  path: '/api/user/end-meeting',
  summary: "The host ends the call: 'Meeting End' goes to the room and everyone sees the ended state",
  refusals: [403, 404, 409],
  input: z.strictObject({ id: meetingId }),
  output: success({}),
});

export const rateMeeting = defineCall({
  method: 'POST',
  path: '/api/user/rate-meeting',
  summary: "A participant rates the host's call once it ended (1–5 stars; a second rating replaces the first)",
  refusals: [403, 404, 409],
  input: z.strictObject({ id: meetingId, rating: numeric(z.number({ error: MSG.ratingStars }).int(MSG.ratingStars).min(1, MSG.ratingStars).max(5, MSG.ratingStars)) }),
  output: success({}),
});

export const reportMeeting = defineCall({
  method: 'POST',
  path: '/api/user/report-meeting',
  summary: 'A participant reports the call to the moderators',
  refusals: [403, 404],
  input: z.strictObject({
    id: meetingId,
    type: z.enum(COMPLAINT_TYPES, { error: (i) => (i.input === undefined || i.input === '' ? MSG.complaintTypeRequired : oneOf(COMPLAINT_TYPES)) }),
    user_comment: optionalText(1000),
  }),
  output: success({ message: z.string() }),
});

export const saveMeeting = defineCall({
  method: 'POST',
  path: '/api/user/save-meeting',
  summary: 'A participant bookmarks the call (save false removes it)',
  refusals: [403, 404],
  input: z.strictObject({ id: meetingId, save: flag }),
  output: success({ saved: z.boolean() }),
});
