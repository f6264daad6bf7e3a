/**
 * Creator analytics on PostgreSQL: GET /api/user/user-analytics for one creator with 3 years of days,
 * at 1 million and at 10 million tips, the dashboard's real calls over HTTP with a signed-in session,
 * 16 at once for 10 s each: (a) the main call, This month: the four totals and the three daily series;
 * (b) Top tippers for Last 30 days, Last 90 days, Last 12 months and All time; (c) Top streams by tips
 * and by views, All time; (d) the totals and series for All time (2016-01-01..today, every day of it).
 * Side by side, the same server's app-config (no database) and pgbench's select-only run (same
 * concurrency) on the same PostgreSQL: the ratios say what a call costs against the machine. Also an
 * ordinary client: curl, the main call one request after another.
 *
 * Seeded in SQL (generate_series): bench_creator (signs in with a password, as the dashboard does), 4,000
 * fans of whom 2,000 tip (drawn skewed: the first tipper gives ~8 % of the tips), one stream a day over
 * 1,096 days, tips straight into ledger_transfers (kind 'tip', CON, amounts 1–500, created_at spread over
 * the 3 years, the day's stream); their ledger_entries are not written: analytics reads the transfers
 * only. 300,000 first views (anonymous viewers) and 3,500 follows over the same days. The fold
 * (createFold, as the server's job runs it) is timed from empty rollups; for the second size the other
 * 9 M tips are added in the same 3 years, the rollups emptied (folded_until null) and all 10 M folded
 * again. Before each measurement the All time answer is checked against the books.
 *
 * Goal (issue): p99 ≤ 50 ms, flat as data grows (p99 at 10 M / p99 at 1 M near 1).
 * Measured 2026-11-27 on the 2-core machine (load generator, server and PostgreSQL 15 on it; autovacuum off
 * there: the rollups are vacuumed after the fold), after Top tippers ranks its page before looking up
 * people and the series stop at today. One at a time (30 requests a call) and 4 at once
 * (ANALYTICS_BENCH_CONCURRENCY=4, 10 s a call); app-config beside it 9,110/s and 9,221/s, so the two
 * stages compare:
 *                             alone p50 / p99 ms        4 at once p50 / p99 ms, req/s            p99 (4) 10M/1M
 *                             1 M          10 M         1 M                10 M
 *   main call, This month     1.7 /  2.6   1.7 /  3.5    4.2 / 11.4  879    4.2 / 10.4  891      0.91
 *   Top tippers 30 days      10.9 / 19.1  13.4 / 18.9   22.0 / 45.1  175   29.2 / 53.7  134      1.19
 *   Top tippers 90 days       9.5 / 12.4  21.3 / 25.0   18.8 / 37.6  208   36.2 / 65.9  111      1.75
 *   Top tippers 12 months    18.2 / 24.0  20.1 / 26.8   32.0 / 59.9  123   47.2 / 79.7   84      1.33
 *   Top tippers All time      2.0 /  3.1   3.0 /  4.1    4.0 /  9.9  937    4.9 / 11.0  781      1.11
 *   Top streams by tip, All   2.5 /  3.1   2.9 /  3.8    7.8 / 18.5  484    7.8 / 15.8  488      0.85
 *   Top streams by view, All  4.8 /  7.8   3.4 /  4.5    8.1 / 17.7  469    7.3 / 14.8  526      0.83
 *   totals + series, All time 9.0 / 38.6   9.9 / 13.7   27.6 / 69.2  136   28.0 / 62.9  135      0.91  (137 KB)
 * Ratios at 4 at once: the main call 0.096 of app-config at both sizes, 0.028 of pgbench select-only
 * (32,007 tps, -c 4). curl, the main call one at a time: median 4.1 / p99 11.1 ms (1 M), 4.0 / 7.5 ms
 * (10 M). The fold from empty rollups: 10.1 s for 1 M tips (1.30 M facts, 128,700 facts/s) and 55.8 s for
 * 10 M (10.3 M facts, 184,800 facts/s). Seeding 21 s and 174 s.
 * So: every call answers alone within 27 ms at 10 M (the goal); 4 at once, the main call, All time and the
 * stream lists stay within 20 ms, Top tippers over a range does not. Flat in tips, not in tippers: Top
 * tippers over a range sums the range's tipper-days (613,000 rows at 1 M, 1.99 M at 10 M: more distinct
 * tippers a day), up to 54,000 rows for 30 days. An earlier run at 16 at once (before the two changes,
 * another workload beside it): the main call p99 77–92 ms, Top tippers over ranges 182–344 ms, the All
 * time series 511–560 ms (481 KB).
 *
 * Env: ANALYTICS_BENCH_TIPS (1000000,10000000: the sizes, ascending), ANALYTICS_BENCH_SECONDS (10),
 * ANALYTICS_BENCH_KEEP_DB=1 (keep the database for EXPLAIN; its URL is printed; drop it by hand),
 * BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test: a fresh database is created and dropped).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openResources } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { hashPassword } from '../server/modules/accounts';
import { addDays, utcDay, createFold } from '../server/modules/analytics';
import type { Db } from '../server/platform/db/client';
import { HttpSession } from '../server/testing/http-session';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import { emptyPostgresDatabase } from '../server/testing/tip-load';
import { latencySummary, load, round, writeResult, type LoadResult } from './lib';
import { runPgbench } from './pgbench';

const SIZES = (process.env.ANALYTICS_BENCH_TIPS ?? '1000000,10000000').split(',').map(Number).sort((a, b) => a - b);
const SECONDS = Number(process.env.ANALYTICS_BENCH_SECONDS ?? 10);
const KEEP_DB = process.env.ANALYTICS_BENCH_KEEP_DB === '1';
const CONCURRENCY = Number(process.env.ANALYTICS_BENCH_CONCURRENCY ?? 16);
const CURL_REQUESTS = 100;
/** Requests of each call one after another, after its load: what one costs without a queue. */
const ALONE_REQUESTS = 30;
const GOAL_P99_MS = 50;
const DAYS = 1_096;
const FANS = 4_000;
const TIPPERS = 2_000;
const FOLLOWS = 3_500;
const VIEWS = 300_000;
/** Tips per insert statement. */
const INSERT_CHUNK = 1_000_000;
const LAG_MS = 60_000;
const CREATOR = 'bench_creator';
const PASSWORD = 'bench-creator-password';
const FIRST_DAY = '2016-01-01';
const ROLLUPS = ['analytics_days', 'analytics_tipper_days', 'analytics_tipper_months', 'analytics_tipper_totals', 'analytics_stream_days'];
const TOTALS_AND_SERIES = 'TOTAL_TIP_COUNT,TOTAL_STREAM_VIEW_COUNT,TOTAL_STREAM_LIKE_COUNT,TOTAL_FOLLOWERS_COUNT,TOTAL_TIP_BY_DATE,TOTAL_STREAM_VIEWS_BY_DATE,TOTAL_FOLLOWERS_BY_DATE';

