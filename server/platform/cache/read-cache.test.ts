import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../bus/memory-bus';
import { createSwitchableBus } from '../bus/switchable-bus';
import { createReadCache } from './read-cache';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('read cache', () => {
  it('shares one load between concurrent misses and answers from it until the entry expires', async () => {
    let clock = 0;
    const cache = await createReadCache(createMemoryBus(), { name: 'test', ttlMs: 1000, now: () => clock });
    const gate = deferred<string>();
    let loads = 0;
    const load = () => ((loads += 1), gate.promise);
    const burst = Array.from({ length: 50 }, () => cache.get('popular', ['streams'], load));
    gate.resolve('tiles');
    expect(await Promise.all(burst)).toEqual(Array(50).fill('tiles'));
    expect(loads).toBe(1);

    clock = 999;
    expect(await cache.get('popular', ['streams'], async () => 'newer')).toBe('tiles');
    clock = 1000;
    expect(await cache.get('popular', ['streams'], async () => 'newer')).toBe('newer');
  });

  it('runs a thenable load once (a query builder queries again at every then)', async () => {
    const cache = await createReadCache(createMemoryBus(), { name: 'test', ttlMs: 1000 });
    let runs = 0;
    const query = { then: (resolve: (rows: string[]) => void) => resolve(((runs += 1), ['row'])) } as unknown as Promise<string[]>;
    for (let i = 0; i < 3; i++) expect(await cache.get('channels', [], () => query)).toEqual(['row']);
    expect(runs).toBe(1);
  });

  it('drops tagged entries on every instance sharing the bus, and only those', async () => {
    const bus = createMemoryBus();
    const [a, b] = [await createReadCache(bus, { name: 'test', ttlMs: 60_000 }), await createReadCache(bus, { name: 'test', ttlMs: 60_000 })];
    const other = await createReadCache(bus, { name: 'other', ttlMs: 60_000 });
    for (const cache of [a, b, other]) {
      await cache.get('popular', ['streams'], async () => 'old');
      await cache.get('countries', ['reference'], async () => 'kept');
    }
    await a.invalidate(['streams']);
    for (const cache of [a, b]) {
      expect(await cache.get('popular', ['streams'], async () => 'new')).toBe('new');
      expect(await cache.get('countries', ['reference'], async () => 'reloaded')).toBe('kept');
    }
    expect(await other.get('popular', ['streams'], async () => 'new')).toBe('old');
  });

  it('does not keep a load that was in flight when its tag was invalidated, nor a failed one', async () => {
    const cache = await createReadCache(createMemoryBus(), { name: 'test', ttlMs: 60_000 });
    const gate = deferred<string>();
    const before = cache.get('popular', ['streams'], () => gate.promise);
    await cache.invalidate(['streams']);
    gate.resolve('read before the change');
    expect(await before).toBe('read before the change');
    expect(await cache.get('popular', ['streams'], async () => 'after')).toBe('after');

    await expect(cache.get('broken', [], async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('broken', [], async () => 'recovered')).toBe('recovered');
  });

  it('drops its own entries and tells the log when the bus cannot publish', async () => {
    const bus = createMemoryBus();
    bus.publish = async () => Promise.reject(new Error('redis down'));
    const warnings: string[] = [];
    const cache = await createReadCache(bus, { name: 'test', ttlMs: 60_000, log: { warn: (_details, message) => warnings.push(message) } });
    await cache.get('popular', ['streams'], async () => 'old');
    await expect(cache.invalidate(['streams'])).resolves.toBeUndefined();
    expect(await cache.get('popular', ['streams'], async () => 'new')).toBe('new');
    expect(warnings).toEqual(['read cache invalidation not published']);
  });

  it('starts empty when the bus is up again, since invalidations published meanwhile may be lost', async () => {
    const bus = createSwitchableBus();
    const cache = await createReadCache(bus, { name: 'test', ttlMs: 60_000 });
    await cache.get('popular', ['streams'], async () => 'before');
    bus.setState('down');
    expect(await cache.get('popular', ['streams'], async () => 'during')).toBe('before');
    bus.setState('up');
    expect(cache.size).toBe(0);
    expect(await cache.get('popular', ['streams'], async () => 'after')).toBe('after');
    await cache.close();
    expect(bus.listeners()).toBe(0);
  });

  it('keeps at most maxEntries, dropping the oldest, and loads every time with ttlMs 0', async () => {
    const cache = await createReadCache(createMemoryBus(), { name: 'test', ttlMs: 60_000, maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, ['t'], async () => key);
    expect(cache.size).toBe(2);
    expect(await cache.get('a', ['t'], async () => 'a again')).toBe('a again');
    expect(await cache.get('c', ['t'], async () => 'c again')).toBe('c');

    const off = await createReadCache(createMemoryBus(), { name: 'test', ttlMs: 0 });
    let loads = 0;
    await Promise.all([off.get('k', [], async () => (loads += 1)), off.get('k', [], async () => (loads += 1))]);
    expect(loads).toBe(2);
    expect(off.size).toBe(0);
  });
});
