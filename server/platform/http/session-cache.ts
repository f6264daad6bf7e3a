/**
 * Resolved sessions kept per instance, so a signed-in request does not read its session and principal
 * from the database each time (decision 0030). Whatever ends a session or changes who its user is
 * (sign-out, a password reset, suspension, a permission, a role, a closed account) is forgotten on every
 * instance over the bus after it commits; an entry's short life is only the backstop for a change made
 * where no bus reaches (a direct SQL edit). While the bus is down a forget from another instance cannot
 * arrive, so every lookup reads the database and nothing is kept; the cache starts empty when the bus is
 * up again (decision 0044): a session signed out elsewhere during an outage is refused at once.
 */
import type { Bus } from '../bus/bus';

/** Where every instance hears that sessions changed (the realtime gateway listens too). */
export const FORGET_CHANNEL = 'auth:forget';

export type ForgetTarget = { sessionId: string } | { userId: number } | { everyone: true };

/** Tells every instance's cache to forget; for a process that keeps no cache itself (`npm run admin`). */
export const forgetOverBus = (bus: Bus, target: ForgetTarget) => bus.publish(FORGET_CHANNEL, target);

interface Entry<T> {
  userId: number;
  value: T;
  until: number;
}

export interface SessionCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

export async function createSessionCache<T>(bus: Bus, options: SessionCacheOptions) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<T>>();
  // Every forget moves the generation on: a read that began before it is answered but not kept, so
  // it cannot put back what the forget removed.
  let generation = 0;

  function drop(target: ForgetTarget) {
    generation += 1;
    if ('sessionId' in target) entries.delete(target.sessionId);
    else if ('userId' in target) {
      for (const [id, entry] of entries) if (entry.userId === target.userId) entries.delete(id);
    } else entries.clear();
  }

  const unsubscribe = await bus.subscribe(FORGET_CHANNEL, (message) => drop(message as ForgetTarget));
  const stopStates = bus.onStateChange(() => drop({ everyone: true }));

  return {
    /** The cached value of a session id, or what `load` reads (kept unless a forget came meanwhile). */
    async get(sessionId: string, load: () => Promise<{ userId: number; value: T } | null>): Promise<{ value: T; cached: boolean } | null> {
      if (bus.state() === 'down') {
        const loaded = await load();
        return loaded && { value: loaded.value, cached: false };
      }
      const entry = entries.get(sessionId);
      if (entry && entry.until > now()) {
        // Least recently used goes first when the cache is full: a Map iterates in insertion order.
        entries.delete(sessionId);
        entries.set(sessionId, entry);
        return { value: entry.value, cached: true };
      }
      if (entry) entries.delete(sessionId);
      const started = generation;
      const loaded = await load();
      if (!loaded) return null;
      if (generation === started && bus.state() === 'up') {
        if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(sessionId, { userId: loaded.userId, value: loaded.value, until: now() + options.ttlMs });
      }
      return { value: loaded.value, cached: false };
    },
    /** Forgets on this instance only (a session found expired here is expired everywhere). */
    dropLocally: (sessionId: string) => drop({ sessionId }),
    /** Forgets on every instance; call it after the change has committed. */
    async forget(target: ForgetTarget) {
      drop(target);
      await forgetOverBus(bus, target);
    },
    size: () => entries.size,
    async close() {
      stopStates();
      await unsubscribe();
    },
  };
}

export type SessionCache<T> = Awaited<ReturnType<typeof createSessionCache<T>>>;
