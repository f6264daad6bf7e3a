/** Runs when a Redis server is given (TEST_REDIS_URL); CI sets it on machines that have one. */
import { afterAll, expect, it } from 'vitest';
import { suiteNeeding } from '../../testing/suite-needing';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { Bus } from './bus';
import { createRedisBus, redisPrefix } from './redis-bus';

const url = process.env.TEST_REDIS_URL;

/**
 * Publishes `message` on `from`, then a marker on `markFrom` (a bus of `to`'s deployment); answers once
 * the marker reached `to`. Redis pushes a published message to the subscribers' connections while it
 * carries out the PUBLISH, so whatever `to` would hear of the first is there before the marker.
 */
async function publishThenMark(from: Bus, to: Bus, channel: string, message: unknown, markFrom: Bus = from) {
  let marked = false;
  const off = await to.subscribe(`${channel}:marker`, () => (marked = true));
  await from.publish(channel, message);
  await markFrom.publish(`${channel}:marker`, {});
  await expect.poll(() => marked, { timeout: 5000 }).toBe(true);
  await off();
}

suiteNeeding('redis')('redis bus', () => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const o of opened) await o.close();
  });
  const bus = async (prefix: string) => {
    const b = await createRedisBus(url!, { prefix });
    opened.push(b);
    return b;
  };

  it('delivers a message published by one instance to subscribers on another, until they unsubscribe', async () => {
    const prefix = `test:${process.pid}:${Date.now()}:`;
    const [a, b] = [await bus(prefix), await bus(prefix)];
    const channel = 'chat:1';
    const seen: unknown[] = [];
    const off = await b.subscribe(channel, (m) => seen.push(m));
    await a.publish(channel, { type: 'COMMENT', text: 'hi from A' });
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([{ type: 'COMMENT', text: 'hi from A' }]);
    await off();
    await publishThenMark(a, b, channel, { type: 'COMMENT', text: 'after unsubscribe' });
    expect(seen).toHaveLength(1);
  });

  it('keeps two deployments with different prefixes on one Redis apart, and publishes under the prefix', async () => {
    const stamp = `${process.pid}:${Date.now()}`;
    const [first, second, secondPeer] = [await bus(`one:${stamp}:`), await bus(`two:${stamp}:`), await bus(`two:${stamp}:`)];
    const heardBySecond: unknown[] = [];
    await second.subscribe('user:7', (m) => heardBySecond.push(m));
    // The first deployment's own instance hears it; the other never does.
    const firstPeer = await bus(`one:${stamp}:`);
    const heardByPeer: unknown[] = [];
    await firstPeer.subscribe('user:7', (m) => heardByPeer.push(m));
    // The second deployment's marker comes after the message was handed out: had the second heard it, it would be there.
    await publishThenMark(first, second, 'user:7', { type: 'TIP' }, secondPeer);
    await expect.poll(() => heardByPeer, { timeout: 5000 }).toEqual([{ type: 'TIP' }]);
    expect(heardBySecond).toEqual([]);

    // On Redis the channel carries the prefix: a bus with no prefix listening to the bare name hears nothing.
    const bare = await bus('');
    const heardBare: unknown[] = [];
    await bare.subscribe('user:7', (m) => heardBare.push(m));
    const raw = await bus('');
    const heardRaw: unknown[] = [];
    await raw.subscribe(`one:${stamp}:user:7`, (m) => heardRaw.push(m));
    await publishThenMark(first, bare, 'user:7', { type: 'AGAIN' }, raw);
    await expect.poll(() => heardRaw, { timeout: 5000 }).toEqual([{ type: 'AGAIN' }]);
    expect(heardBare).toEqual([]);
  });
});

suiteNeeding('redis')('the default prefix', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('is one per installation: two installations on one Redis do not hear each other', async () => {
    const [a, b] = [await startTestApp({ REDIS_URL: url! }), await startTestApp({ REDIS_URL: url! })];
    apps.push(a, b);
    const [prefixA, prefixB] = [await redisPrefix(a.resources.database.db, undefined), await redisPrefix(b.resources.database.db, undefined)];
    expect(prefixA).toMatch(/^limelight:[0-9a-f]{12}:$/);
    expect(prefixB).not.toBe(prefixA);
    // The same installation answers the same prefix every time (its instances share it).
    expect(await redisPrefix(a.resources.database.db, undefined)).toBe(prefixA);
    expect(await redisPrefix(a.resources.database.db, 'chosen:')).toBe('chosen:');

    const heardByB: unknown[] = [];
    await b.resources.bus.subscribe('stream:1', (m) => heardByB.push(m));
    const [peerOfA, peerOfB] = [await createRedisBus(url!, { prefix: prefixA }), await createRedisBus(url!, { prefix: prefixB })];
    const heardByPeerOfA: unknown[] = [];
    try {
      await peerOfA.subscribe('stream:1', (m) => heardByPeerOfA.push(m));
      await publishThenMark(a.resources.bus, b.resources.bus, 'stream:1', { type: 'LIKE' }, peerOfB);
      await expect.poll(() => heardByPeerOfA, { timeout: 5000 }).toEqual([{ type: 'LIKE' }]);
    } finally {
      await peerOfA.close();
      await peerOfB.close();
    }
    expect(heardByB).toEqual([]);
  });
});
