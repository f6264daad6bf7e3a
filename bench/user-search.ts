/**
 * User search over HTTP (GET /api/channel/search-user) with 100,000 users, on the embedded database
 * and on PostgreSQL when BENCH_DATABASE_URL is set. The username trigram index must carry it.
 * Goals on the 2-core machine (16 concurrent searchers, load generator on the same machine):
 * PostgreSQL ≥ 150 searches/s with p99 ≤ 300 ms; embedded ≥ 50/s.
 * History: ranking every match by similarity() scanned all rows: 7/s (PostgreSQL) and 2/s (embedded);
 * prefix matches from a C-collated index range scan, then substring and typo matches, with a capped
 * total: 207/s (p50 68 ms, p99 196 ms) and 69/s (2026-11-21). One search alone takes 7–15 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openResources } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import type { Db } from '../server/platform/db/client';
import { HttpSession } from '../server/testing/http-session';
import { startServerProcess } from '../server/testing/server';
import { emptyPostgresDatabase } from '../server/testing/tip-load';
import { load, writeResult } from './lib';

const USERS = 100_000;
const TERMS = ['mar', 'ann', 'kel', 'joh', 'sam_1', 'zzq', 'lee12', 'tom_9', 'rob', 'ali'];

/** Plausible usernames: a first name, a separator and a number. */
async function seedUsers(db: Db) {
  await db.execute(sql`
    insert into users (username, email, broadcast_key, country)
    select n || case when g % 3 = 0 then '_' else '' end || g, 'bench' || g || '@bench.example', 'bench_' || g, 'US'
    from generate_series(1, ${USERS}) g,
         lateral (select (array['mark','anna','kelly','john','sam','lee','tom','rob','alice','maria','kevin','joan'])[1 + g % 12] as n) names`);
  await db.execute(sql`analyze users`);
}

async function explain(db: Db) {
  const plan = await db.execute(sql`explain select id from users where lower(username) % 'mar' or lower(username) like '%mar%' limit 50`);
  return plan.rows.map((r) => Object.values(r)[0]).join('\n');
}

async function measure(label: string, env: Record<string, string>, dataDir: string) {
  const server = await startServerProcess({ ...env, SEED_DEMO: 'off' }, { dataDir });
  try {
    const client = HttpSession.at(server.url);
    let i = 0;
    const result = await load(16, 5, async () => {
      const term = TERMS[i++ % TERMS.length]!;
      const res = await client.get('/api/channel/search-user', { search: term });
      return res.status === 200;
    });
    return { label, searches: result };
  } finally {
    await server.stop();
  }
}

async function embedded() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-bench-search-'));
  const resources = await openResources(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  await seedUsers(resources.database.db);
  const plan = await explain(resources.database.db);
  await resources.close();
  try {
    return { ...(await measure('embedded (PGlite)', {}, dataDir)), plan };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgres() {
  const db = await emptyPostgresDatabase('ll_bench_search');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-bench-search-'));
  try {
    const resources = await openResources(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: db.url, LOG_LEVEL: 'silent' }));
    await seedUsers(resources.database.db);
    const plan = await explain(resources.database.db);
    await resources.close();
    return { ...(await measure('PostgreSQL', { DATABASE_URL: db.url }, dataDir)), plan };
  } finally {
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const runs = [await embedded()];
if (process.env.BENCH_DATABASE_URL) runs.push(await postgres());
writeResult('user-search', { users: USERS, concurrency: 16, runs });
