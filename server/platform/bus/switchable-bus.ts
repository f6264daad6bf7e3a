/** For unit tests: an in-process bus whose state a test sets, telling its listeners as the Redis bus does. */
import type { Bus, BusState, BusStateChange } from './bus';
import { createMemoryBus } from './memory-bus';

export function createSwitchableBus(): Bus & { setState(to: BusState): void; listeners(): number } {
  const listeners = new Set<(change: BusStateChange) => void>();
  let state: BusState = 'up';
  return {
    ...createMemoryBus(),
    state: () => state,
    onStateChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    setState(to) {
      state = to;
      for (const listener of listeners) listener({ state: to, dropped: 0, redelivered: 0 });
    },
    listeners: () => listeners.size,
  };
}
