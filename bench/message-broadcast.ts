/**
 * A message to 100,000 subscribers on PostgreSQL (decision 0086): broadcaster3, live from an RTMP test
 * pattern, has BROADCAST_BENCH_SUBSCRIBERS paid-up subscribers and sends them one message through
 * `send-to-many`; the server's job delivers it as each subscriber's own conversation. Measured: the
 * send call, the seconds until every subscriber has it (and so its conversation, both members' rows and
 * the unread count), and, while it runs and once it is done, the go-live call's latency and a chat
 * line's round trip on the live stream (sent over the socket until it comes back; ordinary clients, one
 * at a time). Side by side on the same database, the reference: a plain INSERT … SELECT of the same
 * 100,000 message rows into a copy of the messages table with its indexes — the least any design that
 * stores them must pay; the ratio says what the rest (conversations, members' rows, counts, frames) costs.
 *
 * Measured 2026-11-30 on the 2-core machine (server, PostgreSQL 15, the test pattern and this client on it),
 * 100,000 subscribers: the send call 6.7 ms; all delivered 10.1 s after it (9,931/s); the plain insert 0.43 s
 * (ratio 23.6). While it ran: go-live median 7.7 ms, p99 25.1 ms (167 calls), a chat line median 6.9 ms, p99
 * 16.3 ms (10 lines); after: go-live 3.8 / 11.4 ms, chat 4.8 / 8.4 ms.
 *
 * Env: BROADCAST_BENCH_SUBSCRIBERS (100000), BENCH_DATABASE_URL (a fresh database is created and dropped).
 */
import { randomUUID } from 'node:crypto';
import * as messagesApi from '../common/api/messages';
import * as subscriptionsApi from '../common/api/subscriptions';
import { streamChannelOf } from '../common/realtime-channels';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { HttpSession } from '../server/testing/http-session';
import { WsClient } from '../server/testing/ws-client';
import { latencySummary, round, sleep, writeResult } from './lib';
import { goOnAir, setUpStream } from './live-stream';
import { onFreshDatabase, runBench } from './server-on-postgres';

const SUBSCRIBERS = Number(process.env.BROADCAST_BENCH_SUBSCRIBERS ?? 100_000);
const DEADLINE_MS = 15 * 60_000;
const TEXT = 'New set tonight, thank you all!';
const CHAT_EVERY_MS = 1_050;
const IDLE_CHAT_LINES = 30;

