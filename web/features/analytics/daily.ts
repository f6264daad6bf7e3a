/**
 * The daily figures the dashboard charts and exports: one row a day, tips (coins), stream views and new
 * followers. The server answers every day of the range from the creator's first day with figures up to
 * today; the three series are joined by day, and a day a series lacks counts zero. When nothing loaded,
 * the range up to today shows zeros. The CSV is exactly the rows the charts draw.
 */
import { DAILY_EVENTS, DAILY_FIGURE, type AnalyticsResult } from '../../../common/api/analytics';
import { addDays, type DayRange } from '../../ui/date-range';

export interface DailyRow {
  date: string;
  totalTip: number;
  totalStreamViews: number;
  totalFollowers: number;
}

export const DAILY_CSV_HEADER = 'date,totalTip,totalStreamViews,totalFollowers';

/** The answered days in order, or (nothing answered) every day of `range` up to `today`, with zeros where a series has none. */
export function dailyRows(result: AnalyticsResult | undefined, { from, to }: DayRange, today: string = new Date().toISOString().slice(0, 10)): DailyRow[] {
  const byDay = new Map<string, DailyRow>();
  const row = (date: string) => {
    let found = byDay.get(date);
    if (!found) {
      found = { date, totalTip: 0, totalStreamViews: 0, totalFollowers: 0 };
      byDay.set(date, found);
    }
    return found;
  };
  for (const event of DAILY_EVENTS) {
    const figure = DAILY_FIGURE[event];
    // The contract names each series' figure by a computed key, so its points are read as records.
    for (const point of (result?.[event] ?? []) as Array<Record<string, unknown>>) row(String(point.date))[figure] = Number(point[figure]) || 0;
  }
  if (byDay.size > 0) return [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
  const rows: DailyRow[] = [];
  const last = to < today ? to : today;
  for (let day = from; day <= last; day = addDays(day, 1)) rows.push({ date: day, totalTip: 0, totalStreamViews: 0, totalFollowers: 0 });
  return rows;
}

/** The CSV of the rows: the header, then one line a day. */
export function dailyCsv(rows: readonly DailyRow[]): string {
  const lines = rows.map((r) => `${r.date},${r.totalTip},${r.totalStreamViews},${r.totalFollowers}`);
  return `${[DAILY_CSV_HEADER, ...lines].join('\n')}\n`;
}

export const dailyCsvFileName = ({ from, to }: DayRange) => `analytics-${from}-${to}.csv`;