/** Midnight UTC of the first of the 1,096 days (today the last). */
const START = new Date(`${addDays(utcDay(new Date()), -(DAYS - 1))}T00:00:00Z`);

/** The dashboard's calls, as its range menus compute them for `today`. */
function dashboardCalls(today: string): Record<string, Record<string, string>> {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const thisMonth = { from: `${today.slice(0, 7)}-01`, to: today };
  const last12Months = { from: addDays(new Date(Date.UTC(y - 1, m - 1, d)).toISOString().slice(0, 10), 1), to: today };
  const allTime = { from: FIRST_DAY, to: today };
  return {
    mainThisMonth: { event: TOTALS_AND_SERIES, ...thisMonth },
    topTippersLast30Days: { event: 'TOP_TIPPERS', from: addDays(today, -29), to: today },
    topTippersLast90Days: { event: 'TOP_TIPPERS', from: addDays(today, -89), to: today },
    topTippersLast12Months: { event: 'TOP_TIPPERS', ...last12Months },
    topTippersAllTime: { event: 'TOP_TIPPERS', ...allTime },
    topStreamsByTipAllTime: { event: 'TOP_STREAMS_BY_TIP', ...allTime },
    topStreamsByViewAllTime: { event: 'TOP_STREAM_BY_VIEW', ...allTime },
    totalsAndSeriesAllTime: { event: TOTALS_AND_SERIES, ...allTime },
  };
}

const count = async (db: Db, query: ReturnType<typeof sql>) => Number(((await db.execute<{ n: string }>(query)).rows[0]?.n) ?? 0);

