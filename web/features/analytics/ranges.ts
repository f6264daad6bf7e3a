/**
 * The range menu of each top list (spec part 2 §2 screen 6): Last 7 days, Last 30 days (the default),
 * Last 90 days, Last 12 months, All time; counted in UTC days (the days the figures are kept in), each
 * ending today and including it.
 */
import { addDays, addMonths, clampRange, DATE_RANGE_SPAN, type DayRange } from '../../ui/date-range';

export type TopRange = 'last7Days' | 'last30Days' | 'last90Days' | 'last12Months' | 'allTime';

export const TOP_RANGES: ReadonlyArray<{ value: TopRange; label: string }> = [
  { value: 'last7Days', label: 'Last 7 days' },
  { value: 'last30Days', label: 'Last 30 days' },
  { value: 'last90Days', label: 'Last 90 days' },
  { value: 'last12Months', label: 'Last 12 months' },
  { value: 'allTime', label: 'All time' },
];

export const DEFAULT_TOP_RANGE: TopRange = 'last30Days';

export const isTopRange = (value: string): value is TopRange => TOP_RANGES.some((range) => range.value === value);

/** The days a top list's range covers, `today` (a UTC day) the last of them. */
export function topRangeDays(range: TopRange, today: string): DayRange {
  switch (range) {
    case 'last7Days':
      return clampRange({ from: addDays(today, -6), to: today });
    case 'last30Days':
      return clampRange({ from: addDays(today, -29), to: today });
    case 'last90Days':
      return clampRange({ from: addDays(today, -89), to: today });
    case 'last12Months':
      return clampRange({ from: addDays(addMonths(today, -12), 1), to: today });
    case 'allTime':
      return clampRange({ from: DATE_RANGE_SPAN.first, to: today });
  }
}
