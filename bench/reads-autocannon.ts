/**
 * Read figures a reader can reproduce: measured from outside with autocannon (its own process, 50
 * connections, one request in flight on each) against a bare Fastify hello-world and the server, both
 * started by this run on this machine. The server runs with production settings (NODE_ENV=production,
 * PAYMENTS=none, no mail outbox, LOG_LEVEL=info; the captcha off only so that the bench can sign in) on
 * a fresh PostgreSQL database with the demo data and, added straight into the database, 100,000 more
 * users, 300,000 follows between them and 20,000 posts copied from the demo's (the same media).
 * The compiled server (dist/server/main.js, `npm run build`) when it exists, else the sources through tsx;
 * BENCH_SERVER=tsx|compiled|<another build's main.js> chooses.
 *
 * Calls, each `BENCH_SECONDS` (10) after 2 unmeasured seconds, each with the hello-world measured just
 * before it (same neighbours): the guest Popular listing; signed-in session-detail as a viewer and as a
 * creator with months of earnings (broadcaster1); and the uncached long tail, where every request asks
 * for something else: search-user with a different term each time, a profile (user-lookup) and a post
 * page (post-lookup) of a different user / post each time. `BENCH_RUNS` (2) rounds of all of them:
 * the machine is shared, the spread between rounds is part of the figure.
 * Reported per call: requests/s, its ratio to the hello-world's, p50/p99 latency, and any answer that
 * was not the expected status (a throttle's 429 would show there and fail the goals).
 * Goals on the 2-core machine: guest Popular ≥ 0.3 ×; signed-in session-detail ≥ 0.15 ×; the long
 * tail ≥ 0.08 × with p99 ≤ 50 ms.
 * Runs when BENCH_DATABASE_URL is set (a database is made beside it and dropped); BENCH_ONLY=search (any part
 * of a label) measures only the calls whose label contains it:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/reads-autocannon.ts
 * The client: `node bench/reads-autocannon.ts --client <json>` (autocannon's API, `setupRequest` for the
 * changing paths), a process of its own; what it measured is printed as JSON on its stdout.
 * `--seed <database URL>` adds the same volume to a database a server has made (to read query plans on).
 * To look inside the server while it is measured: BENCH_NODE_ARGS gives it node flags (`--cpu-prof
 * --cpu-prof-dir=/tmp/prof`, `--trace-gc`) and BENCH_LOG a file for what it prints.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { promisify } from 'node:util';
import type { Options as AutocannonOptions } from 'autocannon';
import pg from 'pg';
import { HttpSession } from '../server/testing/http-session';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import { emptyPostgresDatabase } from '../server/testing/tip-load';
import { cpuSeconds, databaseCpuSeconds, round, settled, startHelloWorld, writeResult, type HelloWorld } from './lib';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const WARM_SECONDS = 2;
const USERS = 100_000;
const FOLLOWS = 300_000;
const POSTS = 20_000;
/**
 * Usernames are two of these syllables, maybe `_`, and a number ("kaven_1234", "lomi87"): 900 stems, each
 * shared by about a hundred people. (A dozen first names for 100,000 people — bench/user-search.ts — makes
 * every typo search recheck a twelfth of all names: no user base is that uniform.)
 */
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ven', 'tor', 'sa', 'li', 'an', 'ne', 'ro', 'bi', 'el', 'da', 'mo', 'ri', 'ta', 'ju', 'ke', 'no', 'fi', 'zo', 'pe', 'lu', 'ha', 'wi', 'ce', 'gu', 'ya', 'xe'];
const COMPILED_ENTRY = 'dist/server/main.js';

/** What the client process is asked to load: one fixed path, or a path that changes on every request. */
interface ClientJob {
  url: string;
  seconds: number;
  cookie?: string;
  /** A fixed path, or `{id}` / `{term}` filled in per request. */
  path: string;
  /** For `{id}`: the ids walked through, each request the next (a stride through them, so neighbours differ). */
  ids?: { first: number; count: number };
}

interface ClientResult {
  perSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  unexpected: number;
  errors: number;
}

interface Case {
  label: string;
  path: string;
  cookie?: string;
  ids?: { first: number; count: number };
  /** Part of the uncached long tail (goal 0.08 ×, p99 ≤ 50 ms). */
  longTail?: boolean;
}

