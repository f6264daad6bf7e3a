/** Live streams (spec part 1 §2 Stream view, Broadcaster dashboard, §3 Stream info, §4, §5; part 2 §7). */
import { z } from 'zod';
import { isPriceStep } from '../rules/pay-wall';
import { PAGE_SIZE, SEARCH_MIN_CHARS } from '../constants';
import { fill, MSG } from '../messages';
import { defineCall, success } from './define';
import { atMost, flag, oneOf, optionalText, userId, numeric } from './fields';

export const AUDIENCES = ['PUBLIC', 'FOLLOWERS', 'SUBSCRIBERS', 'PRIVATE'] as const;
export const RATINGS = ['G', 'PLUS_14', 'PLUS_18'] as const;
export { LIVE_TAG } from '../rules/stream-display';

/** Stream payment: coins a viewer tips to watch (spec part 1 §5 Broadcast setup, part 2 §9: 0–1000 step 10). */
export const TIP_VIEWER_MIN_MAX = 1000;

export const tipViewerMinAmount = numeric(z.number({ error: MSG.tipPositive })
  .int(MSG.tipMultipleOf10)
  .min(0, MSG.tipPositive)
  .max(TIP_VIEWER_MIN_MAX, fill(MSG.coinsAtMost, { max: TIP_VIEWER_MIN_MAX }))
  .refine(isPriceStep, MSG.tipMultipleOf10));

export const streamId = numeric(z.number({ error: MSG.mustBeStreamId }).int(MSG.mustBeStreamId).positive(MSG.mustBeStreamId));

/** A tip goal's limits: coins to raise, its description's length, goals one broadcast may queue at once. */
export const GOAL = { amountMax: 1_000_000, descriptionMax: 120, queueMax: 5 } as const;

/**
 * One tip goal of a broadcast (the stream info's `goal` is the active one): coins tipped on the stream
 * since it became active count towards it; reaching it starts the next in the queue, with what went past.
 */
export const streamGoal = z.object({
  goal_id: z.number(),
  /** Its place among the broadcast's goals, from 1. */
  position: z.number(),
  amount: z.number(),
  /** Coins raised towards it (at most `amount`). */
  raised: z.number(),
  description: z.string(),
  /** active: the one tips count towards; queued: next; reached: done (kept with the broadcast). */
  state: z.enum(['active', 'queued', 'reached']),
  reached_time: z.string().nullable(),
});
export type StreamGoal = z.infer<typeof streamGoal>;

export const streamInfo = z.object({
  stream_id: z.number(),
  user_id: z.number(),
  username: z.string(),
  full_name: z.string(),
  avatar: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  audience: z.enum(AUDIENCES),
  rating: z.enum(RATINGS),
  /** 'Y' while the encoder publishes (LIVE), else 'N' (REPLAY). */
  live: z.enum(['Y', 'N']),
  ended: z.boolean(),
  hidden: z.boolean(),
  ready: z.boolean(),
  started_time: z.string().nullable(),
  /** Seconds of video. */
  stream_length: z.number(),
  thumbnail_url: z.string().nullable(),
  likes: z.number(),
  rlikes: z.number(),
  stream_viewer_likes: z.number(),
  /** Viewers watching now, the broadcaster not counted (the page shows this minus 2, floored at 0; the dashboard this itself). */
  viewers: z.number(),
  tviewers: z.number(),
  chat_enabled: z.boolean(),
  stream_featured_by_user: z.boolean(),
  tip_viewer_min_amount: z.number(),
  currency: z.literal('CON'),
  is_following: z.boolean(),
  following_notify: z.boolean(),
  /** Something can be played now: live, or an ended stream with a replay. */
  playable: z.boolean(),
  source_type: z.literal('RTMP'),
  width: z.number().nullable(),
  height: z.number().nullable(),
  is_owner: z.boolean(),
  /** The caller bookmarked this stream. */
  saved: z.boolean(),
  has_rated: z.boolean(),
  /** The caller's own rating (1–5), 0 when not rated. */
  viewer_rating: z.number(),
  /** The caller may read and write the priority chat channel (owner, or a subscriber when the skin has subscriptions). */
  priority_chat: z.boolean(),
  /** Coins the caller tipped on this stream. */
  viewer_spend: z.object({ currency: z.literal('CON'), amount: z.number() }),
  /** Coins the caller still has to tip to watch (minimum − viewer_spend, floored at 0; spec part 1 §4 owed tips). */
  tip_owed: z.number(),
  /** Nothing is owed (tip_owed is 0). */
  has_paid: z.boolean(),
  /** The server lets the caller watch whatever is owed: the owner, admins, GRANT PERMISSION, UPDATE STREAM_ANY, ALLOW REPORT_STREAM_HIDE. */
  skip_paywall: z.boolean(),
  /** The caller holds a paid-up subscription to the broadcaster. */
  subscribed: z.boolean(),
  /** The caller's plan discount off the viewer minimum (fraction; 1 = no pay wall, 0 when not subscribed); pages show it × 100, rounded. */
  tip_subscriber_discount: z.number(),
  /** What the caller must tip as a subscriber (the viewer minimum when not subscribed). */
  tip_subscriber_min_amount: z.number(),
  /** The caller's plan hides ads (for the ads of the stream page). */
  no_ads: z.boolean(),
  /** The stream's ad campaign (the offers its broadcaster attached), null without one. */
  campaign_id: z.number().nullable(),
  /** Offers are attached to the stream (pre-roll, banner, chat ads to ask offer-presentation for). */
  has_offers: z.boolean(),
  /** The tip goal tips count towards now, null without one. */
  goal: streamGoal.nullable(),
});
export type StreamInfo = z.infer<typeof streamInfo>;

