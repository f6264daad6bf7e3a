/** Months as the statements name them: YYYY-MM, UTC. */
export const currentMonth = (now: Date = new Date()) => now.toISOString().slice(0, 7);

/** The month `delta` months after `month`. */
export function shiftMonth(month: string, delta: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1 + delta, 1)).toISOString().slice(0, 7);
}

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
/** "November 2026" */
export const monthTitle = (month: string) => monthName.format(new Date(`${month}-01T00:00:00Z`));

/** A `?month=` that the statement call would take, else this month. */
export function monthParam(value: string | null, now: Date = new Date()): string {
  return value !== null && /^\d{4}-(0[1-9]|1[0-2])$/.test(value) && value <= currentMonth(now) ? value : currentMonth(now);
}
