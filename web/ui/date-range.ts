/**
 * The date range selector's rules (spec part 2 §2 screens 2 and 6): the presets, the span of days that
 * may be picked, what a custom pick may not be, and what the selector emits.
 *
 * Days are calendar days written YYYY-MM-DD. The presets are counted in the viewer's local calendar
 * from `now` (passed in, so the rules are pure):
 * - This month (the default): the 1st of this month to today;
 * - Last month: the whole previous month;
 * - Last 6 month: the six months ending today (from the day after the same date six months ago);
 * - This year: 1 January to today;
 * - All time: the first day of the span (2016-01-01) to today.
 * Every range is kept inside the span (2016-01-01 to 2031-12-31).
 *
 * "Yesterday disabled": yesterday cannot be picked as a range of its own (from and to both yesterday);
 * a custom pick of it is refused with a reason, and a range that includes yesterday with other days is fine.
 *
 * The selector emits `{ start, end }` as ISO instants with the local offset: the first day at 00:00:00
 * and the last day at 23:59:59 (e.g. `2026-11-01T00:00:00+01:00` … `2026-11-30T23:59:59+01:00`).
 * `daysOf` reads the days back from an emission.
 */
import { ANALYTICS } from '../../common/constants';
import { fill, MSG } from '../../common/messages';

export type DateRangePreset = 'thisMonth' | 'lastMonth' | 'last6Months' | 'thisYear' | 'allTime';

export const DATE_RANGE_PRESETS: ReadonlyArray<{ value: DateRangePreset; label: string }> = [
  { value: 'thisMonth', label: 'This month' },
  { value: 'lastMonth', label: 'Last month' },
  { value: 'last6Months', label: 'Last 6 month' },
  { value: 'thisYear', label: 'This year' },
  { value: 'allTime', label: 'All time' },
];

export const DEFAULT_DATE_RANGE_PRESET: DateRangePreset = 'thisMonth';

/** The days that may be picked, both included. */
export const DATE_RANGE_SPAN = { first: ANALYTICS.firstDay, last: ANALYTICS.lastDay } as const;

/** A range of calendar days, both included. */
export interface DayRange {
  from: string;
  to: string;
}

/** What the selector emits: ISO instants with the local offset. */
export interface DateRangeValue {
  start: string;
  end: string;
}

/** Texts of the custom pick's refusals that the contract's messages do not have. */
export const DATE_RANGE_TEXT = {
  pickBoth: 'Pick a start day and an end day.',
  yesterdayAlone: 'Yesterday cannot be picked on its own; pick a range with other days.',
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Whether `text` is a real day written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The local calendar day of an instant. */
export function localDay(now: Date): string {
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The UTC day of an instant (the days the figures are counted in). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

function parts(day: string): [number, number, number] {
  const [y, m, d] = day.split('-').map(Number);
  return [y!, m!, d!];
}

const dayOfUtc = (date: Date) => date.toISOString().slice(0, 10);

/** `day` moved by `n` days (calendar arithmetic, no clock involved). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = parts(day);
  return dayOfUtc(new Date(Date.UTC(y, m - 1, d + n)));
}

/** `day` moved by `n` months, kept inside the month it lands in (31 March − 1 month → 28 or 29 February). */
export function addMonths(day: string, n: number): string {
  const [y, m, d] = parts(day);
  const lastOfMonth = new Date(Date.UTC(y, m - 1 + n + 1, 0)).getUTCDate();
  return dayOfUtc(new Date(Date.UTC(y, m - 1 + n, Math.min(d, lastOfMonth))));
}

/** A range kept inside the span (and never backwards). */
export function clampRange({ from, to }: DayRange): DayRange {
  const clamp = (day: string) => (day < DATE_RANGE_SPAN.first ? DATE_RANGE_SPAN.first : day > DATE_RANGE_SPAN.last ? DATE_RANGE_SPAN.last : day);
  const start = clamp(from);
  const end = clamp(to);
  return { from: start, to: end < start ? start : end };
}

/** The days of a preset, seen from `now` in the local calendar. */
export function presetRange(preset: DateRangePreset, now: Date): DayRange {
  const today = localDay(now);
  const [y, m] = parts(today);
  const firstOfMonth = `${pad(y, 4)}-${pad(m)}-01`;
  switch (preset) {
    case 'thisMonth':
      return clampRange({ from: firstOfMonth, to: today });
    case 'lastMonth':
      return clampRange({ from: addMonths(firstOfMonth, -1), to: addDays(firstOfMonth, -1) });
    case 'last6Months':
      return clampRange({ from: addDays(addMonths(today, -6), 1), to: today });
    case 'thisYear':
      return clampRange({ from: `${pad(y, 4)}-01-01`, to: today });
    case 'allTime':
      return clampRange({ from: DATE_RANGE_SPAN.first, to: today });
  }
}

/** Why a custom pick cannot be used, or null when it can. */
export function rangeProblem({ from, to }: DayRange, now: Date): string | null {
  if (!isDay(from) || !isDay(to)) return DATE_RANGE_TEXT.pickBoth;
  const outside = (day: string) => day < DATE_RANGE_SPAN.first || day > DATE_RANGE_SPAN.last;
  if (outside(from) || outside(to)) return fill(MSG.analyticsDaySpan, { first: DATE_RANGE_SPAN.first, last: DATE_RANGE_SPAN.last });
  if (to < from) return MSG.analyticsRangeOrder;
  if (from === to && from === addDays(localDay(now), -1)) return DATE_RANGE_TEXT.yesterdayAlone;
  return null;
}

/** `day` at a local wall-clock time, as an ISO instant with the offset the zone has then: `2026-11-01T00:00:00+01:00`. */
export function localIso(day: string, time: '00:00:00' | '23:59:59'): string {
  const [y, m, d] = parts(day);
  const [hh, mm, ss] = time.split(':').map(Number);
  const offsetMinutes = -new Date(y, m - 1, d, hh, mm, ss).getTimezoneOffset();
  return `${day}T${time}${formatOffset(offsetMinutes)}`;
}

/** 60 → "+01:00", -330 → "-05:30", 0 → "+00:00". */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** What the selector emits for a range of days. */
export function rangeValue({ from, to }: DayRange): DateRangeValue {
  return { start: localIso(from, '00:00:00'), end: localIso(to, '23:59:59') };
}

/** The days of an emitted range (the calendar days the viewer picked). */
export function daysOf({ start, end }: DateRangeValue): DayRange {
  return { from: start.slice(0, 10), to: end.slice(0, 10) };
}
