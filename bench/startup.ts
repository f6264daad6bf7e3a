/**
 * The production build against the sources through tsx, side by side (decision 0067): `node
 * dist/server/main.js` (what `npm run start:prod` runs; built here first) and `node --import tsx
 * server/main.ts` (what `npm start` runs), started in turn on one migrated PostgreSQL database with the same
 * production settings. Per start: the milliseconds from the spawn to `/readyz` answering, the resident
 * memory once it answers and 2 s later, and after a light load (8 connections for 3 s over the guest home
 * page's calls, the web index and the API document), and the CPU it used until it answered (what a busy
 * machine changes least) and the time less its main thread's wait for a CPU, with each figure's ratio compiled / tsx. The two
 * alternate, so that both see the same neighbours on the shared machine; medians of STARTUP_ROUNDS (5).
 * Goals: the compiled server answers within 3 s of its start, on less memory than tsx.
 * Runs when BENCH_DATABASE_URL is set (a fresh database is made on its server and dropped).
 * Measured 2026-11-29, 4 rounds, the 2-core machine saturated by other work (load average 13–16): compiled
 * 9.5 s to ready (2.5 s less its wait for a CPU), 3.0 s of CPU, 169 MB → 181 MB after the load; tsx 19.9 s
 * (5.6 s), 6.3 s of CPU, 236 → 246 MB: 0.48 × the time and the CPU, 0.72–0.74 × the memory.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { buildServer } from '../scripts/build-server';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import { emptyPostgresDatabase } from '../server/testing/tip-load';
import { cpuSeconds, rssBytes, runQueueWaitNs } from './chat-fanout-load';
import { load, round, sleep, writeResult } from './lib';

const ROUNDS = Number(process.env.STARTUP_ROUNDS ?? 5);
const GOALS = { compiledReadyMs: 3000, rssRatio: 1 };
const mb = (bytes: number) => round(bytes / 1_048_576, 1);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** What a visitor's first page asks for, and what an operator's tools read. */
const LIGHT_LOAD = [
  '/',
  '/api/channel/list-streams?offset=0&limit=20',
  '/api/channel/base-group',
  '/api/user/session-detail',
  '/api/docs/json',
  '/healthz',
];

interface Start {
  readyMs: number;
  /**
   * The same less the time its main thread waited for a CPU while it could run (the kernel's run queue):
   * about what it takes on a machine nobody else uses.
   */
  readyMsUnqueued: number;
  /** CPU the process (all its threads) used until it answered: what the neighbours' load changes least. */
  cpuMsToReady: number;
  rssAtReadyMb: number;
  rssSettledMb: number;
  rssAfterLoadMb: number;
  requests: number;
  errors: number;
}

async function oneStart(compiled: string | undefined, env: Record<string, string>): Promise<Start> {
  let server: ServerProcess | null = null;
  try {
    server = await startServerProcess(env, { compiled });
    const pid = server.child.pid!;
    const rssAtReady = rssBytes(pid);
    const cpu = cpuSeconds(pid);
    const queuedMs = runQueueWaitNs(pid) / 1e6;
    await sleep(2000);
    const rssSettled = rssBytes(pid);
    const base = server.url;
    const served = await load(8, 3, async (worker) => {
      const res = await fetch(`${base}${LIGHT_LOAD[worker % LIGHT_LOAD.length]}`);
      await res.arrayBuffer();
      // A guest's session check is answered 401.
      return res.ok || res.status === 401;
    });
    await sleep(1000);
    return { readyMs: server.readyAfterMs, readyMsUnqueued: Math.round(server.readyAfterMs - queuedMs), cpuMsToReady: Math.round((cpu.user + cpu.system) * 1000), rssAtReadyMb: mb(rssAtReady), rssSettledMb: mb(rssSettled), rssAfterLoadMb: mb(rssBytes(pid)), requests: served.requests, errors: served.errors };
  } finally {
    await server?.stop();
  }
}