/** The creator, the fans, one stream a day, the views and the follows: the same at every size. */
async function seedPeople(db: Db): Promise<void> {
  const hash = await hashPassword(PASSWORD);
  await db.execute(sql`insert into users (username, email, password_hash, broadcast_key, terms_accepted, birthday, country, fullname)
    values (${CREATOR}, 'creator@bench.example', ${hash}, 'bench_creator_key', true, '1990-06-15', 'US', 'Bench Creator')`);
  await db.execute(sql`insert into users (username, email, broadcast_key, terms_accepted, birthday, country, fullname)
    select 'bench_fan_' || g, 'fan' || g || '@bench.example', 'bench_fan_' || g, true, '1990-06-15', 'US', 'Fan ' || g
    from generate_series(1, ${FANS}::int) g order by g`);
  await db.execute(sql`insert into streams (user_id, title, rating, setup_at, hidden, live, started_at, ended_at, length_seconds, likes)
    select c.id, 'Day ' || d, 'G', s, false, false, s, s + interval '3 hours', 10800, (d * 37) % 50
    from (select id from users where username = ${CREATOR}) c,
         generate_series(0, ${DAYS - 1}::int) d,
         lateral (select least(${START.toISOString()}::timestamptz + d * interval '1 day' + interval '18 hours', now() - interval '4 hours') as s) started
    order by d`);
  // Ids were given in order: a fan's id and a day's stream id are the first one's plus an offset.
  const fans = await db.execute<{ lo: string; hi: string }>(sql`select min(id) as lo, max(id) as hi from users where username like 'bench_fan_%'`);
  const streams = await db.execute<{ lo: string; hi: string }>(sql`select min(id) as lo, max(id) as hi from streams`);
  if (Number(fans.rows[0]!.hi) - Number(fans.rows[0]!.lo) !== FANS - 1 || Number(streams.rows[0]!.hi) - Number(streams.rows[0]!.lo) !== DAYS - 1) {
    throw new Error('fans or streams were not numbered in one run');
  }
  await db.execute(sql`insert into stream_views (stream_id, viewer_key, joined_at, first_joined_at, left_at)
    select (select min(id) from streams) + least(${DAYS - 1}::int, floor(extract(epoch from t.at - ${START.toISOString()}::timestamptz) / 86400)::int),
      'bench_viewer_' || g, t.at, t.at, t.at + interval '20 minutes'
    from generate_series(1, ${VIEWS}::int) g,
         lateral (select ${START.toISOString()}::timestamptz + (random() + g * 0) * (now() - interval '1 hour' - ${START.toISOString()}::timestamptz) as at) t`);
  await db.execute(sql`update streams s set total_views = v.n from (select stream_id, count(*)::int as n from stream_views group by 1) v where v.stream_id = s.id`);
  await db.execute(sql`insert into follows (follower_id, followee_id, created_at)
    select f.id, c.id, ${START.toISOString()}::timestamptz + random() * (now() - interval '1 hour' - ${START.toISOString()}::timestamptz)
    from (select id from users where username = ${CREATOR}) c, (select id from users where username like 'bench_fan_%' order by id limit ${FOLLOWS}::int) f`);
}

/**
 * Tips `first`..`last` (their idempotency keys), a million per statement, each statement ordered by time:
 * created_at uniform over the days (before an hour ago), the tipper skewed (index ⌊2000·r³⌋), the day's stream.
 */
async function seedTips(db: Db, first: number, last: number): Promise<void> {
  for (let lo = first; lo <= last; lo += INSERT_CHUNK) {
    const hi = Math.min(last, lo + INSERT_CHUNK - 1);
    const t0 = performance.now();
    await db.execute(sql`insert into ledger_transfers (kind, idempotency_key, from_user_id, to_user_id, stream_id, amount, currency, created_at)
      select 'tip', 'bench-tip-' || g, b.fan + floor(${TIPPERS}::int * power(r.tipper, 3))::int, b.creator,
        b.stream + least(${DAYS - 1}::int, floor(extract(epoch from r.at - ${START.toISOString()}::timestamptz) / 86400)::int),
        (array[1, 2, 5, 10, 20, 50, 100, 500])[1 + floor(8 * power(r.amount, 2))::int], 'CON', r.at
      from (select (select id from users where username = ${CREATOR}) as creator,
                   (select min(id) from users where username like 'bench_fan_%') as fan,
                   (select min(id) from streams) as stream) b,
           generate_series(${lo}::bigint, ${hi}::bigint) g,
           lateral (select random() + g * 0 as tipper, random() + g * 0 as amount,
             ${START.toISOString()}::timestamptz + (random() + g * 0) * (now() - interval '1 hour' - ${START.toISOString()}::timestamptz) as at) r
      order by r.at`);
    console.log(`  tips ${lo.toLocaleString('en-US')}..${hi.toLocaleString('en-US')}: ${round((performance.now() - t0) / 1000, 1)} s`);
  }
}

