/** The in-process bus of the embedded default: one process, so delivery is a function call and it is always up. */
import type { Bus, BusHandler } from './bus';

export function createMemoryBus(): Bus {
  const handlers = new Map<string, Set<BusHandler>>();
  return {
    async publish(channel, message) {
      // Deliver a structured copy, as a networked bus would: no subscriber can mutate the publisher's object.
      const copy = structuredClone(message);
      for (const handler of handlers.get(channel) ?? []) handler(copy);
    },
    async subscribe(channel, handler) {
      let set = handlers.get(channel);
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0) handlers.delete(channel);
      };
    },
    state: () => 'up',
    onStateChange: () => () => {},
    async close() {
      handlers.clear();
    },
  };
}
