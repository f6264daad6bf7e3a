/**
 * Subscriptions (spec part 1 §1, §2 Subscription dashboard, §3 Plan template, Plan, Subscription, §4, §5,
 * §6; part 2 §3, §4 Other, §7 Subscriptions, §8, §9). Plans are made from templates; a subscription is
 * paid in coins through the ledger and renews at the end of each period while auto-renewing.
 */
import { z } from 'zod';
import { PAGE_SIZE } from '../constants';
import { fill, MSG } from '../messages';
import { SUBSCRIPTION_STATES } from '../rules/plans';
import { defineCall, success } from './define';
import { flag, numeric, oneOf, userId } from './fields';
import { balance, checkout, depositOutcome, oneOfMethods, paymentIdField, PAYMENT_METHODS, returnPath } from './wallet';

/** Currencies a plan can be priced in: coins, paid from the coin wallet. */
export const PLAN_CURRENCIES = ['CON'] as const;
export type PlanCurrency = (typeof PLAN_CURRENCIES)[number];

const positiveId = (error: string) => numeric(z.number({ error }).int(error).positive(error));
export const planId = positiveId(MSG.mustBePlanId);
export const templateId = positiveId(MSG.mustBePlanTemplateId);
export const subscriptionId = positiveId(MSG.mustBeSubscriptionId);
const currencyField = z.enum(PLAN_CURRENCIES, { error: oneOf(PLAN_CURRENCIES) });

const page = {
  offset: numeric(z.number().int().min(0).max(1_000_000).default(0)),
  limit: numeric(z.number().int().min(1).max(50).default(PAGE_SIZE.subscriptions)),
};

/** What a plan gives its subscribers (spec part 1 §1): each also described in `features` for people. */
export const planBenefits = z.object({
  priority_chat: z.boolean(),
  /** A paid stream's pay wall lifted (the same as a discount of 1). */
  no_paywall: z.boolean(),
  no_ads: z.boolean(),
  /** Fraction (0–1) off a paid stream's viewer minimum: the subscriber minimum; 1 means no pay wall. */
  discount: z.number(),
});
export type PlanBenefits = z.infer<typeof planBenefits>;

const usd = z.object({ USD: z.number() });

export const templatePrice = z.object({
  price: z.number(),
  currency: z.enum(PLAN_CURRENCIES),
  /** A period code: DAY, RDAY, CDAY, RWEEK, CWEEK, RMONTH, CMONTH, RYEAR, CYEAR, with ":count". */
  period: z.string(),
  /** Daily, Weekly, Monthly, Quarterly, Yearly, or 'Every N …'. */
  period_label: z.string(),
  description: z.string(),
  effective_date: z.string(),
  price_by_currency: usd,
  /** The caller already has a plan of this template at this price and currency (the price is disabled). */
  added: z.boolean(),
});

export const planTemplate = z.object({
  template_id: z.number(),
  name: z.string(),
  description: z.string(),
  level: z.number(),
  features: z.array(z.string()),
  benefits: planBenefits,
  prices: z.array(templatePrice),
});
export type PlanTemplate = z.infer<typeof planTemplate>;

export const plan = z.object({
  plan_id: z.number(),
  template_id: z.number(),
  user_id: z.number(),
  name: z.string(),
  description: z.string(),
  level: z.number(),
  features: z.array(z.string()),
  benefits: planBenefits,
  price: z.number(),
  currency: z.enum(PLAN_CURRENCIES),
  period: z.string(),
  period_label: z.string(),
  price_by_currency: usd,
  /** This plan's price option, in the spec's list form. */
  prices: z.array(z.object({ price: z.number(), currency: z.enum(PLAN_CURRENCIES), period: z.string() })),
  /** Plans of one template form a group; discounts compare within it. */
  group_id: z.number(),
  /** The caller may subscribe to it now (signed in, not the owner, not subscribed to this creator). */
  qualified: z.boolean(),
  /** Whole percent saved per day against the group's first plan. */
  discount: z.number(),
  bestPrice: z.boolean(),
});
export type Plan = z.infer<typeof plan>;

