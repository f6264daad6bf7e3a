/**
 * A short-lived read cache per instance for answers every visitor gets alike (decision 0026): entries
 * by key, kept `ttlMs`; one load per key at a time (concurrent misses share it); at most `maxEntries`,
 * the oldest dropped first; and invalidation by tag, published on the bus so every instance drops the
 * entries, not only the one where the change was written. An invalidation published elsewhere while the
 * bus was down may never have arrived: the cache starts empty each time the bus comes up (decision 0044).
 */
import type { Bus } from '../bus/bus';

export interface ReadCacheOptions {
  /** Names the bus channel (`read-cache:<name>`): caches of different names never drop each other's entries. */
  name: string;
  /** How long an entry answers; 0 turns the cache off (every read loads). */
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
  /** Told when an invalidation could not be published (the other instances' entries then live out their ttl). */
  log?: { warn(details: object, message: string): void };
}

export interface ReadCache {
  /** The value under `key`: a fresh entry's, else `load()`'s, shared with every caller asking meanwhile. A failed load is not kept. */
  get<T>(key: string, tags: readonly string[], load: () => Promise<T>): Promise<T>;
  /** Drops the entries carrying any of `tags` here at once, and on every instance through the bus; never fails. */
  invalidate(tags: readonly string[]): Promise<void>;
  readonly size: number;
  close(): Promise<void>;
}

interface Entry {
  value: Promise<unknown>;
  expires: number;
  tags: readonly string[];
}

const DEFAULT_MAX_ENTRIES = 10_000;

const isInvalidation = (message: unknown): message is { tags: string[] } =>
  typeof message === 'object' && message !== null && Array.isArray((message as { tags?: unknown }).tags)
  && (message as { tags: unknown[] }).tags.every((tag) => typeof tag === 'string');

export async function createReadCache(bus: Bus, options: ReadCacheOptions): Promise<ReadCache> {
  const { ttlMs, maxEntries = DEFAULT_MAX_ENTRIES, now = Date.now } = options;
  const channel = `read-cache:${options.name}`;
  const entries = new Map<string, Entry>();
  const keysByTag = new Map<string, Set<string>>();

  function drop(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    for (const tag of entry.tags) {
      const keys = keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) keysByTag.delete(tag);
    }
  }

  function dropTagged(tags: readonly string[]) {
    for (const tag of tags) for (const key of [...(keysByTag.get(tag) ?? [])]) drop(key);
  }

  const unsubscribe = await bus.subscribe(channel, (message) => {
    if (isInvalidation(message)) dropTagged(message.tags);
  });
  const stopStates = bus.onStateChange((change) => {
    if (change.state !== 'up') return;
    entries.clear();
    keysByTag.clear();
  });

  return {
    get<T>(key: string, tags: readonly string[], load: () => Promise<T>): Promise<T> {
      if (ttlMs <= 0) return load();
      const at = now();
      const found = entries.get(key);
      if (found && found.expires > at) return found.value as Promise<T>;
      if (found) drop(key);
      // Kept as a promise of its own: a query builder is a thenable that runs its query again at every `then`.
      const entry: Entry = { value: (async () => load())(), expires: at + ttlMs, tags };
      entry.value.catch(() => {
        if (entries.get(key) === entry) drop(key);
      });
      entries.set(key, entry);
      for (const tag of tags) {
        let keys = keysByTag.get(tag);
        if (!keys) keysByTag.set(tag, (keys = new Set()));
        keys.add(key);
      }
      while (entries.size > maxEntries) drop(entries.keys().next().value!);
      return entry.value as Promise<T>;
    },

    async invalidate(tags) {
      // Dropped here before the bus answers, so the instance that wrote the change reads it at once.
      dropTagged(tags);
      // The change is written: a bus that fails must not fail it, and other instances' entries expire anyway.
      await bus.publish(channel, { tags: [...tags] }).catch((error: unknown) => options.log?.warn({ err: error, cache: options.name }, 'read cache invalidation not published'));
    },

    get size() {
      return entries.size;
    },

    async close() {
      entries.clear();
      keysByTag.clear();
      stopStates();
      await unsubscribe();
    },
  };
}
