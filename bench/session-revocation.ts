/**
 * How soon a signed-out session is refused by another instance that had it cached (decision 0030).
 * Two server processes share a fresh PostgreSQL database and Redis, each keeping signed-in sessions for
 * SESSION_CACHE_SECONDS (300 here, so only the bus can end an entry). Each round: sign in on A, read
 * `session-detail` on B (now cached there), sign out on A, then ask B again and again until it answers
 * 401. Reports the time from A's answer to the sign-out to B's first refusal, beside the time of one
 * plain request to B (the floor of what polling can see). Goal: refused within 100 ms.
 *
 * Env: REVOCATION_ROUNDS (200), BENCH_DATABASE_URL, BENCH_REDIS_URL (redis://127.0.0.1:6379).
 */
import { readFileSync } from 'node:fs';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { HttpSession } from '../server/testing/http-session';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import { SESSION_COOKIE } from '../server/platform/http/sessions';
import { emptyPostgresDatabase } from '../server/testing/tip-load';
import { latencySummary, writeResult } from './lib';

const ROUNDS = Number(process.env.REVOCATION_ROUNDS ?? 200);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const GOAL_MS = 100;

async function main() {
  const db = await emptyPostgresDatabase('ll_bench_revocation');
  const servers: ServerProcess[] = [];
  try {
    const shared = { DATABASE_URL: db.url, REDIS_URL, SESSION_CACHE_SECONDS: '300', LOG_LEVEL: 'warn' };
    servers.push(await startServerProcess({ ...shared, SEED_DEMO: 'on' }));
    servers.push(await startServerProcess({ ...shared, SEED_DEMO: 'off' }));
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const refusedAfter: number[] = [];
    const plainRequest: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const here = await HttpSession.at(a.url).signIn('viewer1', DEMO_PASSWORD);
      const there = HttpSession.at(b.url);
      there.setCookie(SESSION_COOKIE, here.cookie(SESSION_COOKIE)!);
      const t0 = performance.now();
      if ((await there.get('/api/user/session-detail')).status !== 200) throw new Error('B did not take the session');
      plainRequest.push(performance.now() - t0);
      await here.post('/api/user/logout');
      const signedOut = performance.now();
      for (;;) {
        const status = (await there.get('/api/user/session-detail')).status;
        if (status === 401) break;
        if (performance.now() - signedOut > 10_000) throw new Error('B still answered after 10 s');
      }
      refusedAfter.push(performance.now() - signedOut);
    }
    const refused = latencySummary(refusedAfter);
    const result = {
      config: { rounds: ROUNDS, cacheSeconds: 300 },
      refusedAfterSignOut: refused,
      oneRequestToB: latencySummary(plainRequest),
      goal: { ms: GOAL_MS, met: refused.maxMs <= GOAL_MS },
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
    };
    console.table({ 'refused on B after sign-out on A': refused, 'one request to B': result.oneRequestToB });
    writeResult('session-revocation', result);
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
