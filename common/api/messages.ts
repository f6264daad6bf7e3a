/**
 * Direct messages (our addition, decision 0086): one-to-one conversations, each named by the other
 * member's id. Who may start one is the recipient's setting (common/rules/messages.ts). New messages,
 * reads and typing reach both members' pages on their own channels: DM, DM-READ and DM-TYPING.
 */
import { z } from 'zod';
import { fill, MSG } from '../messages';
import { BROADCAST_AUDIENCES, BROADCAST_STATES, CLIENT_KEY, DM, isMessagePrice, MESSAGE_AUDIENCES } from '../rules/messages';
import { defineCall, success } from './define';
import { atMost, flag, numeric, oneOf, userId, wholeNumber } from './fields';
import { reportFields } from './posts';
import { medium, vaultMediumId } from './vault';

export const messageId = numeric(z.number({ error: MSG.mustBeDirectMessageId }).int(MSG.mustBeDirectMessageId).positive(MSG.mustBeDirectMessageId));

/** A message's words when it may also carry a medium instead: empty is allowed, the call checks one of the two. */
const messageText = z.string({ error: MSG.mustBeText }).trim()
  .refine((text) => [...text].length <= DM.textMax, atMost(DM.textMax)).default('');

const messagePrice = numeric(z.number({ error: MSG.mustBeWholeNumber }).int(MSG.mustBeWholeNumber)
  .refine(isMessagePrice, fill(MSG.messagePriceRange, { max: DM.priceMax })))
  .default(0);

/** What a message may carry beside its words: a vault medium, at a price. */
const attachment = { media_id: vaultMediumId.optional(), price: messagePrice };
const wordsOrMedium = (i: { text: string; media_id?: number | undefined }) => i.text.length > 0 || i.media_id !== undefined;
const pricedMedium = (i: { price: number; media_id?: number | undefined }) => i.price === 0 || i.media_id !== undefined;

/** One send's own key, made by the page: a send repeated after a lost answer is the same message. */
const clientKey = z.string({ error: MSG.mustBeClientKey }).regex(new RegExp(`^[A-Za-z0-9_-]{${CLIENT_KEY.min},${CLIENT_KEY.max}}$`), MSG.mustBeClientKey);

export const directMessage = z.object({
  id: z.number(),
  sender_id: z.number(),
  recipient_id: z.number(),
  text: z.string(),
  time: z.iso.datetime(),
  /** A photo or video (decision 0088); its addresses are signed for the caller, and absent in realtime frames (look the message up). */
  media: medium.nullable(),
  /** Coins to open the medium; 0: free. */
  price: z.number(),
  /** The recipient unlocked it (to its sender: whether they did; to its recipient: whether they did). */
  unlocked: z.boolean(),
});
export type DirectMessage = z.infer<typeof directMessage>;

export const messagePartner = z.object({ user_id: z.number(), username: z.string(), avatar: z.string().nullable() });
export type MessagePartner = z.infer<typeof messagePartner>;

/** A conversation as the caller's list shows it: the other member, the last message and what the caller has not read. */
export const conversationSummary = z.object({
  partner: messagePartner,
  last_message: directMessage,
  unread: z.number(),
});
export type ConversationSummary = z.infer<typeof conversationSummary>;

/** `bulk`: whether the member receives the messages creators they follow or subscribe to send to many at once. */
export const messageSettings = z.object({ audience: z.enum(MESSAGE_AUDIENCES), bulk: z.boolean() });
export type MessageSettings = z.infer<typeof messageSettings>;

export const getMessageSettings = defineCall({
  method: 'GET',
  path: '/api/messages/settings',
  summary: 'Who may start a conversation with the caller: everyone, followers or subscribers',
  input: z.strictObject({}),
  output: success({ settings: messageSettings }),
});

export const saveMessageSettings = defineCall({
  method: 'POST',
  path: '/api/messages/save-settings',
  summary: 'Sets who may start a conversation with the caller (conversations already open stay open), and whether they receive creators’ messages to many',
  input: z.strictObject({ audience: z.enum(MESSAGE_AUDIENCES, { error: oneOf(MESSAGE_AUDIENCES) }), bulk: flag.default(true) })
    .meta({ examples: [{ audience: 'followers', bulk: true }] }),
  output: success({ settings: messageSettings }),
});

export const conversations = defineCall({
  method: 'GET',
  path: '/api/messages/conversations',
  summary: "The caller's conversations, the latest first; `search_text` keeps those whose member's name starts with it",
  input: z.strictObject({
    search_text: z.string({ error: MSG.mustBeText }).trim().max(DM.searchMax, atMost(DM.searchMax)).optional(),
    offset: wholeNumber(0, 1_000_000).default(0),
    limit: wholeNumber(1, 50).default(DM.pageSize),
  }),
  output: success({ conversations: z.array(conversationSummary), total: z.number() }),
});

export const unreadMessages = defineCall({
  method: 'GET',
  path: '/api/messages/unread',
  summary: 'How many messages to the caller are unread (the top bar)',
  input: z.strictObject({}),
  output: success({ unread: z.number() }),
});

export const thread = defineCall({
  method: 'GET',
  path: '/api/messages/thread',
  refusals: [404],
  summary: "The caller's conversation with a member, oldest first (`before`: the page before that message), with whether the caller may write and why not",
  input: z.strictObject({
    user_id: userId,
    before: messageId.optional(),
    limit: wholeNumber(1, 100).default(DM.pageSize),
  }),
  output: success({
    partner: messagePartner,
    messages: z.array(directMessage),
    /** More messages before the first of this page. */
    more: z.boolean(),
    /** The newest of the caller's messages the partner has read (0: none). */
    partner_read_id: z.number(),
    may_write: z.boolean(),
    /** Why the caller may not write, as the page shows it; null when they may. */
    refusal: z.string().nullable(),
    blocked_by_me: z.boolean(),
  }),
});

