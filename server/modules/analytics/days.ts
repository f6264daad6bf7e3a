/** UTC days written YYYY-MM-DD, as the rollups key them. */
const DAY_MS = 86_400_000;

const at = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const utcDay = (date: Date) => dayText(date.getTime());
export const addDays = (day: string, days: number) => dayText(at(day) + days * DAY_MS);

/** Every day from `from` to `to`, both included. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let ms = at(from); ms <= at(to); ms += DAY_MS) days.push(dayText(ms));
  return days;
}

/** The whole calendar months inside [from, to]: the first one's first day and the day after the last one; null when none. */
export function monthsWithin(from: string, to: string): { first: string; end: string } | null {
  const start = new Date(at(from));
  const first = start.getUTCDate() === 1 ? from : dayText(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const after = new Date(at(addDays(to, 1)));
  const end = dayText(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), 1));
  return first < end ? { first, end } : null;
}
