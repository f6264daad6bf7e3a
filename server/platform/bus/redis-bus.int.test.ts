/** Runs when a Redis server is given (TEST_REDIS_URL); CI sets it on machines that have one. */
import { describe, expect, it } from 'vitest';
import { createRedisBus } from './redis-bus';

const url = process.env.TEST_REDIS_URL;

describe.runIf(url)('redis bus', () => {
  it('delivers a message published by one instance to subscribers on another, until they unsubscribe', async () => {
    const a = await createRedisBus(url!);
    const b = await createRedisBus(url!);
    const channel = `test:${process.pid}:${Date.now()}`;
    const seen: unknown[] = [];
    try {
      const off = await b.subscribe(channel, (m) => seen.push(m));
      await a.publish(channel, { type: 'COMMENT', text: 'hi from A' });
      await expect.poll(() => seen, { timeout: 5000 }).toEqual([{ type: 'COMMENT', text: 'hi from A' }]);
      await off();
      let marked = false;
      await b.subscribe(`${channel}:marker`, () => (marked = true));
      await a.publish(channel, { type: 'COMMENT', text: 'after unsubscribe' });
      // Redis delivers one connection's messages in order: once the marker is here, the one before is not coming.
      await a.publish(`${channel}:marker`, {});
      await expect.poll(() => marked, { timeout: 5000 }).toBe(true);
      expect(seen).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
