/** Tips on streams, supporters and earnings (spec part 1 §2 Tip selector, §3, §4; part 2 §7, §8). */
import { z } from 'zod';
import { fill, MSG } from '../messages';
import { defineCall, success } from './define';
import { numeric, requiredText, userId } from './fields';
import { streamId } from './streams';
import { balance } from './wallet';

/** The amounts the tip selector offers (spec part 2 §9). */
export const QUICK_TIPS = [5, 10, 20, 100, 200] as const;
export const TIP_MAX = 100_000;
/** A tip's optional message, in characters as people count them (code points); shown with the tip's chat line. */
export const TIP_MESSAGE_MAX = 140;

/** The rules of a tip's amount: whole coins, at least one, at most TIP_MAX (the custom amount field uses them too). */
export const tipAmount = numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole).min(1, MSG.coinsAtLeastOne)
  .max(TIP_MAX, `Must be at most ${TIP_MAX} coins`));

/** Trimmed; blank means none. NUL is refused for every text by the HTTP input guard; the web escapes on display. */
export const tipMessageField = z.string({ error: MSG.mustBeText }).max(4 * TIP_MESSAGE_MAX, `At most ${TIP_MESSAGE_MAX} characters`)
  .transform((text) => text.trim())
  .refine((text) => [...text].length <= TIP_MESSAGE_MAX, `At most ${TIP_MESSAGE_MAX} characters`)
  .transform((text) => (text === '' ? undefined : text));

/** A tip menu's limits: actions a broadcaster offers, characters of an action's name. */
export const TIP_MENU = { itemsMax: 20, labelMax: 60 } as const;

/** An action of a tip menu, or a request from one, by its number. */
const menuId = numeric(z.number({ error: MSG.mustBeMenuId }).int(MSG.mustBeMenuId).positive(MSG.mustBeMenuId));

/** An action of a broadcaster's tip menu, at its price in coins. */
export const tipMenuItem = z.object({ item_id: z.number(), label: z.string(), price: z.number() });
export type TipMenuItem = z.infer<typeof tipMenuItem>;

/** An action as the broadcaster writes it: what they will do (trimmed, not blank), and its price as a tip's amount. */
export const menuItemInput = z.strictObject({
  label: requiredText(MSG.menuLabelNeeded, TIP_MENU.labelMax),
  price: tipAmount,
});
export type MenuItemInput = z.infer<typeof menuItemInput>;

export const sendTip = defineCall({
  method: 'POST',
  path: '/api/streams/send-tip',
  refusals: [402, 403, 404, 409, 429],
  idempotencyKey: 'required',
  summary: 'Tip the broadcaster in coins; send an Idempotency-Key header so a retry tips once',
  input: z.strictObject({
    stream_id: streamId,
    amount: tipAmount,
    /** Optional, shown to the stream with the tip (our addition: the spec's call has stream_id and amount only). */
    message: tipMessageField.optional(),
    /** An action of the broadcaster's tip menu this tip buys: the amount must be its price. */
    menu_item_id: menuId.optional(),
  }).meta({ examples: [{ stream_id: 42, amount: 20 }, { stream_id: 42, amount: 150, message: 'Great show!' }] }),
  output: success({
    transfer_id: z.number(),
    has_paid: z.boolean(),
    viewer_spend: z.object({ currency: z.literal('CON'), amount: z.number() }),
    balance,
  }),
});

export const tipMenu = defineCall({
  method: 'GET',
  path: '/api/streams/tip-menu',
  summary: "A broadcaster's tip menu: the actions a viewer may tip for, at their prices",
  input: z.strictObject({ user_id: userId }),
  output: success({ items: z.array(tipMenuItem) }),
});

export const saveTipMenu = defineCall({
  method: 'POST',
  path: '/api/streams/save-tip-menu',
  summary: "Replaces the caller's tip menu (an empty list: no menu)",
  input: z.strictObject({
    items: z.array(menuItemInput).max(TIP_MENU.itemsMax, fill(MSG.menuTooLong, { max: TIP_MENU.itemsMax })),
  }).meta({ examples: [{ items: [{ label: 'Sing a song', price: 50 }, { label: 'Dance', price: 100 }] }] }),
  output: success({ items: z.array(tipMenuItem) }),
});

/** An action a viewer bought on the stream, for the broadcaster's queue. */
export const menuRequest = z.object({
  /** The tip's transfer (the TIP line's timetoken). */
  request_id: z.number(),
  user_id: z.number(),
  name: z.string(),
  avatar: z.string().nullable(),
  label: z.string(),
  price: z.number(),
  time: z.string(),
  done: z.boolean(),
});
export type MenuRequest = z.infer<typeof menuRequest>;

export const menuRequests = defineCall({
  method: 'GET',
  path: '/api/streams/menu-requests',
  refusals: [404],
  summary: "The owner's queue of actions viewers bought from the tip menu on this stream, oldest first",
  input: z.strictObject({ id: streamId }),
  output: success({ requests: z.array(menuRequest) }),
});

export const markMenuRequest = defineCall({
  method: 'POST',
  path: '/api/streams/mark-menu-request',
  refusals: [404],
  summary: 'The owner ticks an action of the queue off as done (or back)',
  input: z.strictObject({ stream_id: streamId, request_id: menuId, done: z.boolean() }),
  output: success({ request: menuRequest }),
});

export const supporter = z.object({ user_id: z.number(), name: z.string(), avatar: z.string().nullable(), amt: z.number(), amtFormatted: z.string() });
export type Supporter = z.infer<typeof supporter>;

export const streamSupporters = defineCall({
  method: 'GET',
  path: '/api/streams/supporters',
  summary: "A stream's top tippers, most coins first",
  input: z.strictObject({ id: streamId, limit: numeric(z.number().int().min(1).max(50).default(5)) }),
  output: success({ supporters: z.array(supporter) }),
});

/** One tip as the broadcaster's live view lists it. */
export const tipRecord = z.object({
  transfer_id: z.number(),
  user_id: z.number(),
  name: z.string(),
  avatar: z.string().nullable(),
  amount: z.number(),
  time: z.string(),
});
export type TipRecord = z.infer<typeof tipRecord>;

export const liveSession = defineCall({
  method: 'GET',
  path: '/api/streams/live-session',
  refusals: [404],
  summary: "The owner's live view of their stream: the session's earnings (coins tipped, and what reached their wallet after fees), the latest tips, top supporters, viewers",
  input: z.strictObject({ id: streamId }),
  output: success({
    earnings: z.object({ currency: z.literal('CON'), tips: z.number(), gross: z.number(), net: z.number() }),
    tips: z.array(tipRecord),
    supporters: z.array(supporter),
    viewers: z.number(),
    tviewers: z.number(),
  }),
});

export const userEarningDetails = defineCall({
  method: 'GET',
  path: '/api/user/user-earning-details',
  refusals: [403, 404],
  summary: "A broadcaster's earnings (GRANT PERMISSION): dates and coin totals",
  input: z.strictObject({ id: userId }),
  output: success({
    accountCreated: z.string(),
    lastStreamDate: z.string().nullable(),
    maxTipReceivedDate: z.string().nullable(),
    maxTipSentDate: z.string().nullable(),
    totalEarnings: z.number(),
    totalMonthlyEarnings: z.number(),
  }),
});
