import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { Executor } from './client';
import { withPlansForValues } from './plans-for-values';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const planMode = async (exec: Executor) => (await exec.execute<{ plan_cache_mode: string }>(sql`show plan_cache_mode`)).rows[0]!.plan_cache_mode;

it('plans the statements it runs for their values, and leaves the connection as it found it', async () => {
  const { db, kind } = t.resources.database;
  const before = await planMode(db);
  if (kind === 'postgres') expect(before).toBe('force_generic_plan');
  expect(await withPlansForValues(db, (tx) => planMode(tx))).toBe('force_custom_plan');
  // On every connection of the pool, not only the one the transaction had.
  const after = await Promise.all(Array.from({ length: 4 }, () => planMode(db)));
  expect(after).toEqual([before, before, before, before]);
});
