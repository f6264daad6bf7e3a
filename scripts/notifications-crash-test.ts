/**
 * The notifications crash test (decision 0025): the real server on a fresh PostgreSQL database, a
 * broadcaster with many followers goes live (its `stream.went-live` committed to the event outbox, decision
 * 0052), and the server is killed with SIGKILL right after that commit, before any handler ran, twice
 * while it fans the go-live out and once while it mails the followers, then started again each time. At the end,
 * against the database: every follower has exactly one notification and one mail in the outbox, every
 * delivery is sent, the fan-out is done — nothing lost, nothing twice — and the books are conserved
 * (decision 0036).
 * Prints one summary line; exits non-zero on any violation. Runs from `npm test` when TEST_DATABASE_URL
 * is set. Env: NOTIFY_CRASH_FOLLOWERS (5000), NOTIFY_CRASH_TRACE (print each kill), TEST_DATABASE_URL / BENCH_DATABASE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import { conservationViolationsAt, emptyPostgresDatabase } from '../server/testing/tip-load';

const FOLLOWERS = Number(process.env.NOTIFY_CRASH_FOLLOWERS ?? 5_000);
const SERVER_ENV = { MAIL_OUTBOX: 'on', NOTIFY_FANOUT_BATCH: '250', NOTIFY_JOB_SECONDS: '1', NOTIFY_DELIVERY_LEASE_SECONDS: '2' };
const DEADLINE_MS = 180_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const started = Date.now();
  const db = await emptyPostgresDatabase('ll_notify_crash');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-notify-crash-'));
  const start = () => startServerProcess({ ...SERVER_ENV, DATABASE_URL: db.url }, { dataDir });
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const count = async (query: string, params: unknown[] = []) => Number((await pool.query<{ n: string }>(query, params)).rows[0]!.n);
  let server: ServerProcess | null = null;
  const problems: string[] = [];
  let kills = 0;
  try {
    server = await start();
    // The broadcaster and their followers (the bell on, default preferences), written as sign-ups would.
    const { rows: [star] } = await pool.query<{ id: string }>(
      `insert into users (username, email, broadcast_key, terms_accepted, birthday, country) values ('crashstar', 'crashstar@crash.local', md5(random()::text), true, '1990-06-15', 'CA') returning id`);
    await pool.query(
      `insert into users (username, email, broadcast_key, terms_accepted, birthday, country)
       select 'crashfan' || g, 'crashfan' || g || '@crash.local', md5(g || random()::text), true, '1990-06-15', 'CA' from generate_series(1, $1::int) g`, [FOLLOWERS]);
    await pool.query(`insert into follows (follower_id, followee_id) select id, $1 from users where username like 'crashfan%'`, [star!.id]);
    const source = 'stream_live:900001';
    const notified = () => count(`select count(*) as n from notifications where dedupe_key = $1`, [source]);
    const mailed = () => count(`select count(*) as n from mail_outbox where message_key like 'notification-%'`);

    const killWhen = async (what: string, progress: () => Promise<number>, atLeast: number) => {
      const until = Date.now() + DEADLINE_MS;
      while ((await progress()) < atLeast) {
        if (Date.now() > until) throw new Error(`${what} never reached ${atLeast}`);
        await sleep(10);
      }
      server!.child.kill('SIGKILL');
      await server!.exited;
      kills += 1;
      if (process.env.NOTIFY_CRASH_TRACE) console.log(`killed at ${what} ${atLeast} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      server = await start();
    };
    // What the go-live's transaction writes with it, and the kill before its handlers: the restarted
    // server's outbox delivery queues the fan-out; the job does the rest.
    await pool.query(`insert into event_outbox (event, payload) values ('stream.went-live', $1)`, [{ streamId: 900001, ownerId: Number(star!.id), title: 'Crash set' }]);
    await killWhen('the commit', async () => 1, 1);
    await killWhen('the fan-out', notified, Math.floor(FOLLOWERS * 0.25));
    await killWhen('the fan-out', notified, Math.floor(FOLLOWERS * 0.6));
    await killWhen('the mail', mailed, Math.floor(FOLLOWERS * 0.3));

    const until = Date.now() + DEADLINE_MS;
    while ((await count(`select count(*) as n from notification_deliveries where state = 'pending'`)) > 0
      || (await count(`select count(*) as n from notification_fanouts where done_at is null`)) > 0) {
      if (Date.now() > until) {
        problems.push('deliveries still pending at the deadline');
        break;
      }
      await sleep(200);
    }

    const people = await count(`select count(distinct user_id) as n from notifications where dedupe_key = $1`, [source]);
    const total = await notified();
    const deliveries = await count(`select count(*) as n from notification_deliveries where state = 'sent'`);
    const mails = await mailed();
    const twice = await count(`select count(*) as n from (select "to" from mail_outbox where message_key like 'notification-%' group by "to" having count(*) > 1) d`);
    if (people !== FOLLOWERS) problems.push(`${people} of ${FOLLOWERS} followers notified`);
    if (total !== people) problems.push(`${total - people} notifications twice`);
    if (deliveries !== FOLLOWERS) problems.push(`${deliveries} of ${FOLLOWERS} deliveries sent`);
    if (mails !== FOLLOWERS) problems.push(`${mails} of ${FOLLOWERS} mails in the outbox`);
    if (twice > 0) problems.push(`${twice} followers mailed twice`);
    const fanouts = await count(`select count(*) as n from notification_fanouts where source_key = $1`, [source]);
    if (fanouts !== 1) problems.push(`${fanouts} fan-outs of the go-live`);
    const undelivered = await count(`select count(*) as n from event_outbox where delivered_at is null`);
    if (undelivered > 0) problems.push(`${undelivered} outbox events undelivered`);
    // The server's own money (the demo's deposits, its history) stays conserved through the kills.
    problems.push(...(await conservationViolationsAt(db.url)).map((v) => `conservation: ${v}`));
    console.log(`notifications crash test: ${FOLLOWERS} followers, ${kills} kills (1 after the go-live's commit, 2 mid-fan-out, 1 mid-mail); ${total} notifications, ${mails} mails, `
      + `${twice} mailed twice; ${problems.length === 0 ? 'no violations' : problems.join('; ')}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await pool.end();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  }
  process.exit(problems.length === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
