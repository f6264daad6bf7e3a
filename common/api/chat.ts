/** A broadcast's chat as stored, for its replay (our addition: the spec's chat is live only). */
import { z } from 'zod';
import { historyMessage } from '../realtime';
import { defineCall, success } from './define';
import { numeric } from './fields';
import { streamId } from './streams';

/** Lines one call answers at most; a replay asks again from where the answer stopped. */
export const REPLAY_CHAT_PAGE = 200;
/** A broadcast's length as a replay can be played, in milliseconds (two days). */
const REPLAY_MAX_MS = 2 * 86_400_000;

export const replayChat = defineCall({
  method: 'GET',
  path: '/api/streams/replay-chat',
  refusals: [402, 403, 404],
  summary: "The broadcast's public chat lines and tips from `from_ms` into it, oldest first, each at its place in the video",
  input: z.strictObject({
    id: streamId,
    from_ms: numeric(z.number().int().min(0).max(REPLAY_MAX_MS)).default(0),
    limit: numeric(z.number().int().min(1).max(REPLAY_CHAT_PAGE)).default(REPLAY_CHAT_PAGE),
  }),
  output: success({
    /** When the broadcast started: line offsets count from it; null when it never went live. */
    started_time: z.string().nullable(),
    lines: z.array(z.object({ offset_ms: z.number(), message: historyMessage })),
    /** Where to ask from for the lines after these (a line at that instant may come again: lines are keyed by type and timetoken); null at the end. */
    next_from_ms: z.number().nullable(),
  }),
});