export const sendMessage = defineCall({
  method: 'POST',
  path: '/api/messages/send',
  refusals: [403, 404, 429],
  summary: 'Sends a message to a member who takes messages from the caller; the same `client_key` again answers the message it sent',
  input: z.strictObject({ user_id: userId, text: messageText, ...attachment, client_key: clientKey })
    .refine(wordsOrMedium, { message: MSG.messageOrMedia, path: ['text'] })
    .refine(pricedMedium, { message: MSG.priceNeedsMedia, path: ['price'] })
    .meta({ examples: [{ user_id: 1000002, text: 'Loved the show tonight!', client_key: 'k-3f9c2a71b0' }] }),
  output: success({ message: directMessage }),
});

export const messageLookup = defineCall({
  method: 'GET',
  path: '/api/messages/message',
  refusals: [404],
  summary: 'One message of a conversation of the caller, as the caller sees it (its medium signed for them, or its blurred tile while locked)',
  input: z.strictObject({ message_id: messageId }),
  output: success({ message: directMessage }),
});

export const unlockMessage = defineCall({
  method: 'POST',
  path: '/api/messages/unlock',
  refusals: [404, 409],
  summary: 'Pays a paid message’s price to its sender through the ledger and opens its medium to the caller; once per message (a repeat moves nothing)',
  input: z.strictObject({ message_id: messageId }),
  output: success({ message: directMessage, balance: z.number() }),
});

/** One unlock of a paid message, as its seller's list shows it. */
export const messageUnlock = z.object({
  message_id: z.number(),
  buyer: messagePartner,
  text: z.string(),
  media: medium.nullable(),
  price: z.number(),
  time: z.iso.datetime(),
});
export type MessageUnlock = z.infer<typeof messageUnlock>;

export const messageUnlocks = defineCall({
  method: 'GET',
  path: '/api/messages/unlocks',
  summary: "Who unlocked the caller's paid messages, and which, the latest first",
  input: z.strictObject({ offset: wholeNumber(0, 1_000_000).default(0), limit: wholeNumber(1, 50).default(20) }),
  output: success({ unlocks: z.array(messageUnlock), total: z.number(), coins: z.number() }),
});

export const readMessages = defineCall({
  method: 'POST',
  path: '/api/messages/read',
  refusals: [404],
  summary: "Marks the conversation read up to a message (the partner's page shows Seen); answers the caller's unread count",
  input: z.strictObject({ user_id: userId, message_id: messageId }),
  output: success({ unread: z.number() }),
});

export const blockMember = defineCall({
  method: 'POST',
  path: '/api/messages/block',
  refusals: [404],
  summary: 'Blocks (or unblocks) a member: neither may message the other while blocked',
  input: z.strictObject({ user_id: userId, block: flag }),
  output: success({ blocked: z.boolean() }),
});

export const reportMessage = defineCall({
  method: 'POST',
  path: '/api/messages/report',
  refusals: [403, 404],
  summary: 'Reports a message the caller received to the moderators (the console queue)',
  input: z.strictObject({ message_id: messageId, ...reportFields }),
  output: success({}),
});


/** One message a creator sent to many, with how far its delivery got and how many read it. */
export const messageBroadcast = z.object({
  broadcast_id: z.number(),
  audience: z.enum(BROADCAST_AUDIENCES),
  /** Subscribers of this plan only (null: every plan). */
  plan_id: z.number().nullable(),
  text: z.string(),
  /** The medium it carries, signed for the sender. */
  media: medium.nullable(),
  price: z.number(),
  /** Recipients who unlocked it, and the coins they paid. */
  unlocks: z.number(),
  coins: z.number(),
  state: z.enum(BROADCAST_STATES),
  /** Delivered so far: each recipient has it as a message in their conversation with the creator. */
  delivered: z.number(),
  /** Recipients who have read it. */
  read: z.number(),
  created_time: z.iso.datetime(),
  finished_time: z.iso.datetime().nullable(),
});
export type MessageBroadcast = z.infer<typeof messageBroadcast>;

export const sendToMany = defineCall({
  method: 'POST',
  path: '/api/messages/send-to-many',
  refusals: [403, 404, 429],
  summary: "A creator's one message to all their followers or subscribers (or one plan's): delivered as each recipient's own conversation, leaving out blocks and those who do not take messages to many; the same `client_key` again answers the same sending",
  input: z.strictObject({
    audience: z.enum(BROADCAST_AUDIENCES, { error: oneOf(BROADCAST_AUDIENCES) }),
    plan_id: numeric(z.number({ error: MSG.mustBePlanId }).int(MSG.mustBePlanId).positive(MSG.mustBePlanId)).optional(),
    text: messageText,
    ...attachment,
    client_key: clientKey,
  }).refine(wordsOrMedium, { message: MSG.messageOrMedia, path: ['text'] })
    .refine(pricedMedium, { message: MSG.priceNeedsMedia, path: ['price'] })
    .meta({ examples: [{ audience: 'subscribers', text: 'New set out tonight, thank you all!', client_key: 'b-7d1e22c9f4' }] }),
  output: success({ broadcast: messageBroadcast }),
});

export const broadcasts = defineCall({
  method: 'GET',
  path: '/api/messages/broadcasts',
  summary: "The caller's messages to many, the latest first, with their delivery and reads",
  input: z.strictObject({ offset: wholeNumber(0, 1_000_000).default(0), limit: wholeNumber(1, 50).default(20) }),
  output: success({ broadcasts: z.array(messageBroadcast), total: z.number() }),
});
