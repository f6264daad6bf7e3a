/**
 * The viewer's slider sends at most one command per interval, always ending on the latest value: a
 * drag of many steps becomes a few frames, and the toy stops where the thumb stopped.
 */
export interface Throttle<T> {
  push(value: T): void;
  /** Drops a value still waiting (the panel closed). */
  cancel(): void;
}

export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function latestThrottle<T>(intervalMs: number, send: (value: T) => void, timers: Timers = realTimers): Throttle<T> {
  let lastSentAt = -Infinity;
  let waiting: { value: T } | null = null;
  let timer: unknown = null;

  const flush = () => {
    timer = null;
    if (!waiting) return;
    const { value } = waiting;
    waiting = null;
    lastSentAt = timers.now();
    send(value);
  };

  return {
    push(value) {
      waiting = { value };
      const wait = lastSentAt + intervalMs - timers.now();
      if (wait > 0) {
        if (timer === null) timer = timers.setTimeout(flush, wait);
        return;
      }
      // The interval has passed: send now, even if the timer (late on a busy page) has not fired yet.
      if (timer !== null) timers.clearTimeout(timer);
      flush();
    },
    cancel() {
      waiting = null;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
