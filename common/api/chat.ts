/** A broadcast's chat as stored, for its replay (our addition: the spec's chat is live only). */
import { z } from 'zod';
import { commentMessage, historyMessage } from '../realtime';
import { defineCall, success } from './define';
import { fill, MSG } from '../messages';
import { numeric, oneOf, userId, usernameField } from './fields';
import { CHAT_AUDIENCES, CHAT_FILTER_ACTIONS, CHAT_RULES } from '../rules/chat-filter';
import { EMOTE_CODE, EMOTES } from '../rules/emotes';
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

export { CHAT_AUDIENCES, CHAT_FILTER_ACTIONS, CHAT_RULES, type ChatAudience, type ChatFilterAction } from '../rules/chat-filter';

/** A broadcaster's chat rules for their streams; `blocked_words` only for the broadcaster and their moderators. */
export const chatRules = z.object({
  /** Seconds a viewer waits between two lines (0: no slow mode). */
  slow_mode_seconds: z.number(),
  audience: z.enum(CHAT_AUDIENCES),
  block_links: z.boolean(),
  /** A line with a link (when blocked) or a blocked word: refused, or held for a moderator to approve. */
  filter_action: z.enum(CHAT_FILTER_ACTIONS),
  blocked_words: z.array(z.string()).optional(),
});
export type ChatRules = z.infer<typeof chatRules>;

export const getChatRules = defineCall({
  method: 'GET',
  path: '/api/streams/chat-rules',
  summary: "A broadcaster's chat rules: slow mode, who may chat, links; the blocked words to the broadcaster and their moderators alone",
  input: z.strictObject({ user_id: userId }),
  output: success({ rules: chatRules }),
});

export const saveChatRules = defineCall({
  method: 'POST',
  path: '/api/streams/save-chat-rules',
  summary: "The chat rules of the caller's streams, or of the streams of a broadcaster who appointed the caller (`user_id`), enforced on every line but the moderators' (recorded in the audit log)",
  refusals: [403],
  input: z.strictObject({
    user_id: userId.optional(),
    slow_mode_seconds: numeric(z.number().int().min(0).max(CHAT_RULES.slowModeMaxSeconds)),
    audience: z.enum(CHAT_AUDIENCES, { error: oneOf(CHAT_AUDIENCES) }),
    block_links: z.boolean(),
    filter_action: z.enum(CHAT_FILTER_ACTIONS, { error: oneOf(CHAT_FILTER_ACTIONS) }).default('refuse'),
    blocked_words: z.array(z.string().trim().min(1).max(CHAT_RULES.blockedWordMax, fill(MSG.atMostChars, { max: CHAT_RULES.blockedWordMax })))
      .max(CHAT_RULES.blockedWordsMax, fill(MSG.blockedWordsTooMany, { max: CHAT_RULES.blockedWordsMax })),
  }).meta({ examples: [{ slow_mode_seconds: 10, audience: 'followers', block_links: true, filter_action: 'hold', blocked_words: ['spoiler'] }] }),
  output: success({ rules: chatRules }),
});

/** Someone a broadcaster appointed to moderate their chat. */
export const chatModerator = z.object({ user_id: z.number(), username: z.string(), name: z.string(), avatar: z.string().nullable() });
export type ChatModerator = z.infer<typeof chatModerator>;

export const chatModerators = defineCall({
  method: 'GET',
  path: '/api/streams/chat-moderators',
  summary: "The people the caller appointed to moderate the chat of their streams",
  input: z.strictObject({}),
  output: success({ moderators: z.array(chatModerator) }),
});

export const addChatModerator = defineCall({
  method: 'POST',
  path: '/api/streams/add-chat-moderator',
  refusals: [404, 409],
  summary: "Appoints a user by name to moderate the chat of the caller's streams (recorded in the audit log)",
  input: z.strictObject({ username: usernameField }).meta({ examples: [{ username: 'viewer1' }] }),
  output: success({ moderators: z.array(chatModerator) }),
});

export const removeChatModerator = defineCall({
  method: 'POST',
  path: '/api/streams/remove-chat-moderator',
  summary: "Dismisses one of the caller's chat moderators (recorded in the audit log)",
  input: z.strictObject({ user_id: userId }),
  output: success({ moderators: z.array(chatModerator) }),
});

