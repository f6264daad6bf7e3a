import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Browser journeys: one real server per file, one file at a time (chromium and PGlite are heavy on 2 cores). */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One migrated embedded database for the run, copied for each journey's server.
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    // Each journey starts its own server and browser: the worker keeps the modules loaded for the next file.
    isolate: false,
    fileParallelism: false,
  },
});
