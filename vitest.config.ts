import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Suites whose subject is not the database — RTMP ingest and ffmpeg, the API document, fuzzed input
 * validation (PGlite is PostgreSQL's own engine, so its refusals are the same), HLS playback routes,
 * the Redis bus, serving the built web app — run once, on the embedded database; the PostgreSQL
 * project runs every other suite again.
 */
const NOT_ABOUT_THE_DATABASE = [
  'server/platform/media/ingest.int.test.ts',
  'server/platform/http/openapi.int.test.ts',
  'server/platform/http/fuzz.int.test.ts',
  'server/platform/media/hls-routes.int.test.ts',
  'server/platform/bus/redis-bus.int.test.ts',
  'server/platform/http/web-app.int.test.ts',
  'server/platform/http/first-start-console.int.test.ts',
];

/**
 * With PostgreSQL given, the embedded database runs again only the suites whose subject is its own
 * engine or what depends on it: the platform's database layer, outbox, jobs, uploads and stored
 * idempotency keys, the ledger and what moves money through it, and the demo seed (the refusal matrix,
 * the realtime gateway and the HTTP edge run on PostgreSQL only). The modules' other suites run on
 * PostgreSQL, and the browser journeys run on the embedded database. Without PostgreSQL, every
 * suite runs embedded.
 */
const EMBEDDED_SUBJECTS = [
  'server/platform/db/**/*.int.test.ts',
  'server/platform/jobs/**/*.int.test.ts',
  'server/platform/uploads/**/*.int.test.ts',
  'server/platform/*.int.test.ts',
  'server/platform/http/idempotency.int.test.ts',
  ...NOT_ABOUT_THE_DATABASE,
  'server/modules/ledger/**/*.int.test.ts',
  'server/modules/tips/**/*.int.test.ts',
  'server/modules/wallet/**/*.int.test.ts',
  'server/demo/**/*.int.test.ts',
];

/** Instances sharing one PostgreSQL database (and Redis): they run on PostgreSQL whatever the project, so in its project only. */
const SCALED_OUT = ['server/**/*-scale.int.test.ts'];

/**
 * Real-time suites — ffmpeg publishing over RTMP at its own pace, instances talking over Redis, runners
 * killed under load — run in their own projects, one file at a time after the others (vitest runs
 * single-worker projects last), so that no other suite takes the CPU they time themselves on.
 */
const REAL_TIME = [
  'server/platform/media/ingest.int.test.ts',
  'server/modules/streams/live.int.test.ts',
  'server/modules/streams/studio.int.test.ts',
  'server/modules/streams/live-s3.int.test.ts',
  'server/modules/streams/live-renditions.int.test.ts',
  'server/modules/streams/browser-broadcast.int.test.ts',
  ...SCALED_OUT,
];

/** `order`: ordinary suites (0) run side by side first, then each real-time project on its own (1, 2). */
const integration = (name: string, env: Record<string, string>, files: { include?: string[]; exclude?: string[] }, order: 0 | 1 | 2) => ({
  test: {
    name,
    include: files.include ?? ['server/**/*.int.test.ts'],
    exclude: ['node_modules/**', ...(files.exclude ?? [])],
    globalSetup: ['server/testing/global-setup.ts'],
    env,
    pool: 'forks' as const,
    // Every suite builds its own app on its own database: a worker keeps the modules it has loaded for the
    // next file instead of loading the whole server again (about 3 s of CPU a file).
    isolate: false,
    // Ordinary suites each own a fresh database: two files at a time on 2 cores.
    ...(order > 0 ? { fileParallelism: false } : { maxWorkers: os.availableParallelism() }),
    sequence: { groupOrder: order },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

const onBoth = (list: string[]) => list.filter((f) => !NOT_ABOUT_THE_DATABASE.includes(f) && !SCALED_OUT.includes(f));

export default defineConfig({
  test: {
    // Transformed modules kept on disk (keyed by content): each project, and each later run, loads the
    // server's modules without transforming them again.
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['server/**/*.int.test.ts', 'node_modules/**'],
          isolate: false,
        },
      },
      integration('integration', { TEST_DB_KIND: 'pglite' }, { ...(process.env.TEST_DATABASE_URL ? { include: EMBEDDED_SUBJECTS } : {}), exclude: [...REAL_TIME, ...SCALED_OUT] }, 0),
      // With PostgreSQL given, the real-time suites whose subject is the media path (going live, the studio, object
      // storage, renditions, the browser's broadcast) run there only, as the scaled-out ones do; the ingest, which
      // needs no database, stays here.
      integration('integration-media', { TEST_DB_KIND: 'pglite' }, { include: process.env.TEST_DATABASE_URL ? REAL_TIME.filter((f) => NOT_ABOUT_THE_DATABASE.includes(f)) : REAL_TIME, exclude: SCALED_OUT }, 1),
      // The same suites on PostgreSQL when a server is given (CI sets it on machines that have one).
      ...(process.env.TEST_DATABASE_URL
        ? [
            integration('integration-postgres', { TEST_DB_KIND: 'postgres' }, { exclude: [...REAL_TIME, ...NOT_ABOUT_THE_DATABASE] }, 0),
            integration('integration-postgres-media', { TEST_DB_KIND: 'postgres' }, { include: [...onBoth(REAL_TIME), ...SCALED_OUT] }, 2),
          ]
        : []),
    ],
  },
});
