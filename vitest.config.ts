import { defineConfig } from 'vitest/config';

/**
 * Suites whose subject is not the database — RTMP ingest and ffmpeg, the API document, fuzzed input
 * validation (PGlite is PostgreSQL's own engine, so its refusals are the same) — run once, on the
 * embedded database; the PostgreSQL project runs every other suite again.
 */
const NOT_ABOUT_THE_DATABASE = [
  'server/platform/media/ingest.int.test.ts',
  'server/platform/http/openapi.int.test.ts',
  'server/platform/http/fuzz.int.test.ts',
];

const integration = (name: string, env: Record<string, string>, exclude: string[] = []) => ({
  test: {
    name,
    include: ['server/**/*.int.test.ts'],
    exclude: ['node_modules/**', ...exclude],
    globalSetup: ['server/testing/global-setup.ts'],
    env,
    pool: 'forks' as const,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['server/**/*.int.test.ts', 'node_modules/**'],
        },
      },
      integration('integration', { TEST_DB_KIND: 'pglite' }),
      // The same suites on PostgreSQL when a server is given (CI sets it on machines that have one).
      ...(process.env.TEST_DATABASE_URL ? [integration('integration-postgres', { TEST_DB_KIND: 'postgres' }, NOT_ABOUT_THE_DATABASE)] : []),
    ],
  },
});
