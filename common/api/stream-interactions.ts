/** What viewers and owners do around a stream: rate, save, report, ban (spec part 1 §2, §4, §5; part 2 §7). */
import { z } from 'zod';
import { PAGE_SIZE } from '../constants';
import { MSG } from '../messages';
import { defineCall, success } from './define';
import { flag, oneOf, optionalText, userId, numeric } from './fields';
import { streamId, streamTile } from './streams';

export const STAR_RATINGS = [1, 2, 3, 4, 5] as const;

export const sendRating = defineCall({
  method: 'GET',
  path: '/api/streams/send-rating',
  refusals: [403, 404],
  changesState: true,
  summary: "Rate a stream 1–5 stars (the caller's id; not the owner); rating again replaces the earlier rating",
  input: z.strictObject({
    id: userId,
    stream_id: streamId,
    rating: numeric(z.number({ error: MSG.ratingStars }).int(MSG.ratingStars).min(1, MSG.ratingStars).max(5, MSG.ratingStars)),
  }),
  output: success({ rating: z.number(), overall_rating: z.number() }),
});

export const saveStream = defineCall({
  method: 'POST',
  path: '/api/streams/save',
  refusals: [403, 404],
  summary: "Bookmark a stream (save true) or remove the bookmark (save false); not one's own, not private",
  input: z.strictObject({ user_id: userId, stream_id: streamId, save: flag }),
  output: success({ saved: z.boolean() }),
});

export const savedStreams = defineCall({
  method: 'GET',
  path: '/api/streams/saved-streams',
  summary: "The caller's bookmarked streams, newest bookmark first (profile Saved tab)",
  input: z.strictObject({
    offset: numeric(z.number().int().min(0).max(100_000).default(0)),
    limit: numeric(z.number().int().min(1).max(PAGE_SIZE.streams).default(PAGE_SIZE.streams)),
  }),
  output: success({ streams: z.array(streamTile), total: z.number() }),
});

export const COMPLAINT_TYPES = ['inappropriate', 'crime', 'troll', 'other'] as const;

export const reportStream = defineCall({
  method: 'POST',
  path: '/api/streams/report-stream',
  refusals: [403, 404],
  summary: 'File a complaint about a stream (not one’s own); one complaint per viewer and stream, a new one replaces it',
  input: z.strictObject({
    id: streamId,
    type: z.enum(COMPLAINT_TYPES, { error: (i) => (i.input === undefined || i.input === '' ? MSG.complaintTypeRequired : oneOf(COMPLAINT_TYPES)) }),
    user_comment: optionalText(1000),
  }),
  output: success({}),
});

export const banViewer = defineCall({
  method: 'POST',
  path: '/api/streams/ban-viewer',
  refusals: [403, 404],
  summary: 'Ban a viewer from a stream (owner, or UPDATE STREAM_ANY / GRANT PERMISSION): their page blocks and their sockets leave',
  input: z.strictObject({ stream_id: streamId, user_id: userId }),
  output: success({}),
});
