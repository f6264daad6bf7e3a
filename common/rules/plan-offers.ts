/**
 * Offers on subscription plans (decision 0089): a free trial, a discount on the first period, or a
 * bundle of months paid at once. What an offer's first period costs and lasts, and how it is told to
 * a fan, are computed here alone: the server charges what `firstPeriod` says and the web shows `offerTerms`.
 * After the first period the subscription renews at the plan's own price and period.
 */
import { fill, MSG, type Message } from '../messages';
import { formatCoins } from './wallet-amounts';
import { parsePeriod, type PeriodUnit } from './plans';

export const OFFER_KINDS = ['trial', 'discount', 'bundle'] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];

export const OFFER_RULES = {
  /** A free trial lasts this many days. */
  trialDays: { min: 1, max: 30 },
  /** Percent off a discount's first period or a bundle's months. */
  percent: { min: 5, max: 90 },
  /** A bundle's months, paid at once; bundles are offered on monthly plans only. */
  bundleMonths: [3, 6, 12] as const,
  /** A limit in count: at most this many fans. */
  maxClaims: { min: 1, max: 100_000 },
  /** A limit in time: the offer can be taken until at most this many days ahead. */
  maxDaysAhead: 366,
  /** Offers of one plan that can be taken at once (not withdrawn, not ended, not full). */
  openPerPlan: 3,
  /** The length of an offer's link code. */
  codeLength: 10,
} as const;

/** The alphabet of offer codes: lower-case letters and digits without the look-alikes (0/o, 1/l/i). */
export const OFFER_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const OFFER_CODE_PATTERN = /^[a-z0-9]{6,32}$/;

/** The web path of an offer's link: it opens the creator's profile with the offer in the Subscribe dialog. */
export const offerPath = (code: string) => `/offer/${code}`;

export interface OfferTermsInput {
  kind: OfferKind;
  days: number | null;
  percent: number | null;
  months: number | null;
}

export interface PlanPriceInput {
  price: number;
  period: string;
}

/** A price less `percent` %, rounded to the coin, never below 1 coin. */
export const discounted = (price: number, percent: number): number => Math.max(1, Math.round((price * (100 - percent)) / 100));

/** A bundle needs a plan whose period is one month (rolling or calendar). */
export function isMonthlyPlan(period: string): boolean {
  const parsed = parsePeriod(period);
  return parsed !== null && parsed.unit === 'MONTH' && parsed.count === 1;
}

/**
 * The first period an offer gives: its price in coins (0 for a trial) and its length as a period code.
 * A trial lasts its days; a discount the plan's own period; a bundle its months (calendar plans stay calendar).
 */
export function firstPeriod(offer: OfferTermsInput, plan: PlanPriceInput): { price: number; period: string } {
  if (offer.kind === 'trial') return { price: 0, period: `RDAY:${offer.days ?? 1}` };
  if (offer.kind === 'discount') return { price: discounted(plan.price, offer.percent ?? 0), period: plan.period };
  const months = offer.months ?? 1;
  const calendar = parsePeriod(plan.period)?.calendar ?? false;
  return { price: discounted(plan.price * months, offer.percent ?? 0), period: `${calendar ? 'C' : 'R'}MONTH:${months}` };
}

const UNIT_WORDS: Record<PeriodUnit, [string, string]> = { DAY: ['day', 'days'], WEEK: ['week', 'weeks'], MONTH: ['month', 'months'], YEAR: ['year', 'years'] };

/** "7 days", "1 day", "3 months". */
export const countOf = (n: number, unit: PeriodUnit): string => `${n} ${UNIT_WORDS[unit][n === 1 ? 0 : 1]}`;

/** A period as a length: "month", "3 months" (the first … of a discount). */
export function periodNoun(period: string): string {
  const parsed = parsePeriod(period) ?? { unit: 'DAY' as const, count: 1 };
  return parsed.count === 1 ? UNIT_WORDS[parsed.unit][0] : countOf(parsed.count, parsed.unit);
}

/** How often a price is paid: "a month", "every 3 months". */
export function perPeriod(period: string): string {
  const parsed = parsePeriod(period) ?? { unit: 'DAY' as const, count: 1 };
  return parsed.count === 1 ? `a ${UNIT_WORDS[parsed.unit][0]}` : `every ${countOf(parsed.count, parsed.unit)}`;
}

/** What a fan is offered, in one sentence: "Free for 7 days, then 150 Coins a month". */
export function offerTerms(offer: OfferTermsInput, plan: PlanPriceInput): string {
  const then = { price: formatCoins(plan.price), per: perPeriod(plan.period) };
  const first = firstPeriod(offer, plan);
  if (offer.kind === 'trial') return fill(MSG.offerTrialTerms, { days: countOf(offer.days ?? 1, 'DAY'), ...then });
  if (offer.kind === 'discount') {
    return fill(MSG.offerDiscountTerms, { percent: offer.percent ?? 0, period: periodNoun(plan.period), offer: formatCoins(first.price), ...then });
  }
  return fill(MSG.offerBundleTerms, {
    months: countOf(offer.months ?? 1, 'MONTH'), offer: formatCoins(first.price), percent: offer.percent ?? 0, full: formatCoins(plan.price * (offer.months ?? 1)), ...then,
  });
}

/** The offer's short name on the creator's list and the dialog's heading: "7-day free trial", "50% off", "6 months, 15% off". */
export function offerName(offer: OfferTermsInput): string {
  if (offer.kind === 'trial') return fill(MSG.offerTrialName, { days: offer.days ?? 1 });
  if (offer.kind === 'discount') return fill(MSG.offerDiscountName, { percent: offer.percent ?? 0 });
  return fill(MSG.offerBundleName, { months: offer.months ?? 1, percent: offer.percent ?? 0 });
}

export type OfferState = 'open' | 'withdrawn' | 'ended' | 'full';

/** Whether an offer can be taken at `now`: withdrawn, past its end, or taken by as many fans as it allows. */
export function offerState(offer: { withdrawn_at: string | Date | null; ends_at: string | Date | null; max_claims: number | null; claims: number }, now: Date): OfferState {
  if (offer.withdrawn_at !== null) return 'withdrawn';
  if (offer.ends_at !== null && new Date(offer.ends_at) <= now) return 'ended';
  if (offer.max_claims !== null && offer.claims >= offer.max_claims) return 'full';
  return 'open';
}

/** Why an offer that is not open cannot be taken, for the fan. */
export const OFFER_STATE_TEXTS: Record<Exclude<OfferState, 'open'>, Message> = {
  withdrawn: MSG.offerWithdrawn,
  ended: MSG.offerEnded,
  full: MSG.offerFull,
};
