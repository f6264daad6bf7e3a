/**
 * Offers on subscription plans (decision 0089): a creator puts a free trial, a discount on the first
 * period or a bundle of months on one of their plans, limited in count and time, and shares its link;
 * a fan takes it with coins (nothing for a trial), and the subscription renews at the plan's full price.
 */
import { z } from 'zod';
import { fill, MSG } from '../messages';
import { OFFER_CODE_PATTERN, OFFER_KINDS, OFFER_RULES } from '../rules/plan-offers';
import { defineCall, success } from './define';
import { flag, numeric } from './fields';
import { planId, subscription } from './subscriptions';
import { balance } from './wallet';

export const offerId = numeric(z.number({ error: MSG.mustBePlanOfferId }).int(MSG.mustBePlanOfferId).positive(MSG.mustBePlanOfferId).max(Number.MAX_SAFE_INTEGER, MSG.mustBePlanOfferId));
export const offerCode = z.string({ error: MSG.mustBeOfferCode }).trim().toLowerCase().regex(OFFER_CODE_PATTERN, MSG.mustBeOfferCode);

const between = (range: { min: number; max: number }, message: string) => numeric(z.number({ error: message }).int(message).min(range.min, message).max(range.max, message));
const daysText = fill(MSG.offerDaysInvalid, OFFER_RULES.trialDays);
const percentText = fill(MSG.offerPercentInvalid, OFFER_RULES.percent);
const maxClaimsText = fill(MSG.offerMaxClaimsInvalid, OFFER_RULES.maxClaims);
const endsAtText = fill(MSG.offerEndsAtInvalid, { days: OFFER_RULES.maxDaysAhead });

/** What each kind takes: a trial its days, a discount its percent, a bundle its months and percent. */
const FIELDS_OF_KIND = { trial: ['days'], discount: ['percent'], bundle: ['months', 'percent'] } as const;

export const offerInput = z.strictObject({
  plan_id: planId,
  kind: z.enum(OFFER_KINDS, { error: MSG.offerKindInvalid }),
  days: between(OFFER_RULES.trialDays, daysText).optional(),
  percent: between(OFFER_RULES.percent, percentText).optional(),
  months: numeric(z.literal(OFFER_RULES.bundleMonths, { error: MSG.offerMonthsInvalid })).optional(),
  /** Limit in count: at most this many fans; none for no limit. */
  max_claims: between(OFFER_RULES.maxClaims, maxClaimsText).nullish(),
  /** Limit in time: the offer can be taken until then (ISO date and time, within a year); none for no end. */
  ends_at: z.iso.datetime({ offset: true, error: endsAtText }).nullish(),
}).superRefine((input, ctx) => {
  const wanted: readonly string[] = FIELDS_OF_KIND[input.kind];
  for (const field of ['days', 'percent', 'months'] as const) {
    const given = input[field] !== undefined;
    if (wanted.includes(field) && !given) {
      ctx.addIssue({ code: 'custom', path: [field], message: field === 'days' ? daysText : field === 'percent' ? percentText : MSG.offerMonthsInvalid });
    }
    if (!wanted.includes(field) && given) ctx.addIssue({ code: 'custom', path: [field], message: MSG.offerFieldNotForKind });
  }
}).meta({ examples: [{ plan_id: 7, kind: 'trial', days: 7, max_claims: 100 }] });
export type OfferInput = z.output<typeof offerInput>;

export const OFFER_STATES = ['open', 'withdrawn', 'ended', 'full'] as const;

export const planOffer = z.object({
  offer_id: z.number(),
  /** The link's code: the offer opens at /offer/<code>. */
  code: z.string(),
  plan_id: z.number(),
  /** The creator. */
  user_id: z.number(),
  kind: z.enum(OFFER_KINDS),
  days: z.number().nullable(),
  percent: z.number().nullable(),
  months: z.number().nullable(),
  max_claims: z.number().nullable(),
  ends_at: z.string().nullable(),
  /** Fans who took it. */
  claims: z.number(),
  created_at: z.string(),
  withdrawn_at: z.string().nullable(),
  state: z.enum(OFFER_STATES),
  /** "7-day free trial", "50% off the first period", "6 months, 15% off". */
  name: z.string(),
  /** The whole offer in a sentence: "Free for 7 days, then 150 Coins a month". */
  terms: z.string(),
  /** Coins for the first period (0 for a trial), and that period as a code. */
  first_price: z.number(),
  first_period: z.string(),
  /** The plan's own price and period, charged at each renewal. */
  plan_name: z.string(),
  plan_price: z.number(),
  plan_period: z.string(),
  plan_period_label: z.string(),
  /** What the plan gives, for people. */
  features: z.array(z.string()),
});
export type PlanOffer = z.infer<typeof planOffer>;

export const offerAdd = defineCall({
  method: 'POST',
  path: '/api/subscription/offer-add',
  refusals: [404, 409],
  summary: "Puts an offer on one of the caller's plans: a free trial (days), a discount on the first period (percent) or a bundle of 3, 6 or 12 months paid at once (percent off); optionally limited in count (max_claims) and time (ends_at)",
  input: offerInput,
  output: success({ offer: planOffer }),
});

export const offerWithdraw = defineCall({
  method: 'POST',
  path: '/api/subscription/offer-withdraw',
  refusals: [404],
  summary: "Withdraws one of the caller's offers: its link no longer subscribes anyone; those who took it keep their subscriptions",
  input: z.strictObject({ offer_id: offerId }),
  output: success({ offer: planOffer }),
});

export const offerList = defineCall({
  method: 'GET',
  path: '/api/subscription/offer-list',
  summary: "The caller's offers on their plans still offered, newest first, each with its claims and state",
  input: z.strictObject({}),
  output: success({ offers: z.array(planOffer) }),
});

export const offerLookup = defineCall({
  method: 'GET',
  path: '/api/subscription/offer',
  refusals: [404],
  summary: "An offer by its link's code: its terms, its creator, and whether the caller may take it now (and why not)",
  input: z.strictObject({ code: offerCode }),
  output: success({
    offer: planOffer,
    creator: z.object({ user_id: z.number(), username: z.string(), avatar: z.string().nullable() }),
    /** The caller may take it now (signed in, not its creator, open, and the caller qualifies). */
    claimable: z.boolean(),
    /** Why not, for people; null when it can be taken (or the caller is not signed in yet). */
    reason: z.string().nullable(),
  }),
});

export const offerClaim = defineCall({
  method: 'POST',
  path: '/api/subscription/claim-offer',
  refusals: [402, 403, 404, 409, 429],
  idempotencyKey: 'required',
  summary: "Takes an offer: subscribes the caller to its plan, the first period at the offer's price in coins (nothing for a free trial) in the transaction that counts the offer taken; renewals are at the plan's full price. Send an Idempotency-Key header",
  input: z.strictObject({ code: offerCode, auto_renew: flag.default(true) }).meta({ examples: [{ code: 'k7mpq2x9ra', auto_renew: true }] }),
  output: success({ message: z.string(), offer: planOffer, subscription, balance, charged: z.number() }),
});
