import { defineConfig } from 'vitest/config';

const integration = (name: string, env: Record<string, string>) => ({
  test: {
    name,
    include: ['server/**/*.int.test.ts'],
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
      ...(process.env.TEST_DATABASE_URL ? [integration('integration-postgres', { TEST_DB_KIND: 'postgres' })] : []),
    ],
  },
});
