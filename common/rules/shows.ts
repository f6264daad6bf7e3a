/**
 * Private and group shows (decision 0085): the limits a broadcaster's offer keeps to, and the times the
 * pages and the billing agree on. A show is billed by the minute, each minute paid at its start.
 */

export const SHOW = {
  /** The most a minute may cost, in coins. */
  priceMax: 10_000,
  /** The longest minimum a broadcaster may promise, in minutes. */
  minMinutesMax: 60,
  /** Group shows: the fewest and most tickets that may start one. */
  ticketsMin: 2,
  ticketsMax: 100,
  /** How long a private show request waits for the broadcaster's answer. */
  requestTtlMs: 120_000,
  /** How often a page in a show says its viewer is still there. */
  hereEveryMs: 15_000,
  /** A viewer not heard from for this long has left: their next minute is not billed. */
  goneAfterMs: 45_000,
} as const;

export const SHOW_KINDS = ['private', 'group'] as const;
export type ShowKind = (typeof SHOW_KINDS)[number];

/** What a viewer's place in a show is for: the private show's buyer, a group ticket holder, or a spy at the lower price. */
export const SEAT_ROLES = ['buyer', 'ticket', 'spy'] as const;
export type SeatRole = (typeof SEAT_ROLES)[number];

/** Why a viewer's place ended. */
export const SEAT_END_REASONS = ['left', 'gone', 'balance', 'show-ended', 'declined', 'expired', 'cancelled'] as const;
export type SeatEndReason = (typeof SEAT_END_REASONS)[number];

/** Why a show ended. */
export const SHOW_END_REASONS = ['broadcaster', 'viewers-left', 'stream-ended', 'declined', 'expired', 'cancelled', 'replaced'] as const;
export type ShowEndReason = (typeof SHOW_END_REASONS)[number];

/** The coins a viewer must hold to ask for a show: its minimum duration at the minute's price (one minute at least). */
export const coinsToStart = (pricePerMinute: number, minMinutes: number) => pricePerMinute * Math.max(1, minMinutes);

/** Whole minutes of a show between its start and `at` (for the minimum the broadcaster promised). */
export const minutesRun = (startedAt: Date, at: Date, minuteMs: number) => Math.floor((at.getTime() - startedAt.getTime()) / minuteMs);

/**
 * How long after its paid time a seat may still fetch the video: the billing job's run and the page's
 * next fetch, never a whole minute.
 */
export const playbackGraceMs = (minuteMs: number) => Math.min(10_000, Math.floor(minuteMs / 4));
