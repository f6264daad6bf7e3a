/**
 * The app-connection toasts (spec part 2 §4, §9): each status shows TOY.toastDelayMs after it arrives,
 * one at a time. A newer status replaces one still waiting, and the server's resend 3 s after a change
 * does not repeat the toast just shown.
 */
import type { Timers } from './command-throttle';

export interface StatusToasts {
  push(text: string): void;
  dispose(): void;
}

export function statusToasts(delayMs: number, show: (text: string) => void, timers: Pick<Timers, 'setTimeout' | 'clearTimeout'>): StatusToasts {
  let timer: unknown = null;
  let lastShown: string | null = null;

  return {
    push(text) {
      if (timer !== null) timers.clearTimeout(timer);
      timer = timers.setTimeout(() => {
        timer = null;
        if (text === lastShown) return;
        lastShown = text;
        show(text);
      }, delayMs);
    },
    dispose() {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
