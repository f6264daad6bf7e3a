/** "h:mm:ss" (or "m:ss") since `since`, for the dashboard's session timer. */
export function sessionClock(since: string | Date, now: Date = new Date()): string {
  return clock((now.getTime() - new Date(since).getTime()) / 1000);
}

/** "h:mm:ss" (or "m:ss") for a number of seconds: the session timer, the replay's position. */
export function clock(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
