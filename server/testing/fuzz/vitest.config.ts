/**
 * `npm run fuzz`: the fuzz suite (server/platform/http/fuzz.int.test.ts) as a long campaign, outside
 * the normal suite. FUZZ_SECONDS (default 600) bounds it in time, rounds of FUZZ_INPUTS inputs (default
 * 20,000) with new seeds each; FUZZ_SEED changes the base seed. On PostgreSQL when TEST_DATABASE_URL is set.
 */
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const seconds = Number(process.env.FUZZ_SECONDS ?? 600);

export default defineConfig({
  root: path.resolve(import.meta.dirname, '../../..'),
  test: {
    name: 'fuzz',
    include: ['server/platform/http/fuzz.int.test.ts'],
    globalSetup: ['server/testing/global-setup.ts'],
    env: {
      TEST_DB_KIND: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
      FUZZ_SECONDS: String(seconds),
      FUZZ_INPUTS: process.env.FUZZ_INPUTS ?? '20000',
    },
    pool: 'forks',
    testTimeout: (seconds * 2 + 600) * 1_000,
    hookTimeout: 120_000,
  },
});
