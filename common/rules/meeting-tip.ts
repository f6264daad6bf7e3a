/** The meeting tip (spec part 2 §5, §9): rounded up to a multiple of 10 and clamped to 250–5000, default 250. */
import { MEETING } from '../constants';

/** What the form keeps when the host leaves the field: a number rounded up to the step and clamped; anything else is the default. */
export function normalizeMeetingTip(value: number | string): number {
  const coins = typeof value === 'number' ? value : Number(value.trim() === '' ? Number.NaN : value);
  if (!Number.isFinite(coins)) return MEETING.tip.default;
  const rounded = Math.ceil(coins / MEETING.tip.step) * MEETING.tip.step;
  return Math.min(MEETING.tip.max, Math.max(MEETING.tip.min, rounded));
}
