/** The meeting form's arithmetic (spec part 2 §5, §9), shared by the form and the server. */
import { MEETING } from '../constants';

/**
 * The meeting tip: rounded up to a multiple of 10 and clamped to 250–5000; nothing given (or not a
 * number) is the default 250.
 */
export function meetingTip(amount: number | null | undefined): number {
  const { min, max, step, default: fallback } = MEETING.tip;
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return fallback;
  const rounded = Math.ceil(amount / step) * step;
  return Math.min(max, Math.max(min, rounded));
}

/** A meeting's end: its start plus MEETING.defaultMinutes (the spec gives start times only). */
export const meetingEnd = (start: Date) => new Date(start.getTime() + MEETING.defaultMinutes * 60_000);
