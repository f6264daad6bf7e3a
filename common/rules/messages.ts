/**
 * Direct messages (our addition, decision 0086): who may write to whom, and the limits on writing. A
 * member's setting says who may start a conversation with them; a creator may always write to those who
 * follow or subscribe to them; once both have written the conversation is open to both; a block, either
 * way, closes it.
 */
import { PRICE_STEP } from './pay-wall';

/** Who may start a conversation with a member. */
export const MESSAGE_AUDIENCES = ['everyone', 'followers', 'subscribers'] as const;
export type MessageAudience = (typeof MESSAGE_AUDIENCES)[number];

export const DM = {
  /** A message's length limit, in characters as people count them (code points). */
  textMax: 1000,
  /** Messages one sender may send in a minute, to everyone together. */
  perMinute: 30,
  /** An account younger than this starts at most `newAccountConversations` conversations a day. */
  newAccountMs: 24 * 3600_000,
  newAccountConversations: 5,
  /** A page sends DM-TYPING at most this often while its member types; the other page shows it this long. */
  typingEveryMs: 3_000,
  typingShownMs: 6_000,
  /** Messages of a thread per page, and conversations of the list per page. */
  pageSize: 30,
  searchMax: 50,
  /** A paid message's price in coins (decision 0088): a step of PRICE_STEP, up to this. */
  priceMax: 10_000,
} as const;

/** Whom a creator sends one message to at once: their followers, or their subscribers (of every plan, or of one). */
export const BROADCAST_AUDIENCES = ['followers', 'subscribers'] as const;
export type BroadcastAudience = (typeof BROADCAST_AUDIENCES)[number];
export const BROADCAST_STATES = ['sending', 'done'] as const;

/** Messages to many a creator may send in a day. */
export const BROADCASTS_PER_DAY = 5;

/** The longest a client key (one send's idempotency key, made by the page) may be. */
export const CLIENT_KEY = { min: 8, max: 64 } as const;

/** A paid message's price (decision 0088): 0 is free; else a step of PRICE_STEP up to DM.priceMax. */
export const isMessagePrice = (coins: number): boolean =>
  coins === 0 || (Number.isInteger(coins) && coins >= PRICE_STEP && coins <= DM.priceMax && coins % PRICE_STEP === 0);
