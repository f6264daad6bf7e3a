import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser journeys: one real server per file, one file at a time by default. A journey mostly waits (all
 * 31 files take about 740 s of CPU against some 1,200 s of wall time), but on 2 cores two at a time
 * starved the crash tests and the fault suite that run beside them (decision 0056): E2E_WORKERS=2 where
 * the machine has the cores.
 */
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 1) || 1);
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
    fileParallelism: workers > 1,
    maxWorkers: workers,
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content): a run after
    // the first loads the server's modules without transforming them again (some 3 s a run).
    experimental: { fsModuleCache: true },
  },
});
