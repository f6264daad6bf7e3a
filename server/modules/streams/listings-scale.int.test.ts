/**
 * Cached listings on two instances sharing PostgreSQL and Redis: a change written through one instance
 * drops the other's entries over the bus. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { suiteNeeding } from '../../testing/suite-needing';
import { startSharedTestApps, type TestApp } from '../../testing/harness';
import { listingsFollowChanges } from './listing-invalidation.scenario';

const redisUrl = process.env.TEST_REDIS_URL;

suiteNeeding('postgres', 'redis')('cached listings scaled out over Redis', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    [a, b] = (await startSharedTestApps(2, { REDIS_URL: redisUrl!, READ_CACHE_MS: '60000' })) as [TestApp, TestApp];
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('leave and change the listing on every instance when a stream ends, is renamed or is hidden', { timeout: 60_000 }, async () => {
    await listingsFollowChanges(a, [a, b]);
  });
});
