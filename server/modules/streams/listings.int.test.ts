/** The listings every visitor sees alike, from the instance's read cache, on the embedded database and bus. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { listingsFollowChanges } from './listing-invalidation.scenario';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ READ_CACHE_MS: '60000' });
});
afterAll(() => t.close());

describe('cached listings', () => {
  it('answer from the cache and follow every change the streams module makes', { timeout: 60_000 }, async () => {
    await listingsFollowChanges(t, [t]);
  });

  it('answer a burst of visitors alike, with the answer the route would have made', async () => {
    await t.given.liveStream({ title: 'Burst' });
    const burst = await Promise.all(Array.from({ length: 20 }, () => t.client().get('/api/channel/list-streams', { offset: 0, limit: 10 })));
    expect(new Set(burst.map((res) => JSON.stringify(res.body))).size).toBe(1);
    expect(burst[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(burst[0]!.body).toMatchObject({ response: 'success', total: expect.any(Number) });
    expect(burst[0]!.body).not.toHaveProperty('promotedOwners');
  });
});