async function main() {
  await onFreshDatabase('ll_bench_broadcast', {}, async ({ server, pool, count }) => {
    const star = await HttpSession.at(server.url).signIn('broadcaster3', DEMO_PASSWORD);
    const stream = await setUpStream(star, 'Bench set');
    const starId = stream.user_id;
    const { templates } = await star.call(subscriptionsApi.planTemplates, {});
    const { plan } = await star.call(subscriptionsApi.planAdd, { template_id: templates[0]!.template_id, price: templates[0]!.prices[0]!.price, currency: 'CON' });

    const seedStarted = performance.now();
    await pool.query(
      `insert into users (username, email, broadcast_key, terms_accepted, birthday, country)
       select 'benchsub' || g, 'benchsub' || g || '@bench.local', md5(g || random()::text), true, '1990-06-15', 'CA' from generate_series(1, $1::int) g`, [SUBSCRIBERS]);
    await pool.query(
      `insert into subscriptions (subscriber_id, creator_id, plan_id, plan_name, plan_level, benefits, price, currency, period, auto_renew, begin_date, end_date)
       select u.id, p.user_id, p.id, p.name, 1, '{}'::jsonb, $2, 'CON', 'month', false, now(), now() + interval '30 days'
       from users u, subscription_plans p where u.username like 'benchsub%' and p.id = $1`, [plan.plan_id, plan.price]);
    await pool.query('analyze');
    const seedMs = performance.now() - seedStarted;

    // The reference: the same message rows written plainly, in one statement, into a table shaped alike.
    await pool.query('create table ref_direct_messages (like direct_messages including all)');
    const referenceStarted = performance.now();
    await pool.query(`insert into ref_direct_messages (conversation_id, sender_id, recipient_id, body, client_key, broadcast_id)
      select s.subscriber_id, $1, s.subscriber_id, $2, 'ref-' || s.subscriber_id, 1 from subscriptions s where s.creator_id = $1`, [starId, TEXT]);
    const referenceMs = performance.now() - referenceStarted;
    await pool.query('drop table ref_direct_messages');

    const onAir = await goOnAir(star, stream, pool);
    // GO LIVE shows the stream to viewers.
    await onAir.goLive();
    // One viewer writes, another reads: a line goes out to the stream's other sockets.
    const channel = streamChannelOf(stream.stream_id);
    const [writer, reader] = await Promise.all(['viewer2', 'viewer3'].map(async (name) => {
      const socket = await WsClient.connect(server.url, (await HttpSession.at(server.url).signIn(name, DEMO_PASSWORD)).cookie('ll_session'));
      const answer = await socket.request({ op: 'subscribe', channel });
      if (answer.op !== 'subscribed') throw new Error(`${name} could not join the stream's chat: ${JSON.stringify(answer)}`);
      return socket;
    }));
    let line = 0;
    let lastLine = 0;
    /** A viewer may write CHAT_RATE's 10 lines in 10 s: a line at most every CHAT_EVERY_MS. */
    const chatDue = () => performance.now() - lastLine >= CHAT_EVERY_MS;
    /** A chat line's round trip: sent by one viewer until another viewer has it. */
    const chatRoundTrip = async () => {
      const text = `bench line ${(line += 1)}`;
      const t0 = performance.now();
      lastLine = t0;
      const arrived = reader!.next((f) => JSON.stringify(f).includes(text), 30_000);
      const sent = await writer!.request({ op: 'send', channel, id: `l${line}`, type: 'COMMENT', text });
      if (sent.op !== 'ack') throw new Error(`the chat line was refused: ${JSON.stringify(sent)}`);
      await arrived;
      return performance.now() - t0;
    };
    try {
      const sendStarted = performance.now();
      const { broadcast } = await star.call(messagesApi.sendToMany, { audience: 'subscribers', text: TEXT, client_key: randomUUID() });
      const sendMs = performance.now() - sendStarted;

      const during = { goLive: [] as number[], chat: [] as number[] };
      let deliveredS = 0;
      const watch = (async () => {
        while (!deliveredS) {
          if ((await count('select count(*) as n from direct_messages where broadcast_id = $1', [broadcast.broadcast_id])) >= SUBSCRIBERS) {
            deliveredS = (performance.now() - sendStarted) / 1000;
          }
          if (performance.now() - sendStarted > DEADLINE_MS) throw new Error('the delivery did not finish in time');
          await sleep(100);
        }
      })();
      while (!deliveredS) {
        during.goLive.push(await onAir.goLive());
        if (chatDue()) during.chat.push(await chatRoundTrip());
        await sleep(50);
      }
      await watch;
      const idle = { goLive: [] as number[], chat: [] as number[] };
      for (let i = 0; i < 200; i += 1) idle.goLive.push(await onAir.goLive());
      while (idle.chat.length < IDLE_CHAT_LINES) {
        if (chatDue()) idle.chat.push(await chatRoundTrip());
        else await sleep(50);
      }
      const unread = await count(`select coalesce(sum(unread), 0) as n from conversation_members where partner_id = $1`, [starId]);
      const summaries = {
        goLiveDuring: latencySummary(during.goLive), goLiveIdle: latencySummary(idle.goLive),
        chatDuring: latencySummary(during.chat), chatIdle: latencySummary(idle.chat),
      };
      writeResult('message-broadcast', {
        subscribers: SUBSCRIBERS,
        seedSeconds: round(seedMs / 1000, 1),
        sendCallMs: round(sendMs, 1),
        allDeliveredSeconds: round(deliveredS, 1),
        deliveredPerSecond: Math.round(SUBSCRIBERS / deliveredS),
        unreadCounted: unread,
        referencePlainInsertSeconds: round(referenceMs / 1000, 2),
        ratioToReference: round(deliveredS / (referenceMs / 1000), 1),
        ...summaries,
        goLiveP99DuringOverIdle: round(summaries.goLiveDuring.p99Ms / Math.max(0.1, summaries.goLiveIdle.p99Ms), 2),
        chatP99DuringOverIdle: round(summaries.chatDuring.p99Ms / Math.max(0.1, summaries.chatIdle.p99Ms), 2),
      });
    } finally {
      writer!.close();
      reader!.close();
      await onAir.publisher.stop();
    }
  });
}

runBench(main);