/** A line a chat filter held, waiting for a moderator. */
export const heldLine = z.object({ priority: z.boolean(), line: commentMessage });
export type HeldLine = z.infer<typeof heldLine>;

export const chatModeration = defineCall({
  method: 'GET',
  path: '/api/streams/chat-moderation',
  summary: "Whether the caller moderates the stream's chat and, if so, the lines held for a moderator, oldest first",
  input: z.strictObject({ stream_id: streamId }),
  output: success({ moderator: z.boolean(), held: z.array(heldLine) }),
});

const lineOnStream = z.strictObject({ stream_id: streamId, timetoken: z.string().regex(/^\d{1,18}$/, MSG.chatLineUnknown) });

export const deleteChatLine = defineCall({
  method: 'POST',
  path: '/api/streams/delete-chat-line',
  refusals: [404],
  summary: "A moderator of the stream's chat removes a line, shown or held (recorded in the audit log)",
  input: lineOnStream,
  output: success({}),
});

export const approveChatLine = defineCall({
  method: 'POST',
  path: '/api/streams/approve-chat-line',
  refusals: [404],
  summary: 'A moderator of the stream\'s chat shows a held line to everyone (recorded in the audit log)',
  input: lineOnStream,
  output: success({}),
});

export const timeOutChatter = defineCall({
  method: 'POST',
  path: '/api/streams/time-out-chatter',
  refusals: [403, 404],
  summary: "A moderator of the stream's chat keeps a viewer from chatting on the broadcaster's streams for some minutes (recorded in the audit log)",
  input: z.strictObject({
    stream_id: streamId,
    user_id: userId,
    minutes: numeric(z.number().int().min(1).max(CHAT_RULES.timeOutMaxMinutes)),
  }).meta({ examples: [{ stream_id: 1, user_id: 2, minutes: 10 }] }),
  output: success({ until: z.string() }),
});

const platformWords = z.array(z.string().trim().min(1).max(CHAT_RULES.blockedWordMax, fill(MSG.atMostChars, { max: CHAT_RULES.blockedWordMax })))
  .max(CHAT_RULES.platformWordsMax, fill(MSG.blockedWordsTooMany, { max: CHAT_RULES.platformWordsMax }));

export const platformChatFilter = defineCall({
  method: 'GET',
  path: '/api/admin/chat-filter',
  summary: 'The words refused in every chat on the platform',
  input: z.strictObject({}),
  output: success({ words: z.array(z.string()) }),
});

export const setPlatformChatFilter = defineCall({
  method: 'POST',
  path: '/api/admin/chat-filter-set',
  summary: 'Replaces the words refused in every chat on the platform (recorded in the audit log)',
  input: z.strictObject({ words: platformWords }).meta({ examples: [{ words: ['scamlink'] }] }),
  output: success({ words: z.array(z.string()) }),
});

/** A broadcaster's emote: subscribers whose plan is at least `min_plan_level` write it as `:code:` in any chat. */
export const emote = z.object({ code: z.string(), url: z.string(), min_plan_level: z.number() });
export type Emote = z.infer<typeof emote>;

export const emotes = defineCall({
  method: 'GET',
  path: '/api/streams/emotes',
  summary: "A broadcaster's emotes, oldest first",
  input: z.strictObject({ user_id: userId }),
  output: success({ emotes: z.array(emote) }),
});

/** The upload's own fields, in the query (the body is the image, multipart field "file"). */
export const emoteUploadFields = z.strictObject({
  code: z.string().regex(EMOTE_CODE, MSG.emoteCodeShape),
  min_plan_level: numeric(z.number().int().min(1).max(EMOTES.planLevelMax)).default(1),
});

/** Emote upload is multipart (field "file"), its code and plan level in the query; its answer follows this schema. */
export const uploadEmote = {
  method: 'POST' as const,
  path: '/api/streams/upload-emote',
  summary: `Adds an emote to the caller's: an image checked by content, made ${EMOTES.sizePx}×${EMOTES.sizePx} WebP without metadata`,
  output: success({ emotes: z.array(emote) }),
};

export const deleteEmote = defineCall({
  method: 'POST',
  path: '/api/streams/delete-emote',
  refusals: [404],
  summary: "Removes one of the caller's emotes: lines that used it show its code as text",
  input: z.strictObject({ code: z.string().regex(EMOTE_CODE, MSG.emoteCodeShape) }),
  output: success({ emotes: z.array(emote) }),
});
