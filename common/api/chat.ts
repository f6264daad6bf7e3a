/** A broadcast's chat as stored, for its replay (our addition: the spec's chat is live only). */
import { z } from 'zod';
import { historyMessage } from '../realtime';
import { defineCall, success } from './define';
import { fill, MSG } from '../messages';
import { numeric, oneOf, userId } from './fields';
import { CHAT_AUDIENCES, CHAT_RULES } from '../rules/chat-filter';
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

export { CHAT_AUDIENCES, CHAT_RULES, type ChatAudience } from '../rules/chat-filter';

/** A broadcaster's chat rules for their streams; `blocked_words` only for the broadcaster themself. */
export const chatRules = z.object({
  /** Seconds a viewer waits between two lines (0: no slow mode). */
  slow_mode_seconds: z.number(),
  audience: z.enum(CHAT_AUDIENCES),
  block_links: z.boolean(),
  blocked_words: z.array(z.string()).optional(),
});
export type ChatRules = z.infer<typeof chatRules>;

export const getChatRules = defineCall({
  method: 'GET',
  path: '/api/streams/chat-rules',
  summary: "A broadcaster's chat rules: slow mode, who may chat, links; the blocked words to the broadcaster alone",
  input: z.strictObject({ user_id: userId }),
  output: success({ rules: chatRules }),
});

export const saveChatRules = defineCall({
  method: 'POST',
  path: '/api/streams/save-chat-rules',
  summary: "The caller's chat rules for their streams, enforced on every line but their own (recorded in the audit log)",
  input: z.strictObject({
    slow_mode_seconds: numeric(z.number().int().min(0).max(CHAT_RULES.slowModeMaxSeconds)),
    audience: z.enum(CHAT_AUDIENCES, { error: oneOf(CHAT_AUDIENCES) }),
    block_links: z.boolean(),
    blocked_words: z.array(z.string().trim().min(1).max(CHAT_RULES.blockedWordMax, fill(MSG.atMostChars, { max: CHAT_RULES.blockedWordMax })))
      .max(CHAT_RULES.blockedWordsMax, fill(MSG.blockedWordsTooMany, { max: CHAT_RULES.blockedWordsMax })),
  }).meta({ examples: [{ slow_mode_seconds: 10, audience: 'followers', block_links: true, blocked_words: ['spoiler'] }] }),
  output: success({ rules: chatRules }),
});