/** The n-th distinct search term: a stem and a number, as people type a name they half remember ("kaven12", "lomi_4075"). */
export function searchTerm(n: number): string {
  const stem = `${SYLLABLES[n % SYLLABLES.length]}${SYLLABLES[Math.floor(n / SYLLABLES.length) % SYLLABLES.length]}`;
  return `${stem}${n % 5 === 0 ? '_' : ''}${Math.floor(n / SYLLABLES.length ** 2)}`;
}

/** Runs in the client process: autocannon against one job, with per-request paths built in `setupRequest`. */
async function client(job: ClientJob): Promise<ClientResult> {
  const { default: autocannon } = await import('autocannon');
  const stride = 7919; // a prime: consecutive requests ask for ids far apart, every id once per walk
  let n = Math.floor(Math.random() * 1_000_000);
  const nextPath = () => {
    n += 1;
    if (job.path.includes('{term}')) return job.path.replace('{term}', encodeURIComponent(searchTerm(n)));
    if (job.ids) return job.path.replace('{id}', String(job.ids.first + ((n * stride) % job.ids.count)));
    return job.path;
  };
  const headers = job.cookie ? { cookie: job.cookie } : {};
  const changing = job.path.includes('{');
  const result = await autocannon({
    url: changing ? job.url : `${job.url}${job.path}`,
    connections: CONNECTIONS,
    duration: job.seconds,
    headers,
    ...(changing ? { requests: [{ method: 'GET', setupRequest: (request: object) => ({ ...request, path: nextPath() }) }] } : {}),
  } as AutocannonOptions);
  const completed = result.requests.total;
  return {
    perSecond: round(completed / result.duration),
    requests: completed,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    unexpected: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** The client in its own process (node with tsx's loader: only the start is slower); answers what it measured. */
async function runClient(job: ClientJob): Promise<ClientResult> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/reads-autocannon.ts', '--client', JSON.stringify(job)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ClientResult;
}

/**
 * What the client measured, with the CPU that the server process (`pid`) and PostgreSQL spent per request
 * meanwhile (µs): on a machine whose speed drifts between runs, the cost per request holds still.
 */
async function measure(url: string, pid: number, c: Omit<Case, 'label'>): Promise<ClientResult & { serverCpuUs: number; databaseCpuUs: number }> {
  await runClient({ url, seconds: WARM_SECONDS, path: c.path, cookie: c.cookie, ids: c.ids });
  const [server, database] = [cpuSeconds(pid), databaseCpuSeconds()];
  const result = await runClient({ url, seconds: SECONDS, path: c.path, cookie: c.cookie, ids: c.ids });
  const perRequest = (seconds: number) => round((seconds * 1e6) / Math.max(1, result.requests), 1);
  return { ...result, serverCpuUs: perRequest(cpuSeconds(pid) - server), databaseCpuUs: perRequest(databaseCpuSeconds() - database) };
}

/** Users, follows and posts of a realistic size, straight into the database (sign-ups would cost an argon2id hash each). */
async function seedVolume(databaseUrl: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const syllables = `array[${SYLLABLES.map((n) => `'${n}'`).join(',')}]`;
    const { rows: [first] } = await db.query<{ id: string }>(`
      with made as (
        insert into users (username, email, broadcast_key, country, description)
        select n || case when g % 3 = 0 then '_' else '' end || g, 'bench' || g || '@bench.example', 'bench_' || g, 'US', 'Hello from ' || n
        from generate_series(1, ${USERS}) g,
          lateral (select (${syllables})[1 + g % ${SYLLABLES.length}] || (${syllables})[1 + (g / ${SYLLABLES.length}) % ${SYLLABLES.length}] as n) names
        returning id)
      select min(id) as id from made`);
    const firstUser = Number(first!.id);
    await db.query(`
      insert into follows (follower_id, followee_id)
      select ${firstUser} + (g * 7919) % ${USERS}, ${firstUser} + (g * 104729 + g / ${USERS}) % ${USERS}
      from generate_series(1::bigint, ${FOLLOWS}) g
      where (g * 7919) % ${USERS} <> (g * 104729 + g / ${USERS}) % ${USERS}
      on conflict do nothing`);
    const { rows: templates } = await db.query<{ id: string }>(`select id from posts where deleted_at is null and state = 'ready' and audience = 'public' order by id`);
    if (templates.length === 0) throw new Error('the demo made no posts to copy');
    const each = Math.ceil(POSTS / templates.length);
    // The post pages walk the copies only: the demo's own posts include private and unfinished ones (404).
    const { rows: [demo] } = await db.query<{ last: string }>('select max(id) as last from posts');
    for (const [i, template] of templates.entries()) {
      await db.query(`
        with made as (
          insert into posts (user_id, kind, state, title, description, audience, rating, price, comments_allowed, media_count, bytes, created_at)
          select ${firstUser} + (g * 31 + ${i}) % ${USERS}, p.kind, p.state, p.title || ' ' || g, p.description, p.audience, p.rating, p.price,
                 p.comments_allowed, p.media_count, p.bytes, now() - make_interval(mins => g)
          from posts p, generate_series(1, ${each}) g where p.id = $1
          returning id, user_id)
        insert into post_media (post_id, owner_id, position, kind, key, width, height, duration_seconds, transcode_state)
        select made.id, made.user_id, m.position, m.kind, m.key, m.width, m.height, m.duration_seconds, m.transcode_state
        from made cross join post_media m where m.post_id = $1`, [template.id]);
    }
    const { rows: [range] } = await db.query<{ first: string; count: string }>('select min(id) as first, count(*) as count from posts where id > $1', [demo!.last]);
    // As autovacuum leaves a table in use: the trigram index's pending list merged, statistics current.
    await db.query('vacuum analyze');
    return { users: { first: firstUser, count: USERS }, posts: { first: Number(range!.first), count: Number(range!.count) } };
  } finally {
    await db.end();
  }
}

async function cases(server: ServerProcess, volume: Awaited<ReturnType<typeof seedVolume>>): Promise<Case[]> {
  const guest = HttpSession.at(server.url);
  const channels = (await guest.get('/api/channel/base-group')).body.channels as Array<{ id: number; name: string }>;
  const popular = channels.find((c) => c.name === 'Popular')!.id;
  const cookieOf = async (username: string) => `ll_session=${(await HttpSession.at(server.url).signIn(username, 'limelight-demo')).cookie('ll_session')}`;
  return [
    { label: 'guest Popular listing', path: `/api/channel/list-channel-streams?id=${popular}&offset=0&limit=20` },
    { label: 'signed-in session-detail (viewer)', path: '/api/user/session-detail', cookie: await cookieOf('viewer1') },
    { label: 'signed-in session-detail (creator)', path: '/api/user/session-detail', cookie: await cookieOf('broadcaster1') },
    { label: 'search-user, a different term each request', path: '/api/channel/search-user?search={term}', longTail: true },
    { label: 'profile (user-lookup), a different user each request', path: '/api/user/user-lookup?id={id}', ids: volume.users, longTail: true },
    { label: 'post page (post-lookup), a different post each request', path: '/api/post/post-lookup?id={id}', ids: volume.posts, longTail: true },
  ];
}

const GOALS = { guestPopularRatio: 0.3, signedInRatio: 0.15, longTailRatio: 0.08, longTailP99Ms: 50 };

interface Measured extends ClientResult {
  ratio: number;
  helloWorldPerSecond: number;
  /** CPU per request (µs) of the server, of PostgreSQL beside it, and of the hello-world. */
  serverCpuUs: number;
  databaseCpuUs: number;
  helloWorldCpuUs: number;
  loadavg: number;
}

/** BENCH_SERVER: `compiled` (dist/, the default once built), `tsx`, or the path of another build's main.js (to compare two builds). */
function serverEntry(): string | undefined {
  const wanted = process.env.BENCH_SERVER ?? (existsSync(COMPILED_ENTRY) ? 'compiled' : 'tsx');
  if (wanted === 'tsx') return undefined;
  const entry = wanted === 'compiled' ? COMPILED_ENTRY : wanted;
  if (!existsSync(entry)) throw new Error(`BENCH_SERVER=${wanted}: ${entry} is missing (npm run build)`);
  return entry;
}

async function round_(hello: HelloWorld, server: ServerProcess, list: Case[]) {
  const results: Record<string, Measured> = {};
  for (const c of list) {
    console.log(`${c.label}…`);
    const loadavg = round(os.loadavg()[0]!, 2);
    const reference = await measure(hello.url, hello.pid, { path: '/' });
    const result = await measure(server.url, server.child.pid!, c);
    results[c.label] = { ...result, ratio: round(result.perSecond / reference.perSecond, 3), helloWorldPerSecond: reference.perSecond, helloWorldCpuUs: reference.serverCpuUs, loadavg };
    console.log(`  ${result.perSecond} req/s (${results[c.label]!.ratio} × hello-world ${reference.perSecond}), p99 ${result.p99Ms} ms;`
      + ` CPU per request: server ${result.serverCpuUs} µs + PostgreSQL ${result.databaseCpuUs} µs (hello-world ${reference.serverCpuUs} µs)`
      + `${result.unexpected + result.errors ? `, ${result.unexpected} unexpected answers, ${result.errors} errors` : ''}`);
  }
  return results;
}

function goalsOf(list: Case[], rounds: Array<Record<string, Measured>>) {
  const all = (pick: (c: Case) => boolean, ok: (m: Measured) => boolean) =>
    rounds.every((results) => list.filter(pick).every((c) => ok(results[c.label]!)));
  const clean = (m: Measured) => m.unexpected === 0 && m.errors === 0;
  return {
    guestPopularRatio: all((c) => c.label.startsWith('guest'), (m) => clean(m) && m.ratio >= GOALS.guestPopularRatio),
    signedInRatio: all((c) => c.label.startsWith('signed-in'), (m) => clean(m) && m.ratio >= GOALS.signedInRatio),
    longTailRatio: all((c) => c.longTail === true, (m) => clean(m) && m.ratio >= GOALS.longTailRatio),
    longTailP99Ms: all((c) => c.longTail === true, (m) => m.p99Ms <= GOALS.longTailP99Ms),
  };
}

async function main() {
  if (!process.env.BENCH_DATABASE_URL) {
    console.log('reads-autocannon: skipped, BENCH_DATABASE_URL is not set (the goals are set on PostgreSQL)');
    return;
  }
  const entry = serverEntry();
  const db = await emptyPostgresDatabase('ll_bench_autocannon');
  const hello = await startHelloWorld();
  try {
    const server = await startServerProcess(
      { NODE_ENV: 'production', SEED_DEMO: 'on', DATABASE_URL: db.url, PAYMENTS: 'none', MAIL_OUTBOX: 'off', LOG_LEVEL: 'info' },
      { compiled: entry, readyMs: 300_000, nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean), logFile: process.env.BENCH_LOG },
    );
    try {
      console.log('seeding users, follows and posts…');
      const volume = await seedVolume(db.url);
      // BENCH_ONLY=<part of a label>: only the calls whose label contains it (to reproduce one figure).
      const list = (await cases(server, volume)).filter((c) => !process.env.BENCH_ONLY || c.label.includes(process.env.BENCH_ONLY));
      await settled(server.child.pid!);
      const rounds: Array<Record<string, Measured>> = [];
      for (let r = 0; r < RUNS; r += 1) rounds.push(await round_(hello, server, list));
      writeResult('reads-autocannon', {
        client: `autocannon ${CONNECTIONS} connections in its own process, ${SECONDS} s a call after ${WARM_SECONDS} s unmeasured`,
        server: entry ? `node ${entry}` : 'node --import tsx server/main.ts',
        volume,
        goals: GOALS,
        goalsMet: goalsOf(list, rounds),
        rounds,
      });
    } finally {
      await server.stop();
    }
  } finally {
    await hello.stop();
    await db.drop();
  }
}

if (process.argv[2] === '--client') {
  console.log(JSON.stringify(await client(JSON.parse(process.argv[3]!) as ClientJob)));
} else if (process.argv[2] === '--seed') {
  // The same volume into a database the server has made, to look at plans: --seed <database URL>.
  console.log(JSON.stringify(await seedVolume(process.argv[3]!)));
} else {
  await main();
}