export const ownStream = streamInfo.extend({
  rtmp_url: z.string(),
  broadcast_key: z.string(),
});

export const getLiveStream = defineCall({
  method: 'POST',
  path: '/api/streams/get-live-stream',
  refusals: [403],
  summary: "The caller's current stream (created hidden on first use), with the RTMP address and key",
  input: z.strictObject({}),
  output: success({ stream: ownStream }),
});

/** Spec part 1 §5: a stream title has at least 2 letters. */
export const TITLE_MIN = 2;

const titleField = z
  .string({ error: (i) => (i.input === undefined ? MSG.titleRequired : MSG.mustBeText) })
  .trim()
  .min(1, MSG.titleRequired)
  .min(TITLE_MIN, fill(MSG.titleTooShort, { min: TITLE_MIN }))
  .max(120, atMost(120));

export const updateStreamInfo = defineCall({
  method: 'POST',
  path: '/api/streams/update-stream-info',
  refusals: [403, 404],
  summary: 'Broadcast setup or edit: title (the live tag is appended), audience, rating, chat, stream payment (tip_viewer_min_amount; once above 0 it stays above 0); marks the stream ready',
  input: z.strictObject({
    id: streamId,
    data: z
      .strictObject({
        title: titleField.optional(),
        description: optionalText(1000),
        audience: z.enum(AUDIENCES, { error: oneOf(AUDIENCES) }).optional(),
        rating: z.enum(RATINGS, { error: oneOf(RATINGS) }).optional(),
        chat_enabled: flag.optional(),
        tip_viewer_min_amount: tipViewerMinAmount.optional(),
      })
      .refine((d) => Object.keys(d).length > 0, MSG.nothingToUpdate),
  }),
  output: success({ stream: streamInfo }),
});

export const regenerateKey = defineCall({
  method: 'POST',
  path: '/api/streams/regenerate-key',
  refusals: [403],
  summary: 'A new stream key for the caller; the old one stops working and a broadcast on it ends',
  input: z.strictObject({}),
  output: success({ broadcast_key: z.string() }),
});

export const goLive = defineCall({
  method: 'POST',
  path: '/api/streams/go-live',
  refusals: [403, 404],
  summary: 'Show the stream to viewers (needs the setup saved first)',
  input: z.strictObject({ id: streamId }),
  output: success({ stream: streamInfo }),
});

export const endStream = defineCall({
  method: 'POST',
  path: '/api/streams/end-stream',
  refusals: [404, 409],
  summary: "The owner ends their live broadcast: the encoder is disconnected and the recording becomes the replay (moderators use report-stream-action's END_STREAM)",
  input: z.strictObject({ id: streamId }),
  output: success({ stream: streamInfo }),
});

/** What the ingest measures of the encoder's feed (null figures until measured). */
export const ingestHealth = z.object({
  /** starting: connected, no video segment yet; reconnecting: the encoder dropped and may come back (grace). */
  state: z.enum(['starting', 'live', 'reconnecting', 'ending']),
  bitrate_kbps: z.number().nullable(),
  frame_rate: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  /** Seconds between the last two keyframes. */
  keyframe_interval: z.number().nullable(),
  video_codec: z.string().nullable(),
  audio_codec: z.string().nullable(),
  /** Seconds of the feed the bitrate and frame rate are measured over. */
  measured_seconds: z.number(),
  /** What the broadcaster should fix, in words (a keyframe interval above the recommended one). */
  warnings: z.array(z.string()),
});
export type IngestHealth = z.infer<typeof ingestHealth>;

export const streamIngestHealth = defineCall({
  method: 'GET',
  path: '/api/streams/ingest-health',
  refusals: [404],
  summary: "The owner's view of the feed their encoder sends, measured at the RTMP ingest: bitrate, frame rate, resolution, keyframe interval; null when no encoder publishes",
  input: z.strictObject({ id: streamId }),
  output: success({ ingest: ingestHealth.nullable() }),
});

