/**
 * The scale-out bus: Redis pub/sub, so a message published on one instance reaches every instance of
 * the same deployment. Every channel is named under the deployment's prefix: two deployments sharing
 * one Redis do not hear each other (`redisPrefix`).
 *
 * Redis is never on the answer path of what the database committed (decision 0044): a publish that
 * cannot reach Redis now is kept in a bounded backlog and published in order once both connections are
 * back, and listeners hear the bus go `down` and come `up` again.
 */
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Db } from '../db/client';
import { loadGeneratedSecret } from '../secrets';
import type { Bus, BusHandler, BusState, BusStateChange } from './bus';
import { createPublishBacklog } from './publish-backlog';

/**
 * The prefix of every channel and key this deployment uses on Redis: `REDIS_PREFIX` when set, else one
 * made at the installation's first start and kept in its database, so the instances sharing the
 * database share it and another installation has its own.
 */
export async function redisPrefix(db: Db, configured: string | undefined): Promise<string> {
  return configured ?? loadGeneratedSecret(db, 'redis-prefix', () => `limelight:${randomBytes(6).toString('hex')}:`);
}

/** Waits between attempts to reach Redis again (reconnecting, or publishing the backlog): 100 ms doubling to 500 ms. */
export const retryDelayMs = (attempt: number) => Math.min(100 * 2 ** Math.max(0, attempt - 1), 500);

/**
 * How long a backlog waits after Redis is back before it is published: pub/sub keeps nothing, so a message
 * reaches only the instances subscribed again by then, and every instance tries to reconnect at least every
 * 500 ms. Twice that leaves room for their subscriptions.
 */
const BACKLOG_GRACE_MS = 1000;

/**
 * Commands fail at once when the connection is not there (no offline queue, no resending after a
 * reconnection), and within a second when Redis hangs: the bus keeps what it could not publish itself.
 */
const CONNECTION: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  autoResubscribe: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 1000,
  retryStrategy: retryDelayMs,
};

export interface RedisBusOptions {
  prefix: string;
  /** The backlog's bound in bytes of payload (`BACKLOG_MAX_BYTES` unless given). */
  backlogMaxBytes?: number;
}

export async function createRedisBus(url: string, options: RedisBusOptions): Promise<Bus> {
  const { prefix } = options;
  // A connection in subscriber mode can do nothing else: one connection publishes, one listens.
  const publisher = new Redis(url, CONNECTION);
  const subscriber = new Redis(url, CONNECTION);
  await Promise.all([publisher.connect(), subscriber.connect()]);
  /** Handlers by the channel's name on Redis (the prefix and the platform's name). */
  const handlers = new Map<string, Set<BusHandler>>();
  const backlog = createPublishBacklog(options.backlogMaxBytes);
  const listeners = new Set<(change: BusStateChange) => void>();
  let state: BusState = 'up';
  let closed = false;
  let recovering = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let attempts = 0;

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

  function announce(change: BusStateChange) {
    state = change.state;
    for (const listener of listeners) listener(change);
  }

  function goDown() {
    if (closed || state === 'down') return;
    announce({ state: 'down', dropped: 0, redelivered: 0 });
    // A dropped connection says when it is back ('ready'); a hung one does not: try again on a timer too.
    retryLater();
  }

  function retryLater() {
    if (closed || retryTimer) return;
    attempts += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void recover();
    }, retryDelayMs(attempts));
  }

  /**
   * Once both connections are ready: listen again, publish the backlog in order, then say `up`. A channel
   * first wanted meanwhile (its `subscribe` saw the bus down, so left it to this) is listened to before
   * the bus says `up`: the last check and the announcement run without an await between them.
   */
  async function recover() {
    if (closed || recovering || state === 'up') return;
    if (publisher.status !== 'ready' || subscriber.status !== 'ready') return; // their 'ready' calls again
    recovering = true;
    let redelivered = 0;
    const listening = new Set<string>();
    const unheard = () => [...handlers.keys()].filter((name) => !listening.has(name));
    const listenToEveryChannel = async () => {
      for (let missing = unheard(); missing.length > 0; missing = unheard()) {
        await subscriber.subscribe(...missing);
        for (const name of missing) listening.add(name);
      }
    };
    try {
      await listenToEveryChannel();
      if (backlog.size() > 0) await new Promise((resolve) => setTimeout(resolve, BACKLOG_GRACE_MS));
      for (let item = backlog.first(); item; item = backlog.first()) {
        await publisher.publish(item.channel, item.payload);
        backlog.done();
        redelivered += 1;
      }
      do await listenToEveryChannel(); while (unheard().length > 0);
    } catch {
      recovering = false;
      retryLater();
      return;
    }
    recovering = false;
    attempts = 0;
    announce({ state: 'up', dropped: backlog.takeDropped(), redelivered });
  }

  function onStateChange(listener: (change: BusStateChange) => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  for (const connection of [publisher, subscriber]) {
    // Reported as state changes; without a listener ioredis would print every failed reconnection.
    connection.on('error', () => {});
    connection.on('close', goDown);
    connection.on('ready', () => void recover());
  }

  return {
    async publish(channel, message) {
      const item = { channel: prefix + channel, payload: JSON.stringify(message) };
      if (state === 'up') {
        try {
          await publisher.publish(item.channel, item.payload);
          return;
        } catch {
          goDown();
        }
      }
      backlog.add(item);
    },
    async subscribe(channel, handler) {
      const name = prefix + channel;
      let set = handlers.get(name);
      if (!set) {
        handlers.set(name, (set = new Set()));
        // While the bus is down, recovering subscribes every channel that has handlers by then.
        if (state === 'up') await subscriber.subscribe(name).catch(() => goDown());
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(name) === set) {
          handlers.delete(name);
          // A connection that is gone took the subscription with it.
          if (state === 'up') await subscriber.unsubscribe(name).catch(() => {});
        }
      };
    },
    state: () => state,
    onStateChange,
    onResume: (listener) =>
      onStateChange((change) => {
        if (change.state === 'up') listener();
      }),
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      handlers.clear();
      listeners.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
