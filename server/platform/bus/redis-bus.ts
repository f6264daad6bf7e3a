/**
 * The scale-out bus: Redis pub/sub, so a message published on one instance reaches every instance of
 * the same deployment. Every channel is named under the deployment's prefix: two deployments sharing
 * one Redis do not hear each other (`redisPrefix`).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Db } from '../db/client';
import { loadGeneratedSecret } from '../secrets';
import type { Bus, BusHandler } from './bus';

/**
 * The prefix of every channel and key this deployment uses on Redis: `REDIS_PREFIX` when set, else one
 * made at the installation's first start and kept in its database, so the instances sharing the
 * database share it and another installation has its own.
 */
export async function redisPrefix(db: Db, configured: string | undefined): Promise<string> {
  return configured ?? loadGeneratedSecret(db, 'redis-prefix', () => `limelight:${randomBytes(6).toString('hex')}:`);
}

export async function createRedisBus(url: string, options: { prefix: string }): Promise<Bus> {
  const { prefix } = options;
  // A connection in subscriber mode can do nothing else: one connection publishes, one listens.
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  /** Handlers by the channel's name on Redis (the prefix and the platform's name). */
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
      await publisher.publish(prefix + channel, JSON.stringify(message));
    },
    async subscribe(channel, handler) {
      const name = prefix + channel;
      let set = handlers.get(name);
      if (!set) {
        handlers.set(name, (set = new Set()));
        await subscriber.subscribe(name);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(name) === set) {
          handlers.delete(name);
          await subscriber.unsubscribe(name);
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
