/**
 * The daily figures the dashboard charts and exports: one row a day of the picked range, tips (coins),
 * stream views and new followers. The three series of the answer are joined by day; a day a series
 * lacks (or a range whose figures did not load) counts zero, so the charts and the CSV always cover
 * every day of the range. The CSV is exactly the rows the charts draw.
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

/** Every day of `range`, in order, with the figures `result` has for it (zero where it has none). */
export function dailyRows(result: AnalyticsResult | undefined, { from, to }: DayRange): DailyRow[] {
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
  const rows: DailyRow[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) rows.push(byDay.get(day) ?? { date: day, totalTip: 0, totalStreamViews: 0, totalFollowers: 0 });
  return rows;
}

/** The CSV of the rows: the header, then one line a day. */
export function dailyCsv(rows: readonly DailyRow[]): string {
  const lines = rows.map((r) => `${r.date},${r.totalTip},${r.totalStreamViews},${r.totalFollowers}`);
  return `${[DAILY_CSV_HEADER, ...lines].join('\n')}\n`;
}

export const dailyCsvFileName = ({ from, to }: DayRange) => `analytics-${from}-${to}.csv`;
