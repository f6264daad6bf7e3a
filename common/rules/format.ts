/** Number and time formats of the spec: 1.2k, relative times 1m/1h/1d/1mo/1y, "N Coins". */

/** 950 → "950", 1234 → "1.2k", 1_500_000 → "1.5m"; one decimal, trailing ".0" dropped. */
export function shortNumber(value: number): string {
  const abs = Math.abs(value);
  const units: Array<[number, string]> = [
    [1e9, 'b'],
    [1e6, 'm'],
    [1e3, 'k'],
  ];
  for (const [size, suffix] of units) {
    if (abs >= size) {
      const scaled = Math.floor((abs / size) * 10) / 10;
      return `${value < 0 ? '-' : ''}${scaled.toFixed(1).replace(/\.0$/, '')}${suffix}`;
    }
  }
  return String(Math.trunc(value));
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** Age of a moment in the spec's short form: "now", "5m", "3h", "2d", "4mo", "1y". */
export function relativeTime(then: Date | string | number, now: Date = new Date()): string {
  const elapsed = Math.max(0, now.getTime() - new Date(then).getTime());
  if (elapsed >= YEAR) return `${Math.floor(elapsed / YEAR)}y`;
  if (elapsed >= MONTH) return `${Math.floor(elapsed / MONTH)}mo`;
  if (elapsed >= DAY) return `${Math.floor(elapsed / DAY)}d`;
  if (elapsed >= HOUR) return `${Math.floor(elapsed / HOUR)}h`;
  if (elapsed >= MINUTE) return `${Math.floor(elapsed / MINUTE)}m`;
  return 'now';
}

/** An interval as people say it: "15 min", "2 s", "1 h", "250 ms". */
export function spokenInterval(ms: number): string {
  for (const [unit, size] of [['h', HOUR], ['min', MINUTE], ['s', 1000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  }
  return `${ms} ms`;
}

export function coins(amount: number): string {
  return `${amount} ${amount === 1 ? 'Coin' : 'Coins'}`;
}

/** Money from cents as the wallet shows it: "$12.50", "CA$12.50". */
export function formatCents(cents: number, currency: 'USD' | 'CAD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}

/** A video's length: "0:42", "12:05", "1:02:03". */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
