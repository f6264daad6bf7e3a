/**
 * Upload progress as the upload page shows it (spec part 1 §2 Upload): per file and overall, a
 * percentage and the time left, estimated from the throughput so far (smoothed, so one slow chunk
 * does not make the estimate jump).
 */

export interface Throughput {
  /** Smoothed bytes per second; null until two readings far enough apart. */
  bytesPerSecond: number | null;
  /** The reading the next one is measured from. */
  bytes: number;
  at: number;
  /** False until a first reading: an upload resumed at an offset jumps there, which is no speed. */
  primed: boolean;
}

/** Readings closer than this are folded into the next one (progress events come many times a second). */
export const MIN_SAMPLE_MS = 500;
/** Weight of the newest reading in the moving average. */
export const SMOOTHING = 0.3;

export const startThroughput = (at: number): Throughput => ({ bytesPerSecond: null, bytes: 0, at, primed: false });

/**
 * The estimate after a reading of `bytes` sent in all at time `at` (ms). The first reading after a
 * start or a resume only sets where to measure from, as do bytes going backwards (a chunk sent again).
 */
export function nextThroughput(previous: Throughput, bytes: number, at: number, smoothing = SMOOTHING): Throughput {
  if (!previous.primed || bytes < previous.bytes) return { ...previous, bytes, at, primed: true };
  const elapsed = at - previous.at;
  if (elapsed < MIN_SAMPLE_MS) return previous;
  const speed = ((bytes - previous.bytes) * 1000) / elapsed;
  const bytesPerSecond = previous.bytesPerSecond === null ? speed : previous.bytesPerSecond * (1 - smoothing) + speed * smoothing;
  return { bytesPerSecond, bytes, at, primed: true };
}

/** After a pause, or when the next file starts, measure afresh: the time between is no slow connection. */
export const rebaseThroughput = (previous: Throughput, at: number): Throughput => ({ ...previous, at, primed: false });

/** Seconds until `remaining` bytes are sent at the estimated speed; null while there is no estimate. */
export function secondsLeft(remaining: number, throughput: Pick<Throughput, 'bytesPerSecond'>): number | null {
  if (remaining <= 0) return 0;
  if (throughput.bytesPerSecond === null || throughput.bytesPerSecond <= 0) return null;
  return Math.ceil(remaining / throughput.bytesPerSecond);
}

/** "Calculating time left…", "About 8 seconds left", "About 3 minutes left", "About 1 hour 5 minutes left". */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null) return 'Calculating time left…';
  if (seconds <= 0) return 'Almost done';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  // Under a minute, to the nearest 5 seconds (a ticking count would only read as jitter).
  if (seconds < 60) return `About ${plural(seconds < 10 ? Math.ceil(seconds) : Math.round(seconds / 5) * 5, 'second')} left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `About ${plural(minutes, 'minute')} left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `About ${plural(hours, 'hour')}${rest ? ` ${plural(rest, 'minute')}` : ''} left`;
}

/** Whole percent of `sent` out of `total`, 0–100; 100 only once everything is sent. */
export function percentOf(sent: number, total: number): number {
  if (total <= 0) return 0;
  if (sent >= total) return 100;
  return Math.min(99, Math.floor((sent / total) * 100));
}

/** The overall figures of several files sent one after another. */
export function overallProgress(files: ReadonlyArray<{ size: number; sent: number }>): { sent: number; total: number; percent: number } {
  const total = files.reduce((sum, f) => sum + f.size, 0);
  const sent = files.reduce((sum, f) => sum + Math.min(f.sent, f.size), 0);
  return { sent, total, percent: percentOf(sent, total) };
}