export const historyEntry = z.object({
  category: z.enum(['SUBSCRIBED', 'RENEWED', 'RENEWAL_FAILED', 'AUTO_RENEW_ON', 'CANCELLED', 'PLAN_DELETED', 'EXPIRED']),
  detail: z.string(),
  entry_date: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

export const subscription = z.object({
  subscription_id: z.number(),
  plan_id: z.number(),
  /** The creator subscribed to. */
  plan_user_id: z.number(),
  plan_name: z.string(),
  plan_level: z.number(),
  /** The other party: the creator in the caller's subscriptions, the subscriber in the caller's subscribers. */
  user_id: z.number(),
  username: z.string(),
  avatar: z.string().nullable(),
  price: z.number(),
  price_formatted: z.string(),
  currency: z.enum(PLAN_CURRENCIES),
  price_by_currency: usd,
  period: z.string(),
  period_label: z.string(),
  features: z.array(z.string()),
  benefits: planBenefits,
  auto_renew: z.boolean(),
  begin_date: z.string(),
  /** The end of the paid period. */
  end_date: z.string(),
  /** When the next period is charged; null when it will not renew. */
  renewal_date: z.string().nullable(),
  state: z.enum(SUBSCRIPTION_STATES),
  /** The subscriber has the plan's benefits now (paid period not over). */
  active: z.boolean(),
  history: z.array(historyEntry).optional(),
});
export type Subscription = z.infer<typeof subscription>;

export const coinSubscription = z.object({
  id: z.number(),
  iap_product_id: z.string(),
  name: z.string(),
  product_name: z.string(),
  price_formatted: z.string(),
  sale_price: z.number(),
  state: z.enum(['enabled', 'cancelled']),
  start_date: z.string(),
  expiry_date: z.string(),
  next_renewal_date: z.string().nullable(),
});
export type CoinSubscription = z.infer<typeof coinSubscription>;

export const planTemplates = defineCall({
  method: 'GET',
  path: '/api/subscription/plan-template',
  summary: 'Plan templates a creator makes plans from: features and the prices (period, price, currency) on offer, those already added marked',
  input: z.strictObject({}),
  output: success({ templates: z.array(planTemplate) }),
});

export const planList = defineCall({
  method: 'GET',
  path: '/api/subscription/plan-list',
  refusals: [404],
  summary: "A creator's plans, by group then price, with per-day discounts and the best price",
  input: z.strictObject({ id: userId }),
  output: success({ plans: z.array(plan), subscribed: z.boolean() }),
});

export const planAdd = defineCall({
  method: 'POST',
  path: '/api/subscription/plan-add',
  refusals: [403, 404, 409],
  summary: "Adds a plan from a template at one of the template's prices (needs CREATE PLAN)",
  input: z.strictObject({
    template_id: templateId,
    price: numeric(z.number({ error: MSG.planPriceInvalid }).int(MSG.planPriceInvalid).positive(MSG.planPriceInvalid)),
    currency: currencyField,
  }).meta({ examples: [{ template_id: 1, price: 150, currency: 'CON' }] }),
  output: success({ plan }),
});

export const planMargin = defineCall({
  method: 'POST',
  path: '/api/subscription/margin',
  summary: "The platform's share of a subscription payment in a currency, and the creator's",
  input: z.strictObject({ currency: currencyField }),
  output: success({ currency: z.enum(PLAN_CURRENCIES), margin: z.number(), creator_share: z.number() }),
});

export const planDelete = defineCall({
  method: 'POST',
  path: '/api/subscription/plan-delete',
  refusals: [404, 409],
  summary: 'Withdraws a plan: no new subscriptions or renewals; its subscribers keep it to the end of the paid period',
  input: z.strictObject({ plan_id: planId }),
  output: success({ plan_id: z.number(), subscribers: z.number() }),
});

export const listSubscribers = defineCall({
  method: 'POST',
  path: '/api/subscription/list-subscriber',
  refusals: [403],
  summary: "A creator's subscribers (own, or any for GRANT PERMISSION): active ones, or all with all_subs",
  input: z.strictObject({ user_id: userId, all_subs: flag.default(false), ...page }),
  output: success({ subscriptions: z.array(subscription), total: z.number() }),
});

export const listSubscriptions = defineCall({
  method: 'POST',
  path: '/api/subscription/list-subscription',
  refusals: [403],
  summary: "The caller's subscriptions, newest first (detail adds each one's history)",
  input: z.strictObject({ user_id: userId.optional(), detail: flag.default(false), ...page }),
  output: success({ subscriptions: z.array(subscription), total: z.number() }),
});

export const listCoinSubscriptions = defineCall({
  method: 'POST',
  path: '/api/subscription/list-coin-subscription',
  summary: "The caller's recurring coin packages",
  input: z.strictObject({ ...page }),
  output: success({ subscriptions: z.array(coinSubscription), total: z.number() }),
});

export const lookupSubscription = defineCall({
  method: 'GET',
  path: '/api/subscription/lookup-subscription',
  refusals: [404],
  summary: 'One subscription, to its subscriber or its creator',
  input: z.strictObject({ id: subscriptionId }),
  output: success({ subscription }),
});

export const subscriptionHistory = defineCall({
  method: 'GET',
  path: '/api/subscription/list-subscription-history',
  refusals: [404],
  summary: "A subscription's history (subscribed, renewed, failed renewals, cancelled), to its subscriber or its creator",
  input: z.strictObject({ id: subscriptionId }),
  output: success({ history: z.array(historyEntry) }),
});

export const cancelSubscription = defineCall({
  method: 'POST',
  path: '/api/subscription/cancel-subscription',
  refusals: [404, 409],
  summary: 'Cancels: no more renewals; the benefits stay to the end of the paid period',
  input: z.strictObject({ id: subscriptionId }),
  output: success({ subscription }),
});

export const updateCoinSubscription = defineCall({
  method: 'POST',
  path: '/api/subscription/update-coin-subscription',
  refusals: [404],
  summary: "Support applies a subscriber's e-mailed cancellation request to a recurring coin package",
  input: z.strictObject({ id: subscriptionId, state: z.enum(['enabled', 'cancelled'], { error: oneOf(['enabled', 'cancelled']) }) }),
  output: success({ subscription: coinSubscription }),
});

export const renewSubscription = defineCall({
  method: 'POST',
  path: '/api/subscription/renew-subscription',
  refusals: [402, 404, 409],
  summary: 'Turns auto-renewal back on; a subscription whose period is over is charged for a new one now',
  input: z.strictObject({ id: subscriptionId }),
  output: success({ subscription, balance }),
});

export const subscribe = defineCall({
  method: 'POST',
  path: '/api/subscription/subscribe',
  refusals: [402, 403, 404, 409, 429],
  idempotencyKey: 'required',
  summary: "Subscribes the caller to a creator's plan, paid in coins now (one ledger transfer with the subscription); send an Idempotency-Key header",
  input: z.strictObject({ plan_id: planId, user_id: userId, auto_renew: flag.default(true) })
    .meta({ examples: [{ plan_id: 7, user_id: 1000002, auto_renew: true }] }),
  output: success({ paid: z.literal(true), message: z.string(), subscription, balance }),
});

export const subscribeCheckout = defineCall({
  method: 'POST',
  path: '/api/subscription/subscribe-checkout',
  refusals: [403, 404, 409, 429],
  summary: "Pays a creator's plan on a processor's page (card, PayPal, bitcoin; those this installation takes): the plan's coins are bought as a deposit, and the subscription is taken from them when that deposit is credited (decision 0059)",
  input: z.strictObject({
    plan_id: planId,
    user_id: userId,
    auto_renew: flag.default(true),
    payment_method: z.enum(PAYMENT_METHODS, { error: oneOfMethods }),
    /** The page of this site the payer comes back to (a path); default the subscription dashboard. */
    return_path: returnPath.optional(),
  }).meta({ examples: [{ plan_id: 7, user_id: 1000002, auto_renew: true, payment_method: 'card' }] }),
  output: success({
    /** Send the payer to `redirect_url`. */
    checkout,
    /** The coins bought: the plan's price. */
    coins: z.number(),
    /** What the processor's page asks, in cents of `currency` (20 coins = 1 USD). */
    amount: z.number(),
    currency: z.enum(['USD']),
  }),
});

/** pending until the payment is credited; subscribed; kept: the coins stayed in the wallet (see `message`); unpaid: the payment did not go through. */
export const PLAN_CHECKOUT_STATES = ['pending', 'subscribed', 'kept', 'unpaid'] as const;

export const subscribeCheckoutResult = defineCall({
  method: 'GET',
  path: '/api/subscription/checkout-result',
  refusals: [404],
  summary: "What became of the caller's plan paid on a processor's page: the payment (the processor is asked while it is pending) and the subscription",
  input: z.strictObject({ payment_id: paymentIdField }),
  output: success({
    payment: depositOutcome,
    state: z.enum(PLAN_CHECKOUT_STATES),
    /** kept: why the subscription was not taken, and that the coins are in the wallet. */
    message: z.string().nullable(),
    creator: z.object({ user_id: z.number(), username: z.string() }),
    plan_name: z.string(),
    subscription: subscription.nullable(),
  }),
});

export const subscriberStats = defineCall({
  method: 'GET',
  path: '/api/subscription/subscriber-stats',
  refusals: [403],
  summary: "A creator's subscriber figures (own, or any for GRANT PERMISSION): active and all-time subscribers, coins earned and their worth in USD (20 coins = 1 USD)",
  input: z.strictObject({ id: userId }),
  output: success({
    stats: z.object({
      active_subscribers: z.number(),
      total_subscribers: z.number(),
      plans: z.number(),
      coins_total: z.number(),
      /** Subscriber revenue in USD: 5 % of the coin total (20 coins = 1 USD). */
      revenue_usd: z.number(),
      coins_this_month: z.number(),
    }),
  }),
});

/** The rating threshold refusal's text (spec part 1 §5), for the web and the server alike. */
export const ratingTooLow = (threshold: number) => fill(MSG.subscribeRatingTooLow, { n: threshold });