export const streamJoin = defineCall({
  method: 'POST',
  path: '/api/streams/stream-join',
  refusals: [402, 403, 404, 429],
  summary: 'Join a stream: answers the signed HLS address; "block" for a banned viewer; 402 "payment_required" while tips are owed; 429 with Retry-After past the joins one address may make a minute',
  input: z.strictObject({
    stream_id: streamId,
    isHls: flag.optional(),
    rating: z.enum(RATINGS).optional(),
    preview: flag.optional(),
  }),
  output: success({
    stream: streamInfo,
    url: z.object({ hls: z.string(), dash: z.string().nullable(), file: z.string().nullable(), width: z.number(), height: z.number() }),
  }),
});

export const streamLookup = defineCall({
  method: 'GET',
  path: '/api/streams/stream-lookup',
  refusals: [403, 404],
  summary: 'A stream as the caller may see it',
  input: z.strictObject({ id: streamId }),
  output: success({ stream: streamInfo }),
});

export const leaveStream = defineCall({
  method: 'POST',
  path: '/api/streams/leave-stream',
  refusals: [404],
  summary: 'Leave a stream, saving the likes given while watching',
  input: z.strictObject({ id: streamId, likes: numeric(z.number().int().min(0).max(100_000).optional()) }),
  output: success({}),
});

export const deleteStream = defineCall({
  method: 'POST',
  path: '/api/streams/delete',
  refusals: [404],
  summary: 'Delete a stream (owner, or a moderator with GRANT PERMISSION)',
  input: z.strictObject({ id: streamId }),
  output: success({}),
});

export const addStreamThumbnail = defineCall({
  method: 'POST',
  path: '/api/streams/add-stream-thumbnail',
  refusals: [404],
  summary: 'Grab a new thumbnail from the live video (owner or UPDATE STREAM_ANY)',
  input: z.strictObject({ id: streamId }),
  output: success({ thumbnail_url: z.string() }),
});

export const MODERATION_EVENTS = [
  'END_STREAM',
  'DELETE_STREAM',
  'SUSPEND_USER',
  'MAKE_FEATURED',
  'REMOVE_FEATURED',
  'MAKE_FOLLOWERS_ONLY',
  'MOVE_TO_18',
  'CHANGE_THUMBNAIL',
  'SET_STREAM_PAID',
  'MOVE_USER_TO_MEN',
  'MOVE_USER_TO_WOMEN',
] as const;

export const reportStreamAction = defineCall({
  method: 'POST',
  path: '/api/streams/report-stream-action',
  refusals: [403],
  summary: 'Moderator actions: End/Delete Stream and Suspend User need GRANT PERMISSION, the rest UPDATE STREAM_ANY',
  input: z.strictObject({
    stream_ids: z.array(streamId).min(1).max(50),
    event: z.enum(MODERATION_EVENTS, { error: oneOf(MODERATION_EVENTS) }),
    user_comment: optionalText(500),
  }),
  output: success({ affected: z.number() }),
});

export const streamTile = z.object({
  stream_id: z.number(),
  user_id: z.number(),
  title: z.string(),
  avatar: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  username: z.string(),
  audience: z.enum(AUDIENCES),
  rating: z.enum(RATINGS),
  tip_viewer_min_amount: z.number(),
  likes: z.number(),
  rlikes: z.number(),
  started_time: z.string().nullable(),
  live: z.enum(['Y', 'N']),
  viewers: z.number(),
});
export type StreamTile = z.infer<typeof streamTile>;

const page = {
  offset: numeric(z.number().int().min(0).max(100_000).default(0)),
  limit: numeric(z.number().int().min(1).max(PAGE_SIZE.streams).default(PAGE_SIZE.streams)),
};

export const userStreams = defineCall({
  method: 'GET',
  path: '/api/streams/user-streams',
  summary: "A user's streams for the profile Streams tab (live first, then replays, newest first)",
  input: z.strictObject({ id: userId, isAdult: flag.optional(), ...page }),
  output: success({ streams: z.array(streamTile), total: z.number() }),
});

export const listChannelStreams = defineCall({
  method: 'GET',
  path: '/api/channel/list-channel-streams',
  refusals: [404],
  summary: 'Streams of a channel (Popular, Women, Men, Live, Discover, Following, 18+), 50 a page',
  input: z.strictObject({ id: numeric(z.number().int().positive().max(2_147_483_647)), ...page }),
  output: success({ streams: z.array(streamTile), total: z.number() }),
});

export const listStreams = defineCall({
  method: 'GET',
  path: '/api/channel/list-streams',
  summary: 'Every listed stream, live first, 50 a page',
  input: z.strictObject({ ...page }),
  output: success({ streams: z.array(streamTile), total: z.number() }),
});

export const searchStream = defineCall({
  method: 'GET',
  path: '/api/channel/search-stream',
  summary: 'Streams whose title or broadcaster name contains the search, 50 a page',
  input: z.strictObject({ search: z.string().trim().min(SEARCH_MIN_CHARS, fill(MSG.searchMin, { n: SEARCH_MIN_CHARS })).max(100), ...page }),
  output: success({ streams: z.array(streamTile), total: z.number() }),
});
