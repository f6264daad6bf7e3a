/**
 * Subscription plan rules (spec part 2 §9 Plan periods, part 1 §4 Subscription, §6 pay wall): period
 * codes and their labels, when a period ends, per-day discounts within a plan group, and what a
 * subscriber owes on a paid stream. Server and web both use these; nothing else computes them.
 */
import { COINS_PER_USD } from '../constants';
import { roundUpToStep } from './pay-wall';

export const PERIOD_UNITS = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

export interface PlanPeriod {
  unit: PeriodUnit;
  count: number;
  /** Rolling (R, and a bare unit): the period runs from the purchase. Calendar (C): it ends on a calendar boundary. */
  calendar: boolean;
}

/** DAY, RDAY, CDAY, RWEEK, CWEEK, RMONTH, CMONTH, RYEAR, CYEAR, each with an optional ":count" (1 to 36). */
const PERIOD_PATTERN = /^(R|C)?(DAY|WEEK|MONTH|YEAR)(?::([1-9][0-9]?))?$/;

export function parsePeriod(code: string): PlanPeriod | null {
  const match = PERIOD_PATTERN.exec(code);
  if (!match) return null;
  const unit = match[2] as PeriodUnit;
  // A bare unit is the spec's DAY only; WEEK, MONTH and YEAR always name R or C.
  if (match[1] === undefined && unit !== 'DAY') return null;
  const count = match[3] === undefined ? 1 : Number(match[3]);
  if (count > 36) return null;
  return { unit, count, calendar: match[1] === 'C' };
}

export const isPeriodCode = (code: string): boolean => parsePeriod(code) !== null;

const UNIT_NAMES: Record<PeriodUnit, string> = { DAY: 'Days', WEEK: 'Weeks', MONTH: 'Months', YEAR: 'Years' };

/** Daily, Weekly, Monthly, Quarterly, Yearly, else 'Every N Days/Weeks/Months/Years'. */
export function periodLabel(code: string): string {
  const period = parsePeriod(code);
  if (!period) return code;
  const { unit, count } = period;
  if (count === 1) return { DAY: 'Daily', WEEK: 'Weekly', MONTH: 'Monthly', YEAR: 'Yearly' }[unit];
  if (unit === 'MONTH' && count === 3) return 'Quarterly';
  return `Every ${count} ${UNIT_NAMES[unit]}`;
}

/** Days a period is worth when plans are compared (year 365, month 30, week 7). */
const DAYS_PER_UNIT: Record<PeriodUnit, number> = { DAY: 1, WEEK: 7, MONTH: 30, YEAR: 365 };

export const periodDays = (code: string): number => {
  const period = parsePeriod(code);
  return period ? DAYS_PER_UNIT[period.unit] * period.count : 1;
};

export const pricePerDay = (price: number, period: string): number => price / periodDays(period);

function addUnits(from: Date, unit: PeriodUnit, count: number): Date {
  const next = new Date(from.getTime());
  if (unit === 'DAY') next.setUTCDate(next.getUTCDate() + count);
  else if (unit === 'WEEK') next.setUTCDate(next.getUTCDate() + 7 * count);
  else {
    const months = unit === 'YEAR' ? 12 * count : count;
    const day = next.getUTCDate();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + months);
    // 31 January plus a month is the last day of February, not 3 March.
    const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
    next.setUTCDate(Math.min(day, lastDay));
  }
  return next;
}

/** The start (UTC) of the calendar unit holding `at`: midnight, Monday, the 1st, 1 January. */
function startOfUnit(at: Date, unit: PeriodUnit): Date {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  if (unit === 'WEEK') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  if (unit === 'MONTH') start.setUTCDate(1);
  if (unit === 'YEAR') start.setUTCMonth(0, 1);
  return start;
}

/**
 * When a period that starts at `start` ends. Rolling: `count` units later. Calendar-aligned: at the
 * start of the unit `count` units after the one holding `start` (a CMONTH bought on the 23rd ends on the 1st).
 */
export function periodEnd(start: Date, code: string): Date {
  const period = parsePeriod(code) ?? { unit: 'DAY', count: 1, calendar: false };
  if (!period.calendar) return addUnits(start, period.unit, period.count);
  return addUnits(startOfUnit(start, period.unit), period.unit, period.count);
}

/** What a subscriber must have tipped on a paid stream: the viewer minimum less the plan's discount, in steps of 10; a discount of 1 is no pay wall. */
export function subscriberMinimum(viewerMinimum: number, discount: number): number {
  if (viewerMinimum <= 0 || discount >= 1) return 0;
  if (discount <= 0) return viewerMinimum;
  return Math.min(viewerMinimum, roundUpToStep(viewerMinimum * (1 - discount)));
}

/** The discount as the pages show it: subscriber discount × 100, rounded. */
export const discountPercent = (discount: number): number => Math.round(discount * 100);

/** Coins in US dollars (20 coins = 1 USD), to the cent. */
export const coinsToUsd = (coins: number): number => Math.round((coins * 100) / COINS_PER_USD) / 100;

export interface ComparablePlan {
  plan_id: number;
  group_id: number;
  price: number;
  period: string;
}

/**
 * Plans sorted by group, then price; within a group each plan's discount is its per-day saving
 * against the group's first plan (whole percent, 0 for the first), and the cheapest per day is the
 * best price (only where the group has more than one plan).
 */
export function comparePlans<P extends ComparablePlan>(plans: readonly P[]): Array<P & { discount: number; bestPrice: boolean }> {
  const sorted = [...plans].sort((a, b) => a.group_id - b.group_id || a.price - b.price || a.plan_id - b.plan_id);
  const groups = new Map<number, P[]>();
  for (const plan of sorted) groups.set(plan.group_id, [...(groups.get(plan.group_id) ?? []), plan]);
  return sorted.map((plan) => {
    const group = groups.get(plan.group_id)!;
    const first = pricePerDay(group[0]!.price, group[0]!.period);
    const mine = pricePerDay(plan.price, plan.period);
    const best = Math.min(...group.map((p) => pricePerDay(p.price, p.period)));
    const discount = first > 0 ? Math.max(0, Math.round((1 - mine / first) * 100)) : 0;
    return { ...plan, discount, bestPrice: group.length > 1 && mine === best };
  });
}

/** Subscription states (spec part 2 §4 Other). */
export const SUBSCRIPTION_STATES = ['enabled', 'cancelled', 'deleted'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/** Renew: only while not auto-renewing and neither cancelled nor deleted. */
export const mayRenew = (s: { auto_renew: boolean; state: SubscriptionState }): boolean => !s.auto_renew && s.state === 'enabled';
/** Cancel: disabled for cancelled and deleted subscriptions. */
export const mayCancel = (s: { state: SubscriptionState }): boolean => s.state === 'enabled';