/** Empties the rollups and folds every fact from the first, as a first start on old data does; timed. */
async function foldAll(db: Db, tips: number) {
  await db.execute(sql.raw(`truncate ${ROLLUPS.join(', ')}; update analytics_fold set folded_until = null where id = 1`));
  const fold = createFold({ db, lagMs: LAG_MS });
  const now = new Date();
  const t0 = performance.now();
  let chunks = 0;
  for (let n = await fold.run(now); n > 0; n = await fold.run(now)) chunks += n;
  const seconds = (performance.now() - t0) / 1000;
  const facts = tips + VIEWS + FOLLOWS;
  const rows: Record<string, number> = {};
  for (const table of ROLLUPS) rows[table] = await count(db, sql.raw(`select count(*) as n from ${table}`));
  return { seconds: round(seconds, 1), chunks, facts, factsPerSecond: Math.round(facts / seconds), tipsPerSecond: Math.round(tips / seconds), rollupRows: rows };
}

/** The creator's coins in the books: what the All time total must say. */
const coinsInBooks = (db: Db) =>
  count(db, sql`select sum(amount) as n from ledger_transfers where kind = 'tip' and currency = 'CON' and to_user_id = (select id from users where username = ${CREATOR})`);

/** The All time answer must say what the books, views and follows say. */
async function checkAgainstBooks(creator: HttpSession, today: string, coins: number): Promise<void> {
  const res = await creator.get('/api/user/user-analytics', { event: 'TOTAL_TIP_COUNT,TOTAL_STREAM_VIEW_COUNT,TOTAL_FOLLOWERS_COUNT', from: FIRST_DAY, to: today });
  if (res.status !== 200) throw new Error(`user-analytics answered ${res.status}: ${JSON.stringify(res.body)}`);
  const result = (res.body as { result: Record<string, number> }).result;
  const expected = { TOTAL_TIP_COUNT: coins, TOTAL_STREAM_VIEW_COUNT: VIEWS, TOTAL_FOLLOWERS_COUNT: FOLLOWS };
  for (const [event, value] of Object.entries(expected)) {
    if (result[event] !== value) throw new Error(`${event}: user-analytics says ${result[event]}, the tables ${value}`);
  }
}

function curlRun(url: string, cookie: string): ReturnType<typeof latencySummary> {
  const samples: number[] = [];
  for (let i = 0; i < CURL_REQUESTS; i += 1) {
    const out = spawnSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-H', `Cookie: ${cookie}`, url], { encoding: 'utf8' });
    const [code, seconds] = out.stdout.split(' ');
    if (code === '200') samples.push(Number(seconds) * 1000);
  }
  return latencySummary(samples);
}

/** Every dashboard call under load, app-config beside them, then curl on the main call. */
async function measure(server: ServerProcess, coins: number) {
  const today = utcDay(new Date());
  const creator = await HttpSession.at(server.url).signIn(CREATOR, PASSWORD);
  await checkAgainstBooks(creator, today, coins);
  // Warm-up (not counted): every call in turn for 3 s, so the server's code and PostgreSQL's caches are hot.
  const all = Object.values(dashboardCalls(today));
  let next = 0;
  await load(CONCURRENCY, 3, async () => (await creator.get('/api/user/user-analytics', all[next++ % all.length]!)).status === 200);
  const calls: Record<string, LoadResult & { alone: ReturnType<typeof latencySummary>; bytes: number }> = {};
  for (const [name, query] of Object.entries(dashboardCalls(today))) {
    const first = await creator.get('/api/user/user-analytics', query);
    if (first.status !== 200) throw new Error(`${name}: ${first.status} ${JSON.stringify(first.body)}`);
    console.log(`  ${name}…`);
    const result = await load(CONCURRENCY, SECONDS, async () => (await creator.get('/api/user/user-analytics', query)).status === 200);
    const alone: number[] = [];
    for (let i = 0; i < ALONE_REQUESTS; i += 1) {
      const t0 = performance.now();
      await creator.get('/api/user/user-analytics', query);
      alone.push(performance.now() - t0);
    }
    calls[name] = { ...result, alone: latencySummary(alone), bytes: JSON.stringify(first.body).length };
  }
  console.log('  app-config (no database) beside it…');
  const anyone = HttpSession.at(server.url);
  const appConfig = await load(CONCURRENCY, SECONDS, async () => (await anyone.get('/api/meta/app-config')).status === 200);
  console.log('  curl, the main call one request after another…');
  const main = new URLSearchParams(dashboardCalls(today).mainThisMonth);
  const curl = curlRun(`${server.url}/api/user/user-analytics?${main}`, `ll_session=${creator.cookie('ll_session')}`);
  return { calls, appConfig, curl };
}

