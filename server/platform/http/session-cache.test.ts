import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../bus/memory-bus';
import { createSwitchableBus } from '../bus/switchable-bus';
import { createSessionCache, forgetOverBus } from './session-cache';

function counter(userId: number) {
  let reads = 0;
  return {
    load: async () => {
      reads += 1;
      return { userId, value: `read ${reads}` };
    },
    reads: () => reads,
  };
}

describe('session cache', () => {
  it('reads once, then answers from memory until the entry expires', async () => {
    let at = 0;
    const cache = await createSessionCache<string>(createMemoryBus(), { ttlMs: 1000, maxEntries: 10, now: () => at });
    const source = counter(1);
    expect(await cache.get('s1', source.load)).toEqual({ value: 'read 1', cached: false });
    expect(await cache.get('s1', source.load)).toEqual({ value: 'read 1', cached: true });
    at = 1001;
    expect(await cache.get('s1', source.load)).toEqual({ value: 'read 2', cached: false });
    expect(source.reads()).toBe(2);
  });

  it('forgets a session, or every session of a user, on every instance sharing the bus', async () => {
    const bus = createMemoryBus();
    const here = await createSessionCache<string>(bus, { ttlMs: 60_000, maxEntries: 10 });
    const there = await createSessionCache<string>(bus, { ttlMs: 60_000, maxEntries: 10 });
    for (const cache of [here, there]) {
      await cache.get('a1', counter(1).load);
      await cache.get('a2', counter(1).load);
      await cache.get('b1', counter(2).load);
    }
    await here.forget({ sessionId: 'a1' });
    expect([here.size(), there.size()]).toEqual([2, 2]);
    await forgetOverBus(bus, { userId: 1 });
    expect([here.size(), there.size()]).toEqual([1, 1]);
    expect((await there.get('b1', counter(2).load))?.cached).toBe(true);
  });

  it('does not keep a read that was under way when a forget arrived', async () => {
    const cache = await createSessionCache<string>(createMemoryBus(), { ttlMs: 60_000, maxEntries: 10 });
    let finish!: () => void;
    const slow = cache.get('s1', () => new Promise((resolve) => {
      finish = () => resolve({ userId: 1, value: 'before the change' });
    }));
    await cache.forget({ userId: 1 });
    finish();
    expect((await slow)?.value).toBe('before the change');
    expect(await cache.get('s1', async () => ({ userId: 1, value: 'after' }))).toEqual({ value: 'after', cached: false });
  });

  it('drops the least recently used entry when full', async () => {
    const cache = await createSessionCache<string>(createMemoryBus(), { ttlMs: 60_000, maxEntries: 2 });
    await cache.get('s1', counter(1).load);
    await cache.get('s2', counter(2).load);
    await cache.get('s1', counter(1).load);
    await cache.get('s3', counter(3).load);
    expect(cache.size()).toBe(2);
    expect((await cache.get('s1', counter(1).load))?.cached).toBe(true);
    expect((await cache.get('s2', counter(2).load))?.cached).toBe(false);
  });

  it('reads the database while the bus is down, keeps nothing, and starts empty when it is up again', async () => {
    const bus = createSwitchableBus();
    const cache = await createSessionCache<string>(bus, { ttlMs: 60_000, maxEntries: 10 });
    const s1 = counter(1);
    await cache.get('s1', s1.load);
    bus.setState('down');
    expect(cache.size()).toBe(0);
    expect((await cache.get('s1', s1.load))?.cached).toBe(false);
    expect((await cache.get('s1', s1.load))?.cached).toBe(false);
    expect(s1.reads()).toBe(3);
    expect(cache.size()).toBe(0);
    bus.setState('up');
    expect((await cache.get('s1', s1.load))?.cached).toBe(false);
    expect((await cache.get('s1', s1.load))?.cached).toBe(true);
    await cache.close();
    expect(bus.listeners()).toBe(0);
  });

  it('answers null for an unknown session and keeps nothing', async () => {
    const cache = await createSessionCache<string>(createMemoryBus(), { ttlMs: 60_000, maxEntries: 10 });
    expect(await cache.get('nobody', async () => null)).toBeNull();
    expect(cache.size()).toBe(0);
  });
});
