/**
 * The crash test (issue 6, reliability; docs/architecture.md §9): the real server on a fresh PostgreSQL
 * database, tips from several clients, the server killed with SIGKILL several times under the load and
 * started again. Requests without an answer are sent again after each restart with the same
 * Idempotency-Key. At the end, against the database: every acknowledged tip (200 with a transfer_id)
 * exists with its key and amount; every currency sums to zero, no wallet is negative, every transfer
 * balances and every balance equals its entries; money is conserved (decision 0036: every coin issued
 * against recorded money in, no system account below zero); no key moved money twice; a request answered with a
 * refusal (402/429) moved nothing; a retried key answers its first transfer.
 * Prints one summary line; exits non-zero on any violation. Runs from `npm test` when TEST_DATABASE_URL
 * is set (scripts/run-tests.ts). Env: CRASH_KILLS (4), CRASH_CLIENTS (8), CRASH_INTERVAL_MS (5000
 * between kills), CRASH_TIPPERS (400), TEST_DATABASE_URL / BENCH_DATABASE_URL (the server to use).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { auditAcknowledgedTips, type TipTransferRow } from '../server/testing/crash-audit';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import { conservationViolationsAt, emptyPostgresDatabase, ledgerViolations, provisionTippers, publicStream, TipSender, violationCount, type Tipper } from '../server/testing/tip-load';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const KILLS = num('CRASH_KILLS', 4);
const CLIENTS = num('CRASH_CLIENTS', 8);
const INTERVAL_MS = num('CRASH_INTERVAL_MS', 5000);
const TIPPERS = num('CRASH_TIPPERS', 400);
/** Coins per tipper: a few tips drain a wallet, so refusals for insufficient funds happen too. */
const COINS = 500;
const AMOUNTS = [1, 5, 10, 20, 100, 200];
/** Under the per-user limit (30 a minute) for most tippers; 429s are a valid, checked outcome. */
const TIPS_PER_TIPPER = 20;
const REQUEST_TIMEOUT_MS = 5000;
const FINAL_ROUNDS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server on the crash test's database and data dir (kept across restarts), demo data seeded. */
const startServer = (databaseUrl: string, dataDir: string) => startServerProcess({ SEED_DEMO: 'on', DATABASE_URL: databaseUrl }, { dataDir });

