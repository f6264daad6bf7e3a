/**
 * Go-live notifications on PostgreSQL: a broadcaster with 100,000 followers (bell on, default
 * preferences: in-app and e-mail) goes live from an RTMP test pattern and presses GO LIVE. Measured:
 * the go-live call's latency, the seconds until every in-app notification is stored and until every
 * mail is in the outbox (MAIL_OUTBOX=on), and the go-live call's latency again while the fan-out and the
 * mail run and once they are done (one call after another, the web's own kind of client). Side by side
 * on the same database, the reference: a plain INSERT … SELECT of the same 100,000 notification rows
 * and 100,000 outbox rows into copies of those tables with their indexes — the least any design that
 * stores them must pay; the ratio says what the rest (batches, deliveries, frames, mail texts) costs.
 *
 * Measured 2026-11-27 on the 2-core machine (server, PostgreSQL 15, ffmpeg's test pattern and this client on
 * it), 100,000 followers: the first go-live call 61 ms; every in-app notification stored 8.4 s after it
 * (11,900/s, batches of 5,000), every mail in the outbox after 20.0 s (5,000/s); the plain insert of the
 * same rows 1.79 s (ratios 4.7 for the bell, 11.2 with the mail). Go-live calls while it ran: median
 * 24.9 ms, p99 187 ms (226 calls); after: median 7.5 ms, p99 30.1 ms.
 *
 * Env: NOTIFY_BENCH_FOLLOWERS (100000), BENCH_DATABASE_URL (a fresh database is created and dropped).
 */
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { HttpSession } from '../server/testing/http-session';
import { latencySummary, round, sleep, writeResult } from './lib';
import { goOnAir, setUpStream } from './live-stream';
import { onFreshDatabase, runBench } from './server-on-postgres';

const FOLLOWERS = Number(process.env.NOTIFY_BENCH_FOLLOWERS ?? 100_000);
const DEADLINE_MS = 15 * 60_000;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await work();
  return [value, performance.now() - t0];
}

async function main() {
  await onFreshDatabase('ll_bench_notify', { SEED_DEMO: 'on', MAIL_OUTBOX: 'on' }, async ({ server, pool, count }) => {
    const star = await HttpSession.at(server.url).signIn('broadcaster3', DEMO_PASSWORD);
    const stream = await setUpStream(star, 'Bench set');
    const starId = Number((await pool.query<{ id: string }>(`select id from users where username = 'broadcaster3'`)).rows[0]!.id);

    const [, seedMs] = await timed(async () => {
      await pool.query(
        `insert into users (username, email, broadcast_key, terms_accepted, birthday, country)
         select 'benchfan' || g, 'benchfan' || g || '@bench.local', md5(g || random()::text), true, '1990-06-15', 'CA' from generate_series(1, $1::int) g`, [FOLLOWERS]);
      await pool.query(`insert into follows (follower_id, followee_id) select id, $1 from users where username like 'benchfan%'`, [starId]);
      await pool.query('analyze');
    });

    // The reference: the same rows written plainly, in one statement each, into tables shaped alike.
    await pool.query(`create table ref_notifications (like notifications including all); create table ref_outbox (like mail_outbox including all)`);
    const [, referenceMs] = await timed(async () => {
      await pool.query(`insert into ref_notifications (user_id, kind, actor_id, subject_id, data, dedupe_key)
        select follower_id, 'stream_live', $1, $2, '{"title":"Bench set"}', 'ref' from follows where followee_id = $1`, [starId, stream.stream_id]);
      await pool.query(`insert into ref_outbox ("to", subject, text, transport, message_key)
        select u.email, 'broadcaster3 is live: Bench set', 'broadcaster3 is live', 'outbox', 'ref-' || u.id from follows f join users u on u.id = f.follower_id where f.followee_id = $1`, [starId]);
    });
    await pool.query('drop table ref_notifications; drop table ref_outbox');

    const onAir = await goOnAir(star, stream, pool);
    try {
      const source = `stream_live:${stream.stream_id}`;
      const started = performance.now();
      const firstMs = await onAir.goLive();

      const during: number[] = [];
      let inAppS = 0;
      let mailS = 0;
      const watch = (async () => {
        while (!mailS) {
          const elapsed = (performance.now() - started) / 1000;
          if (!inAppS && (await count(`select count(*) as n from notifications where dedupe_key = $1`, [source])) >= FOLLOWERS) inAppS = elapsed;
          if (inAppS && (await count(`select count(*) as n from mail_outbox where message_key like 'notification-%'`)) >= FOLLOWERS) mailS = (performance.now() - started) / 1000;
          if (performance.now() - started > DEADLINE_MS) throw new Error('the fan-out did not finish in time');
          await sleep(100);
        }
      })();
      while (!mailS) {
        during.push(await onAir.goLive());
        await sleep(50);
      }
      await watch;
      const idle: number[] = [];
      for (let i = 0; i < 200; i += 1) idle.push(await onAir.goLive());

      const fanOutS = inAppS;
      const duringSummary = latencySummary(during);
      const idleSummary = latencySummary(idle);
      writeResult('notifications', {
        followers: FOLLOWERS,
        seedSeconds: round(seedMs / 1000, 1),
        goLiveFirstCallMs: round(firstMs, 1),
        inAppAllStoredSeconds: round(inAppS, 1),
        inAppPerSecond: Math.round(FOLLOWERS / fanOutS),
        mailsAllInOutboxSeconds: round(mailS, 1),
        mailsPerSecond: Math.round(FOLLOWERS / mailS),
        referencePlainInsertSeconds: round(referenceMs / 1000, 2),
        ratioInAppToReference: round(fanOutS / (referenceMs / 1000), 1),
        ratioAllToReference: round(mailS / (referenceMs / 1000), 1),
        goLiveDuringFanOut: duringSummary,
        goLiveIdle: idleSummary,
        goLiveP99DuringOverIdle: round(duringSummary.p99Ms / Math.max(0.1, idleSummary.p99Ms), 2),
      });
    } finally {
      await onAir.publisher.stop();
    }
  });
}

runBench(main);
