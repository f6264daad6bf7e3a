/**
 * The fault suite (`npm run faults`; decision 0045): two instances on a fresh PostgreSQL database with a
 * `redis-server` of their own, under load — viewers in a stream's chat (1,000 sockets), chatters, tips,
 * sign-ins and reads — and these faults in turn: kill -9 of an instance under sockets; Redis killed and
 * restarted; every backend terminated in rounds; a lock held past the lock timeout; statements held past
 * the statement timeout; a media instance restarted while the other ingests an RTMP push; SIGTERM of the
 * ingesting instance under load (the encoder comes back to the other); a full disk under an upload.
 * After each: the instances that should run run, answer /readyz, and every socket is subscribed again;
 * every acknowledged chat line and tip is stored and replayed; no answer was a 500 (503 is allowed);
 * the ledger's invariants and conservation hold. Prints the recovery times as a table; exits non-zero on
 * any broken check.
 *
 * `FAULTS_QUICK=1`: the part `npm test` runs (with TEST_DATABASE_URL): 100 sockets, lighter load, the
 * same faults but the media restart (the SIGTERM fault keeps an encoder). Env: FAULTS_SOCKETS,
 * TEST_DATABASE_URL / BENCH_DATABASE_URL (the PostgreSQL server; a fresh database is made on it).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { UPLOAD_CHUNK_BYTES } from '../common/constants';
import { UPLOADS_PATH } from '../common/api/posts';
import { MSG } from '../common/messages';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { Books, checkPhase, isReady, timeUntil } from '../server/testing/faults/checks';
import { Cluster, type InstanceName } from '../server/testing/faults/cluster';
import { Load } from '../server/testing/faults/load';
import { HttpSession } from '../server/testing/http-session';
import { publishTestPattern, type RunningPublisher } from '../server/testing/rtmp-publisher';
import { emptyPostgresDatabase, provisionTippers, publicStream } from '../server/testing/tip-load';
import { startUpload } from '../server/testing/uploads';

const QUICK = process.env.FAULTS_QUICK === '1';
const SOCKETS = Number(process.env.FAULTS_SOCKETS ?? (QUICK ? 100 : 1000));
const CONFIG = {
  chatters: QUICK ? 6 : 16,
  tippers: QUICK ? 150 : 400,
  tipClients: QUICK ? 2 : 3,
  tipPauseMs: QUICK ? 300 : 400,
  /** How long each fault lasts where its length is ours to choose (Redis away, lock held, statements slowed). */
  faultMs: QUICK ? 2_000 : 6_000,
  /** Load before the first fault and between faults. */
  calmMs: QUICK ? 500 : 5_000,
  statementTimeoutMs: 2_000,
  lockTimeoutMs: 500,
  graceMs: 20_000,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number | null | undefined) => (ms === null ? 'never' : ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`);

interface Row {
  fault: string;
  /** Injection → every running instance answers /readyz. */
  ready?: number | null;
  /** Injection (or the end of the outage) → every socket that lost its subscription is subscribed again. */
  socketsBack?: number | null;
  socketsMoved?: number;
  /** The viewers' close codes during the fault and its recovery. */
  closes?: string;
  /** A restarted instance: its start → ready. */
  restart?: number | null;
  /** The broadcast: continued on another instance, or stayed live (time to confirm). */
  broadcast?: string;
  unavailable: number;
  lines: number;
  tips: number;
  problems: string[];
  skipped?: string;
}

async function main() {
  const started = Date.now();
  const db = await emptyPostgresDatabase('ll_faults');
  const books = new Books(db.url);
  let cluster: Cluster | null = null;
  let load: Load | null = null;
  const publishers: RunningPublisher[] = [];
  const rows: Row[] = [];
  let keepLogs = false;
  try {
    cluster = await Cluster.start({ databaseUrl: db.url, statementTimeoutMs: CONFIG.statementTimeoutMs, lockTimeoutMs: CONFIG.lockTimeoutMs, graceMs: CONFIG.graceMs });
    const c = cluster;
    const { streamId } = await publicStream(c.url('A'));
    const tippers = await provisionTippers(db.url, CONFIG.tippers, 500, 'faulttipper');
    const chatters = await provisionTippers(db.url, CONFIG.chatters, 0, 'faultchatter');
    load = new Load({ streamId, targets: () => c.running(), viewers: SOCKETS, chatters, tippers, tipClients: CONFIG.tipClients, tipPauseMs: CONFIG.tipPauseMs, rememberingViewers: 10 });
    const l = load;
    const connecting = Date.now();
    await l.start();
    const connected = await timeUntil(connecting, () => { const s = l.subscribedCount(); return s.subscribed === s.total; }, 120_000);
    if (connected === null) throw new Error(`only ${l.subscribedCount().subscribed} of ${l.subscribedCount().total} sockets subscribed`);
    console.log(`${SOCKETS} viewers and ${CONFIG.chatters} chatters subscribed in ${seconds(connected)}`);
    await sleep(CONFIG.calmMs);

    const unavailableCount = () => [...l.statuses.values()].reduce((n, of) => n + (of.get(503) ?? 0), 0) + (l.refusedLines.get('unavailable') ?? 0);
    const allSubscribed = () => { const s = l.subscribedCount(); return s.subscribed === s.total; };
    /** Instances stopped on purpose and left down (the quick run does not start a SIGTERM'd one again). */
    const leftDown = new Set<InstanceName>();
    const expected = () => (['A', 'B'] as const).filter((name) => !leftDown.has(name));
    const allReady = async (expected: InstanceName[]) => expected.every((name) => c.alive(name)) && (await Promise.all(expected.map((name) => isReady(c.url(name))))).every(Boolean);

    /** One fault: injected, recovered from, checked. `inject` answers the measures only it can take. */
    async function fault(name: string, inject: (t0: number) => Promise<Partial<Row> & { since?: number }>) {
      // The cursor first: whatever is sent in the phase is written after it.
      const cursor = await books.cursor(streamId);
      l.phase = name;
      const unavailableBefore = unavailableCount();
      const t0 = Date.now();
      console.log(`▶ ${name}`);
      const row: Row = { fault: name, unavailable: 0, lines: 0, tips: 0, problems: [] };
      try {
        const measured = await inject(t0);
        Object.assign(row, measured);
        if (row.skipped) {
          rows.push(row);
          return;
        }
        row.ready ??= await timeUntil(t0, () => allReady(expected()));
        const moved = l.viewers.filter((viewer) => viewer.lostAt !== null && viewer.lostAt >= t0).length;
        row.socketsMoved = moved;
        const codes = new Map<number, number>();
        for (const viewer of l.viewers) for (const close of viewer.closeLog) if (close.at >= t0) codes.set(close.code, (codes.get(close.code) ?? 0) + 1);
        row.closes = [...codes].map(([code, n]) => `${n}×${code}`).join(' ') || '—';
        const back = await timeUntil(measured.since ?? t0, allSubscribed, 120_000);
        if (measured.socketsBack === undefined && (moved > 0 || back === null)) row.socketsBack = back;
        for (const viewer of l.viewers) viewer.lostAt = null;
        await l.settleTips();
        row.unavailable = unavailableCount() - unavailableBefore;
        l.phase = `after ${name}`;
        for (const name of expected()) {
          if (!c.alive(name)) row.problems.push(`instance ${name} is not running (${c.exitOf(name) ?? 'stopped'})`);
        }
        if (row.ready === null) row.problems.push('an instance never answered /readyz');
        if (back === null) row.problems.push(`sockets not back: ${l.subscribedCount().subscribed} of ${l.subscribedCount().total} subscribed`);
        const checked = await checkPhase({ load: l, books, phase: name, streamId, cursor, base: c.running()[0]! });
        row.problems.push(...checked.problems);
        row.lines = checked.lines;
        row.tips = checked.tips;
      } catch (error) {
        row.problems.push(`failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      rows.push(row);
      console.log(row.problems.length ? `✘ ${name}: ${row.problems.join('; ')}` : `✔ ${name}`);
      await sleep(CONFIG.calmMs);
    }

    /** Restarts an instance (after a kill or a stop): how long its start took. */
    const restart = async (name: InstanceName) => {
      const from = Date.now();
      await c.startInstance(name);
      return Date.now() - from;
    };

    // 1. kill -9 of B under sockets: its viewers move to A; B comes back.
    await fault('kill -9 of an instance under sockets', async () => {
      await c.kill('B');
      const since = Date.now();
      const ready = await timeUntil(since, () => allReady(['A']));
      const back = await timeUntil(since, allSubscribed, 60_000);
      const restarted = await restart('B');
      return { ready, socketsBack: back, restart: restarted, since };
    });

    // 2. Redis killed and restarted: committed lines and tips are answered meanwhile; sockets resync once it is back.
    await fault('Redis killed and restarted', async () => {
      await c.killRedis();
      await sleep(CONFIG.faultMs);
      await c.startRedis();
      const since = Date.now();
      // Each instance tells its sockets to resync once its bus is up: every viewer closed and subscribed again.
      const resynced = await timeUntil(since, () => l.viewers.every((viewer) => viewer.lastCloseAt >= since && viewer.subscribed), 120_000);
      const untold = l.viewers.filter((viewer) => viewer.lastCloseAt < since).length;
      const unsubscribed = l.viewers.filter((viewer) => !viewer.subscribed).length;
      return { since, socketsBack: resynced, problems: resynced === null ? [`${untold} viewers never told to resync, ${unsubscribed} not subscribed again within 120 s`] : [] };
    });

    // 3. Every backend of the database terminated, five rounds a second apart.
    await fault('backends terminated in rounds', async () => {
      for (let round = 0; round < 5; round++) {
        await books.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
        await sleep(1_000);
      }
      const since = Date.now();
      return { ready: await timeUntil(since, () => allReady(expected())), since };
    });

    // 4. The chat's and the ledger's tables locked past the lock timeout.
    await fault(`table lock held past the lock timeout (${CONFIG.lockTimeoutMs} ms)`, async () => {
      await holding(db.url, async (client) => {
        await client.query('begin');
        await client.query('lock table chat_messages, ledger_transfers in access exclusive mode');
        await sleep(Math.max(CONFIG.faultMs, CONFIG.lockTimeoutMs * 4));
        await client.query('rollback');
      });
      const since = Date.now();
      return { ready: await timeUntil(since, () => allReady(expected())), since };
    });

    // 5. Statements past the statement timeout: chat lines and ledger transfers take 3 s to insert for a while.
    await fault(`statements past the statement timeout (${CONFIG.statementTimeoutMs} ms)`, async () => {
      await books.query(`create or replace function faults_slow_insert() returns trigger language plpgsql as $$ begin perform pg_sleep(${(CONFIG.statementTimeoutMs * 1.5) / 1000}); return new; end $$`);
      await books.query('create trigger faults_slow before insert on chat_messages for each row execute function faults_slow_insert()');
      await books.query('create trigger faults_slow before insert on ledger_transfers for each row execute function faults_slow_insert()');
      await sleep(Math.max(CONFIG.faultMs, CONFIG.statementTimeoutMs * 2));
      await books.query('drop trigger faults_slow on chat_messages');
      await books.query('drop trigger faults_slow on ledger_transfers');
      await books.query('drop function faults_slow_insert()');
      const since = Date.now();
      return { ready: await timeUntil(since, () => allReady(expected())), since };
    });

    // A broadcast ingested by A (real ffmpeg over RTMP), for the media faults.
    const broadcaster = await HttpSession.at(c.url('A')).signIn('broadcaster2', DEMO_PASSWORD);
    const own = (await broadcaster.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number; broadcast_key: string };
    await broadcaster.post('/api/streams/update-stream-info', { id: own.stream_id, data: { title: 'Under faults', audience: 'PUBLIC', rating: 'G' } });
    await broadcaster.post('/api/streams/go-live', { id: own.stream_id });
    const publish = (name: InstanceName) => {
      const publisher = publishTestPattern({ url: `${c.rtmp(name)}/${own.broadcast_key}`, width: 320, height: 180, fps: 15 });
      publishers.push(publisher);
      return publisher;
    };
    const lookup = async () => {
      const base = c.running()[0]!;
      const res = await fetch(`${base}/api/streams/stream-lookup?id=${own.stream_id}`).then((r) => r.json() as Promise<{ stream?: { live: string; ended: boolean } }>).catch(() => ({ stream: undefined }));
      return res.stream;
    };
    const lease = async () => (await books.query<{ instance_id: string; in_grace: boolean }>('select instance_id, in_grace from broadcast_leases where stream_id = $1', [own.stream_id]))[0] ?? null;
    let publisher = publish('A');
    const wentLive = await timeUntil(Date.now(), async () => (await lookup())?.live === 'Y', 60_000);
    if (wentLive === null) throw new Error('the RTMP broadcast never went live');
    console.log(`an RTMP broadcast went live on A in ${seconds(wentLive)}`);

    // 6. B restarted (stopped, started) while A ingests: A's broadcast stays live under A's lease.
    if (QUICK) rows.push({ fault: 'media instance restarted while another ingests', unavailable: 0, lines: 0, tips: 0, problems: [], skipped: 'quick run (see the full run)' });
    else {
      await fault('media instance restarted while another ingests', async () => {
        const heldBy = (await lease())?.instance_id;
        await c.stop('B');
        const restarted = await restart('B');
        const confirmed = Date.now();
        await sleep(5_000); // a sweep of the new instance has run
        const stream = await lookup();
        const now = await lease();
        const stayed = stream?.live === 'Y' && !stream.ended && now?.instance_id === heldBy && now?.in_grace === false;
        return { restart: restarted, broadcast: stayed ? `stayed live (checked ${seconds(Date.now() - confirmed)} after)` : `ENDED or moved: ${JSON.stringify({ stream, now })}`, problems: stayed ? [] : ['the broadcast of the other instance did not stay live'] };
      });
    }

    // 7. SIGTERM of A (it ingests) under load: its sockets move to B, the encoder comes back to B within the grace
    // and the same broadcast continues there; A starts again.
    await fault('SIGTERM of the ingesting instance under load', async (t0) => {
      const before = await lease();
      await c.stop('A');
      await publisher.stop();
      const graced = await lease();
      publisher = publish('B');
      const continued = await timeUntil(t0, async () => {
        const now = await lease();
        return Boolean(now && now.instance_id !== before?.instance_id && !now.in_grace && (await lookup())?.live === 'Y');
      }, CONFIG.graceMs);
      const stream = await lookup();
      const sameBroadcast = continued !== null && stream?.live === 'Y' && !stream.ended;
      const since = Date.now();
      const socketsBack = await timeUntil(t0, allSubscribed, 60_000);
      // The quick run leaves A down: the disk-full fault needs only B.
      const restarted = QUICK ? undefined : await restart('A');
      if (QUICK) leftDown.add('A');
      return {
        socketsBack, restart: restarted, since,
        broadcast: sameBroadcast ? `continued on B in ${seconds(continued)}` : 'NOT continued',
        problems: [...(graced?.in_grace ? [] : ['the stopped instance did not leave its lease in grace']), ...(sameBroadcast ? [] : ['the broadcast did not continue on the other instance within the grace'])],
      };
    });
    // The lease check above may add problems of its own: they are kept (Object.assign keeps `problems` from inject).

    // 8. A full disk under an upload: a small tmpfs over B's uploads folder.
    await fault('disk full under an upload (2 MB tmpfs)', async () => {
      const uploads = path.join(c.instances.B.dataDir, 'uploads');
      mkdirSync(uploads, { recursive: true });
      if (process.getuid?.() !== 0) return { skipped: 'not root: cannot mount a tmpfs' };
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', uploads], { stdio: 'ignore' });
      } catch {
        return { skipped: 'mounting a tmpfs is not permitted here' };
      }
      const problems: string[] = [];
      try {
        const client = await HttpSession.at(c.url('B')).signIn('broadcaster3', DEMO_PASSWORD);
        const { id, res } = await startUpload(client, 3_000_000, { filename: 'clip.mp4', filetype: 'video/mp4' });
        if (!id) throw new Error(`the upload was not created: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        const data = Buffer.alloc(3_000_000, 7);
        let refused: { status: number; body: unknown } | null = null;
        for (let offset = 0; offset < data.length && !refused; offset += UPLOAD_CHUNK_BYTES) {
          const res = await client.request('PATCH', `${UPLOADS_PATH}/${id}`, {
            rawBody: data.subarray(offset, offset + UPLOAD_CHUNK_BYTES),
            headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
          });
          if (res.status !== 204) refused = res;
        }
        if (refused?.status !== 507 || String(refused.body) !== MSG.diskFull) problems.push(`the full disk answered ${refused?.status} ${String(refused?.body).slice(0, 100)}, not 507 "${MSG.diskFull}"`);
        if (readdirSync(uploads).length > 0) problems.push(`the partial upload was kept: ${readdirSync(uploads).join(', ')}`);
      } finally {
        execFileSync('umount', [uploads]);
      }
      return { problems };
    });

    await l.stop();
    await l.settleTips();
    // The whole run: every acknowledged tip and line stored, once, and the books.
    const final = await checkPhase({ load: l, books, phase: null, streamId, cursor: { comment: '0', tip: '0' }, base: c.running()[0]! }).catch((error: unknown) => ({ problems: [String(error)], lines: 0, tips: 0 }));
    const allLines = [...l.acknowledgedLines.keys()];
    const storedLines = (await books.query<{ n: number }>('select count(distinct text)::int as n from chat_messages where stream_id = $1 and text = any($2::text[])', [streamId, allLines]))[0]!.n;
    const [dup] = await books.query<{ n: number }>('select count(*)::int as n from (select idempotency_key from ledger_transfers group by idempotency_key having count(*) > 1) d');
    const endProblems = final.problems;
    if (storedLines !== allLines.length) endProblems.push(`${allLines.length - storedLines} acknowledged chat lines of the run not stored`);
    if (dup!.n > 0) endProblems.push(`${dup!.n} idempotency keys moved money twice`);
    if (l.pendingTips.size > 0) endProblems.push(`${l.pendingTips.size} tips never answered`);

    const table = [
      ['fault', 'ready', 'sockets back', 'moved', 'closes', 'restart', 'broadcast', '503s', 'lines', 'tips', 'checks'],
      ...rows.map((r) => [r.fault, seconds(r.ready), r.socketsMoved ? seconds(r.socketsBack) : '—', String(r.socketsMoved ?? '—'), r.closes ?? '—', seconds(r.restart), r.broadcast ?? '—', String(r.unavailable), String(r.lines), String(r.tips), r.skipped ? `skipped: ${r.skipped}` : r.problems.length ? `✘ ${r.problems.length}` : '✔']),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    console.log(`\nFault suite (${QUICK ? 'quick' : 'full'}): ${SOCKETS} sockets, ${CONFIG.chatters} chatters, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`);
    for (const [i, row] of table.entries()) {
      console.log(`| ${row.map((cell, j) => cell.padEnd(widths[j]!)).join(' | ')} |`);
      if (i === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    }
    const statuses = [...l.statuses].map(([kind, of]) => `${kind}: ${[...of].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${n}×${s}`).join(' ')}`).join('; ');
    const closes = new Map<number, number>();
    for (const viewer of l.viewers) for (const [code, n] of viewer.closes) closes.set(code, (closes.get(code) ?? 0) + n);
    const retried = new Map<string, number>();
    for (const viewer of l.viewers) for (const [code, n] of viewer.subscribeErrors) retried.set(code, (retried.get(code) ?? 0) + n);
    console.log(`sockets — closes ${[...closes].map(([code, n]) => `${n}×${code}`).join(' ')}; subscriptions asked again ${[...retried].map(([code, n]) => `${n}×${code}`).join(' ') || 'none'}`);
    console.log(`answers — ${statuses}; chat lines ${l.acknowledgedLines.size} acknowledged, ${l.unansweredLines} unanswered, refused ${JSON.stringify(Object.fromEntries(l.refusedLines))}; tips ${l.acknowledgedTips.size} acknowledged`);
    const problems = [...rows.flatMap((r) => r.problems.map((p) => `${r.fault}: ${p}`)), ...endProblems.map((p) => `end of run: ${p}`)];
    const summary = `${rows.filter((r) => !r.skipped).length} faults, ${rows.filter((r) => r.skipped).length} skipped, ${Math.round((Date.now() - started) / 1000)} s`;
    if (problems.length) {
      keepLogs = true;
      for (const p of problems.slice(0, 30)) console.error(`✘ ${p}`);
      console.log(`fault suite FAILED: ${problems.length} problem(s); ${summary}; instance logs in ${c.root}`);
      process.exitCode = 1;
    } else console.log(`fault suite passed: ${summary}`);
  } finally {
    await load?.stop().catch(() => undefined);
    await Promise.all(publishers.map((p) => p.stop()));
    if (cluster) await cluster.close({ keepLogs });
    await db.drop();
  }
}

/** A client of its own on the database, for the length of `work`. */
async function holding(databaseUrl: string, work: (client: pg.Client) => Promise<void>) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  console.log('fault suite FAILED: error');
  process.exit(1);
});