function summary(starts: Start[]) {
  const of = (key: keyof Start) => round(median(starts.map((s) => s[key])), 1);
  return { readyMs: of('readyMs'), readyMsUnqueued: of('readyMsUnqueued'), cpuMsToReady: of('cpuMsToReady'), rssAtReadyMb: of('rssAtReadyMb'), rssSettledMb: of('rssSettledMb'), rssAfterLoadMb: of('rssAfterLoadMb'), requests: of('requests'), errors: of('errors') };
}

async function main() {
  if (!process.env.BENCH_DATABASE_URL) {
    console.log('startup: skipped, BENCH_DATABASE_URL is not set (the goals are set on PostgreSQL)');
    return;
  }
  const built = await buildServer();
  console.log(`built ${built.file} in ${built.ms} ms`);
  if (!existsSync('dist/web/index.html')) console.warn('dist/web is not built: the web index answers 404 in the load (npm run build:web)');
  const db = await emptyPostgresDatabase('ll_bench_startup');
  // Production settings on both: no demo data, no outbox, no test cards (the test helper's defaults are for tests).
  const env = { DATABASE_URL: db.url, NODE_ENV: 'production', MAIL_OUTBOX: 'off', PAYMENTS: 'none', SEED_DEMO: 'off', CAPTCHA: 'altcha', LOG_LEVEL: 'warn' };
  const runs: { tsx: Start[]; compiled: Start[] } = { tsx: [], compiled: [] };
  const loadavg: number[] = [];
  try {
    // The first start migrates the empty database: not measured.
    await (await startServerProcess(env, { compiled: built.file })).stop();
    for (let turn = 0; turn < ROUNDS; turn += 1) {
      loadavg.push(os.loadavg()[0]!);
      // Each round in the other order, so that neither always follows the other.
      const order = turn % 2 === 0 ? [false, true] : [true, false];
      for (const compiled of order) {
        const start = await oneStart(compiled ? built.file : undefined, env);
        runs[compiled ? 'compiled' : 'tsx'].push(start);
        console.log(`[round ${turn + 1}] ${compiled ? 'compiled' : 'tsx     '} ready in ${start.readyMs} ms (${start.readyMsUnqueued} ms less its wait for a CPU; ${start.cpuMsToReady} ms of CPU), RSS ${start.rssAtReadyMb} → ${start.rssSettledMb} → ${start.rssAfterLoadMb} MB after ${start.requests} requests`);
      }
    }
  } finally {
    await db.drop();
  }
  const tsx = summary(runs.tsx);
  const compiled = summary(runs.compiled);
  const ratio = (key: 'readyMs' | 'readyMsUnqueued' | 'cpuMsToReady' | 'rssAtReadyMb' | 'rssSettledMb' | 'rssAfterLoadMb') => round(compiled[key] / tsx[key], 2);
  const ratios = { readyMs: ratio('readyMs'), readyMsUnqueued: ratio('readyMsUnqueued'), cpuMsToReady: ratio('cpuMsToReady'), rssAtReady: ratio('rssAtReadyMb'), rssSettled: ratio('rssSettledMb'), rssAfterLoad: ratio('rssAfterLoadMb') };
  console.table({ tsx, compiled, 'compiled / tsx': ratios });
  writeResult('startup', {
    database: 'PostgreSQL',
    rounds: ROUNDS,
    bundle: { bytes: built.bytes, buildMs: built.ms },
    loadAverage: loadavg.map((n) => round(n, 2)),
    goals: GOALS,
    goalsMet: { compiledReadyMs: compiled.readyMs < GOALS.compiledReadyMs, compiledReadyMsUnqueued: compiled.readyMsUnqueued < GOALS.compiledReadyMs, rssRatio: ratios.rssSettled < GOALS.rssRatio && ratios.rssAfterLoad < GOALS.rssRatio },
    tsx,
    compiled,
    ratios,
    runs,
  });
}

await main();