/** How many of these idempotency keys have a transfer. */
async function countTransfers(databaseUrl: string, keys: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from ledger_transfers where idempotency_key = any($1::text[])', [keys]);
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/** `work` on every item, at most `limit` at once. */
async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

interface Attempt {
  tipper: Tipper;
  key: string;
  amount: number;
}

async function main() {
  const started = Date.now();
  const db = await emptyPostgresDatabase('ll_crash');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-crash-'));
  let server: ServerProcess | null = null;
  const problems: string[] = [];
  try {
    server = await startServer(db.url, dataDir);
    const { streamId } = await publicStream(server.url);
    const tippers = await provisionTippers(db.url, TIPPERS, COINS);
    let sender = await new TipSender(server.url).init();

    /** key → transfer id, for tips answered 200. */
    const acknowledged = new Map<string, { attempt: Attempt; transferId: number }>();
    /** Keys answered with a refusal: no money may have moved for them. */
    const refused = new Map<string, Attempt>();
    /** Sent, no answer (the server died or the connection broke): sent again after the restart. */
    const unknown = new Map<string, Attempt>();
    const retriedAfterCrash = new Set<string>();
    const throttledRetries = new Set<string>();
    let sent = 0;
    /** Requests per tipper (first sends and retries): kept under the limit of 30 a minute. */
    const uses = new Map<number, number>();
    let replays = 0;
    const ledgerKey = (a: Attempt) => `tip:${a.tipper.userId}:${a.key}`;

    const settle = (attempt: Attempt, res: Awaited<ReturnType<TipSender['tip']>>) => {
      const k = ledgerKey(attempt);
      if (res.status === 200 && typeof res.body.transfer_id === 'number') {
        const earlier = acknowledged.get(k);
        if (earlier && earlier.transferId !== res.body.transfer_id) {
          problems.push(`key ${k} answered transfer ${res.body.transfer_id} after ${earlier.transferId}`);
        }
        acknowledged.set(k, { attempt, transferId: res.body.transfer_id });
        unknown.delete(k);
      } else if (res.status === 429 && (acknowledged.has(k) || retriedAfterCrash.has(k))) {
        // The limit is checked before the key: a throttled retry says nothing about the first request.
        throttledRetries.add(k);
        unknown.delete(k);
      } else if (res.status === 402 || res.status === 429) {
        if (acknowledged.has(k)) problems.push(`key ${k} refused (${res.status}) after it was acknowledged`);
        else refused.set(k, attempt);
        unknown.delete(k);
      } else if (res.status >= 500 || res.status === 0) {
        unknown.set(k, attempt); // a dying server may answer 5xx: the outcome is unknown, not refused
      } else {
        problems.push(`key ${k}: unexpected ${res.status} ${String(res.body.message ?? '')}`);
        unknown.delete(k);
      }
    };

    const send = async (attempt: Attempt): Promise<number> => {
      uses.set(attempt.tipper.userId, (uses.get(attempt.tipper.userId) ?? 0) + 1);
      const res = await sender.tip(attempt.tipper, streamId, attempt.amount, attempt.key, REQUEST_TIMEOUT_MS)
        .catch(() => ({ status: 0, body: {} }));
      settle(attempt, res);
      return res.status;
    };

    // Load: each client works through its own tippers in turn, one request at a time.
    let stopping = false;
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      const mine = tippers.filter((_, i) => i % CLIENTS === c);
      let n = 0;
      while (!stopping) {
        const tipper = mine[n % mine.length]!;
        n += 1;
        if ((uses.get(tipper.userId) ?? 0) >= TIPS_PER_TIPPER) {
          if (n > mine.length * TIPS_PER_TIPPER) break;
          continue;
        }
        const attempt: Attempt = { tipper, key: `c${c}-${n}`, amount: AMOUNTS[(n * 7 + c) % AMOUNTS.length]! };
        unknown.set(ledgerKey(attempt), attempt);
        sent += 1;
        const status = await send(attempt);
        // Now and then a client retries an acknowledged key: it must answer the same transfer.
        if (n % 17 === 0) {
          const done = [...acknowledged.values()].at(-1);
          if (done && (uses.get(done.attempt.tipper.userId) ?? 0) < TIPS_PER_TIPPER + 3) {
            replays += 1;
            await send(done.attempt);
          }
        }
        if (status === 0 || status >= 500) await sleep(50); // the server is down: do not spin
      }
    });

    let kills = 0;
    let committedUnanswered = 0;
    const killer = (async () => {
      for (let i = 0; i < KILLS; i++) {
        await sleep(INTERVAL_MS);
        const victim = server!;
        victim.child.kill('SIGKILL');
        await victim.exited;
        kills += 1;
        server = await startServer(db.url, dataDir);
        sender = await new TipSender(server.url).init();
        // Everything without an answer, again with the same key. Those already in the books committed
        // without an answer (the kill came between the commit and the response).
        const pending = [...unknown.values()];
        for (const attempt of pending) retriedAfterCrash.add(ledgerKey(attempt));
        committedUnanswered += await countTransfers(db.url, pending.map(ledgerKey));
        await inBatches(pending, CLIENTS * 4, async (attempt) => { await send(attempt); });
      }
    })();
    await killer;
    await sleep(1000);
    stopping = true;
    await Promise.all(clients);
    // Last rounds: nothing may stay unanswered while the server is up. Retried as clients do, a few
    // at a time, until a round answers nothing new.
    const finalRounds: string[] = [];
    for (let round = 0; round < FINAL_ROUNDS && unknown.size > 0; round++) {
      const pending = [...unknown.values()];
      for (const attempt of pending) retriedAfterCrash.add(ledgerKey(attempt));
      const statuses = new Map<number, number>();
      await inBatches(pending, CLIENTS * 4, async (attempt) => {
        const status = await send(attempt);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      });
      finalRounds.push(`${pending.length} sent: ${[...statuses].map(([s, n]) => `${n}×${s}`).join(', ')}`);
      if (unknown.size > 0) await sleep(1000);
    }
    if (unknown.size > 0) {
      const live = server.child.exitCode === null && server.child.signalCode === null;
      problems.push(`${unknown.size} requests never answered (server ${live ? 'running' : `exited: ${server.child.exitCode ?? server.child.signalCode}`}); rounds: ${finalRounds.join(' | ')}`);
    }

    // Stop the server cleanly, then read the books.
    server.child.kill('SIGTERM');
    await server.exited;
    server = null;

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    // The tips of this test's tippers (the demo data has tips of its own).
    const { rows } = await client.query<TipTransferRow>(
      `select t.id, t.idempotency_key, t.amount, t.from_user_id, (select count(*)::int from ledger_entries e where e.transfer_id = t.id) as entries
       from ledger_transfers t where t.kind = 'tip' and t.from_user_id = any($1::bigint[])`, [tippers.map((tipper) => tipper.userId)]);
    const { rows: dup } = await client.query<{ n: number }>(
      `select count(*)::int as n from (select idempotency_key from ledger_transfers group by idempotency_key having count(*) > 1) d`);
    await client.end();
    problems.push(...auditAcknowledgedTips({ acknowledged, refused: refused.keys(), throttledRetries, tipTransfers: rows, keysMovedTwice: dup[0]?.n ?? 0 }));
    const violations = await ledgerViolations(db.url);
    if (violationCount(violations) > 0) problems.push(`ledger invariants: ${JSON.stringify(violations)}`);
    const unconserved = await conservationViolationsAt(db.url);
    problems.push(...unconserved.map((v) => `conservation: ${v}`));

    const retriedAcknowledged = [...retriedAfterCrash].filter((k) => acknowledged.has(k)).length;
    const summary = {
      runs: 1 + kills, kills, sent, replays, acknowledged: acknowledged.size, refused: refused.size,
      retriedAfterCrash: retriedAfterCrash.size, committedUnanswered, retriedThenAcknowledged: retriedAcknowledged, throttledRetries: throttledRetries.size, tipTransfers: rows.length,
      invariants: violationCount(violations) === 0 ? 'sound' : 'VIOLATED', conservation: unconserved.length === 0 ? 'conserved' : 'VIOLATED', seconds: Math.round((Date.now() - started) / 1000),
    };
    const line = Object.entries(summary).map(([k, v]) => `${k}=${v}`).join(' ');
    if (kills < KILLS) problems.push(`only ${kills} of ${KILLS} kills happened`);
    if (acknowledged.size === 0) problems.push('no tip was acknowledged');
    if (problems.length > 0) {
      for (const p of problems.slice(0, 20)) console.error(`✘ ${p}`);
      console.log(`crash test FAILED: ${problems.length} problem(s); ${line}`);
      process.exitCode = 1;
    } else {
      console.log(`crash test passed: ${line}`);
    }
  } finally {
    if (server) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  console.log('crash test FAILED: error');
  process.exit(1);
});
