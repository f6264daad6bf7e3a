/** The scale-out bus: Redis pub/sub, so a message published on one instance reaches every instance. */
import { Redis } from 'ioredis';
import type { Bus, BusHandler } from './bus';

export async function createRedisBus(url: string): Promise<Bus> {
  // A connection in subscriber mode can do nothing else: one connection publishes, one listens.
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers = new Map<string, Set<BusHandler>>();

  subscriber.on('message', (channel: string, payload: string) => {
    const set = handlers.get(channel);
    if (!set) return;
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      return; // not ours: every message we publish is JSON
    }
    for (const handler of set) handler(message);
  });

  const resumeListeners = new Set<() => void>();
  // Connected by now, so every later 'ready' is a reconnection: ioredis subscribes the channels again,
  // and what was published in between is gone.
  subscriber.on('ready', () => {
    for (const listener of resumeListeners) listener();
  });

  return {
    async publish(channel, message) {
      await publisher.publish(channel, JSON.stringify(message));
    },
    async subscribe(channel, handler) {
      let set = handlers.get(channel);
      if (!set) {
        handlers.set(channel, (set = new Set()));
        await subscriber.subscribe(channel);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          await subscriber.unsubscribe(channel);
        }
      };
    },
    onResume(listener) {
      resumeListeners.add(listener);
      return () => {
        resumeListeners.delete(listener);
      };
    },
    async close() {
      handlers.clear();
      resumeListeners.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
