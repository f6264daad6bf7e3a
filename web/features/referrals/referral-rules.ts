/**
 * The referral dashboard's rules (common/api/referrals.ts): who may see it, the filters every call
 * takes, and how links, rates, coins and days are written on it. Pure, so they are tested alone.
 */
import type { CommissionType, ReferralLink, ReferralType } from '../../../common/api/referrals';
import type { DayRange } from '../../ui/date-range';
import { isDay } from '../../ui/date-range';

export { hasReferralAccess } from './referral-access';

/** What every dashboard call but link-create takes: one link (all when left out) and the days. */
export interface ReferralFilters {
  referral_code_id?: number;
  from: string;
  to: string;
}

/** The filters of the picked link (null: all links) and days. */
export function referralFilters(linkId: number | null, days: DayRange): ReferralFilters {
  return { ...(linkId !== null ? { referral_code_id: linkId } : {}), from: days.from, to: days.to };
}

/** A key naming a set of filters (the referred list goes back to its first page when it changes). */
export const filtersKey = (filters: ReferralFilters | null) => (filters ? `${filters.referral_code_id ?? 'all'}:${filters.from}:${filters.to}` : '');

export const TYPE_LABELS: Record<ReferralType, string> = { AGENT: 'Agent', INFLUENCER: 'Influencer' };

/** The programmes as the new-link form offers them: whom each brings. */
export const TYPE_OPTIONS: ReadonlyArray<{ value: ReferralType; label: string }> = [
  { value: 'AGENT', label: 'Agent (broadcasters)' },
  { value: 'INFLUENCER', label: 'Influencer (viewers)' },
];

export const COMMISSION_LABELS: Record<CommissionType, string> = { EARNINGS: 'Earnings', SPENDING: 'Spending' };

/** Local texts the contract's messages do not have. */
export const REFERRAL_TEXT = {
  allLinks: 'All links',
  mainLink: 'main link',
  statsDaily: 'Stats update daily.',
  none: '—',
};

/** The links selector's value for "All links". */
export const ALL_LINKS = '';

/** A link as the selector names it: its programme and campaign ("Agent · spring-2026", "Influencer · main link"). */
export function linkLabel(link: Pick<ReferralLink, 'type' | 'campaign'>): string {
  return `${TYPE_LABELS[link.type]} · ${link.campaign ?? REFERRAL_TEXT.mainLink}`;
}

/** The link id of a selector value, or null for "All links" (and anything that is not a link id). */
export function parseLinkChoice(value: string): number | null {
  if (!/^[1-9]\d*$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * The link whose address the dashboard shows: the picked one; with all links, the person's first link
 * (`mainId`, the session's referral_code_id), else the first of the list.
 */
export function shownLink<L extends Pick<ReferralLink, 'referral_code_id'>>(links: readonly L[], picked: number | null, mainId: number | null): L | null {
  const byId = (id: number | null) => (id === null ? undefined : links.find((link) => link.referral_code_id === id));
  if (picked !== null) return byId(picked) ?? null;
  return byId(mainId) ?? links[0] ?? null;
}

const percent = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A rate (a fraction) as a percentage: 0.05 → "5%", 0.125 → "12.5%". */
export function ratePercent(rate: number): string {
  if (!Number.isFinite(rate)) return REFERRAL_TEXT.none;
  // Rounded before formatting so that 0.07 × 100 = 7.000000000000001 reads 7%.
  return `${percent.format(Math.round(rate * 1e6) / 1e4)}%`;
}

/**
 * A programme's rate as the summary lists it: "Agent · Earnings 25% of the fee" — a share of the platform
 * fee taken on the referred person's payments (decision 0036), not of the payments themselves.
 */
export function rateLabel({ type, commission_type, rate }: { type: ReferralType; commission_type: CommissionType; rate: number }): string {
  return `${TYPE_LABELS[type]} · ${COMMISSION_LABELS[commission_type]} ${ratePercent(rate)} of the fee`;
}

const figures = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A figure written in full: 1234.5 → "1,234.5". */
export function figure(value: number): string {
  return Number.isFinite(value) ? figures.format(value) : '0';
}

/** An amount of coins: 1 → "1 coin", 1500 → "1,500 coins". */
export function coins(value: number): string {
  return `${figure(value)} ${value === 1 ? 'coin' : 'coins'}`;
}

/** Hours streamed, to a tenth: 12.345 → "12.3". */
export function hours(value: number): string {
  return Number.isFinite(value) ? new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(value) : '0';
}

const dayFormat = (timeZone?: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) });

/**
 * A day or an instant as a date: a day (YYYY-MM-DD, the settlement periods' UTC days) as that day; an
 * instant in the viewer's calendar (`timeZone` for tests); anything else as it came.
 */
export function shownDate(value: string, timeZone?: string): string {
  if (isDay(value)) return dayFormat('UTC').format(new Date(`${value}T00:00:00Z`));
  const when = new Date(value);
  return Number.isNaN(when.getTime()) ? value : dayFormat(timeZone).format(when);
}

/** A settlement period [start, end) in UTC days: one day, or its first and last days (the end is not part of it). */
export function periodLabel(start: string, end: string): string {
  const first = shownDate(start, 'UTC');
  const lastInstant = new Date(new Date(end).getTime() - 1);
  const last = Number.isNaN(lastInstant.getTime()) ? shownDate(end, 'UTC') : shownDate(lastInstant.toISOString(), 'UTC');
  return first === last ? first : `${first} – ${last}`;
}