const database = await emptyPostgresDatabase('ll_bench_analytics');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-bench-analytics-'));
let server: ServerProcess | undefined;
let resources: Awaited<ReturnType<typeof openResources>> | undefined;
let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  await server?.stop().catch(() => undefined);
  await resources?.close().catch(() => undefined);
  if (KEEP_DB) console.log(`kept ${database.url} (drop database ${database.name} when done)`);
  else await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

type Stage = { tips: number; seedSeconds: number; ledgerTransfersSize: string | undefined; fold: Awaited<ReturnType<typeof foldAll>> } & Awaited<ReturnType<typeof measure>>;

try {
  const stages: Stage[] = [];
  let seeded = 0;
  for (const tips of SIZES) {
    console.log(`${tips.toLocaleString('en-US')} tips: seeding…`);
    // Migrated on first open; the server is stopped while seeding and folding, so its own fold job stays out.
    resources = await openResources(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'silent' }));
    const db = resources.database.db;
    const t0 = performance.now();
    if (seeded === 0) await seedPeople(db);
    await seedTips(db, seeded + 1, tips);
    seeded = tips;
    await db.execute(sql`analyze`);
    const seedSeconds = round((performance.now() - t0) / 1000, 1);
    console.log(`  seeded in ${seedSeconds} s; folding all ${tips.toLocaleString('en-US')} tips from empty rollups…`);
    const fold = await foldAll(db, tips);
    // As autovacuum would leave them (it is off on the bench machine): the fold's upserts leave dead rows behind.
    await db.execute(sql.raw(`vacuum analyze ${ROLLUPS.join(', ')}`));
    console.log(`  folded in ${fold.seconds} s (${fold.factsPerSecond.toLocaleString('en-US')} facts/s)`);
    const coins = await coinsInBooks(db);
    const ledgerTransfersSize = (await db.execute<{ size: string }>(sql`select pg_size_pretty(pg_total_relation_size('ledger_transfers')) as size`)).rows[0]?.size;
    await resources.close();
    resources = undefined;
    server = await startServerProcess({ DATABASE_URL: database.url, SEED_DEMO: 'off' }, { dataDir });
    try {
      stages.push({ tips, seedSeconds, ledgerTransfersSize, fold, ...(await measure(server, coins)) });
    } finally {
      await server.stop();
      server = undefined;
    }
  }
  console.log('pgbench select-only on the same PostgreSQL…');
  const pgbench = await runPgbench({ clients: CONCURRENCY, scale: 10, seconds: SECONDS, selectOnly: true });
  const [small, large] = [stages[0]!, stages.at(-1)!];
  const names = Object.keys(small.calls);
  const table = names.map((name) => ({
    call: name,
    ...Object.fromEntries(stages.flatMap((s) => {
      const c = s.calls[name]!;
      return [[`p50Ms@${s.tips}`, c.p50Ms], [`p99Ms@${s.tips}`, c.p99Ms], [`perSecond@${s.tips}`, c.perSecond]];
    })),
    aloneMedianMs: stages.map((s) => s.calls[name]!.alone.medianMs),
    flatnessP99: round(large.calls[name]!.p99Ms / small.calls[name]!.p99Ms, 2),
    perAppConfig: stages.map((s) => round(s.calls[name]!.perSecond / s.appConfig.perSecond, 3)),
    perPgbenchSelect: stages.map((s) => round(s.calls[name]!.perSecond / pgbench.tps, 3)),
    overGoal: stages.filter((s) => s.calls[name]!.p99Ms > GOAL_P99_MS).map((s) => s.tips),
  }));
  console.table(table);
  writeResult('analytics', {
    days: DAYS, fans: FANS, tippers: TIPPERS, views: VIEWS, follows: FOLLOWS, concurrency: CONCURRENCY, seconds: SECONDS,
    goal: { p99Ms: GOAL_P99_MS, flat: 'p99 at the largest size / p99 at the smallest near 1' },
    table,
    stages,
    pgbenchSelectOnly: pgbench,
  });
} finally {
  await cleanUp();
}
