import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { DEFAULT_PERMISSIONS } from '../../../common/permissions';
import { HISTORY_LINES } from '../../../common/realtime';
import { sendTip, streamSupporters, TIP_MAX, TIP_MESSAGE_MAX, userEarningDetails } from '../../../common/api/tips';
import { streamJoin, streamLookup, updateStreamInfo } from '../../../common/api/streams';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import type { UserOptions } from '../../testing/given';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import type { HttpSession } from '../../testing/http-session';
import { WsClient } from '../../testing/ws-client';
import { createLedger, type Ledger } from '../ledger/service';
import { TIP_RATE } from './service';

let t: TestApp;
let ledger: Ledger;
let baseUrl: string;
const sockets: WsClient[] = [];

beforeAll(async () => {
  t = await startTestApp();
  ledger = createLedger({ db: t.resources.database.db });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await closeCheckingLedger(t);
});

let keys = 0;
const newKey = () => `k-${process.pid}-${(keys += 1)}`;

/** A tip written straight to the ledger: past the HTTP path's rate limit (the TIP message is not published). */
const ledgerTip = (fromUserId: number, streamId: number, toUserId: number) =>
  ledger.transfer({
    kind: 'tip', idempotencyKey: `tip-${newKey()}`, fromUserId, toUserId, streamId, amount: 1, currency: 'CON',
    legs: [{ account: { userId: fromUserId, currency: 'CON' }, amount: -1 }, { account: { userId: toUserId, currency: 'CON' }, amount: 1 }],
  });

/** A tip that goes through: the contract's answer (a refusal throws). */
const tip = (client: HttpSession, streamId: number, amount: number, key = newKey()) =>
  client.call(sendTip, { stream_id: streamId, amount }, { idempotencyKey: key });
/** A tip that is refused: its status and failure envelope. The amount may break the rules; a null key sends none. */
const refusedTip = (client: HttpSession, streamId: number, amount: unknown, key: string | null = newKey()) =>
  client.refusal(sendTip, { stream_id: streamId, amount }, key === null ? {} : { idempotencyKey: key });
/** A tip among many whose outcome varies: whatever it answered. */
const sentTip = (client: HttpSession, streamId: number, amount: number, key = newKey()) =>
  client.send(sendTip, { stream_id: streamId, amount }, { idempotencyKey: key });

async function viewer(coins = 0, options: UserOptions = {}): Promise<SignedInUser> {
  const signedIn = await t.given.signedInUser(options);
  if (coins > 0) await t.given.coins(signedIn.user, coins);
  return signedIn;
}

async function socketOf(client?: HttpSession) {
  const socket = await WsClient.connect(baseUrl, client?.cookie('ll_session'));
  sockets.push(socket);
  return socket;
}

const con = async (userId: number) => (await ledger.balances(userId)).CON;
const feesBalance = async () => {
  const rows = await t.resources.database.db.execute(sql`select coalesce(sum(balance), 0) as balance from ledger_accounts where system = 'fees' and currency = 'CON'`);
  return Number((rows.rows[0] as { balance?: string | number } | undefined)?.balance ?? 0);
};
const transfersWithKey = async (userId: number, key: string) => {
  const rows = await t.resources.database.db.execute(sql`select count(*)::int as n from ledger_transfers where idempotency_key = ${`tip:${userId}:${key}`}`);
  return Number((rows.rows[0] as { n: number }).n);
};

describe('send-tip', () => {
  it('moves the coins with the platform fee (20 % by default) and answers spend, has_paid and balance', async () => {
    const live = await t.given.liveStream();
    const fan = await viewer(500);
    const feesBefore = await feesBalance();
    const res = await tip(fan.client, live.streamId, 100);
    expect(res).toMatchObject({
      response: 'success', has_paid: true, viewer_spend: { currency: 'CON', amount: 100 }, balance: { CON: 400, IMP: 0, USD: 0, CAD: 0 },
    });
    expect(typeof res.transfer_id).toBe('number');
    expect(await con(live.user.id)).toBe(80);
    expect((await feesBalance()) - feesBefore).toBe(20);

    // The fee is rounded up: 7 coins pay 2 coins of fee.
    await tip(fan.client, live.streamId, 7);
    expect(await con(live.user.id)).toBe(80 + 5);
    const again = await tip(fan.client, live.streamId, 5);
    expect(again.viewer_spend).toEqual({ currency: 'CON', amount: 112 });
  });

  it('refuses logged-out callers, missing or over-long keys, bad amounts and unknown streams', async () => {
    const live = await t.given.liveStream();
    const fan = await viewer(100);
    const anonymous = t.client();
    expect((await refusedTip(anonymous, live.streamId, 5)).status).toBe(401);

    const missing = await refusedTip(fan.client, live.streamId, 5, null);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ response: 'validation', message: 'Idempotency-Key header is required.' });
    expect((await refusedTip(fan.client, live.streamId, 5, '  ')).status).toBe(400);
    expect((await refusedTip(fan.client, live.streamId, 5, 'x'.repeat(101))).status).toBe(400);

    for (const amount of [0, -5, 1.5, 'many', 100_001]) {
      const res = await refusedTip(fan.client, live.streamId, amount);
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.response).toBe('validation');
    }
    expect((await refusedTip(fan.client, 999_999_999, 5)).status).toBe(404);
    expect(await con(fan.user.id)).toBe(100);
  });

  it('refuses a tip on the caller’s own stream, on a stream they may not watch, and to a suspended broadcaster', async () => {
    const live = await t.given.liveStream();
    await t.given.coins(live.user.id, 100);
    const own = await refusedTip(live.client, live.streamId, 5);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('You cannot tip your own stream.');

    const followersOnly = await t.given.liveStream({ audience: 'FOLLOWERS' });
    const fan = await viewer(100);
    const hidden = await refusedTip(fan.client, followersOnly.streamId, 5);
    expect(hidden.status).toBe(403);

    await t.app.services.accounts.suspend(live.user.id);
    const suspended = await refusedTip(fan.client, live.streamId, 5);
    expect(suspended.status).toBe(403);
    expect(suspended.body).toEqual({ response: 'cannot_tip', message: MSG.cannotTipUser });
    expect(await con(fan.user.id)).toBe(100);
    expect(await con(live.user.id)).toBe(100);
  });

  it('checks the stream again on every tip: a ban or a private stream stops the next one', async () => {
    const live = await t.given.liveStream();
    const [fan, other] = [await viewer(100), await viewer(100)];
    await tip(fan.client, live.streamId, 5);
    await tip(other.client, live.streamId, 5);

    expect((await live.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: fan.user.id })).status).toBe(200);
    expect((await refusedTip(fan.client, live.streamId, 5)).status).toBe(403);
    await tip(other.client, live.streamId, 5);

    await live.client.call(updateStreamInfo, { id: live.streamId, data: { audience: 'PRIVATE' } });
    expect((await refusedTip(other.client, live.streamId, 5)).status).toBe(403);
    expect([await con(fan.user.id), await con(other.user.id)]).toEqual([95, 90]);
  });

  it('answers 402 insufficient_funds and moves nothing when the wallet cannot cover the tip', async () => {
    const live = await t.given.liveStream();
    const fan = await viewer(10);
    const res = await refusedTip(fan.client, live.streamId, 20);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ response: 'insufficient_funds', message: MSG.insufficientFunds });
    const broke = await viewer(0);
    expect((await refusedTip(broke.client, live.streamId, 5)).status).toBe(402);
    expect(await con(fan.user.id)).toBe(10);
    expect(await con(live.user.id)).toBe(0);
  });

  it('answers each of many tippers at once as if they tipped alone: coins, refusals, replays, balances', async () => {
    const live = await t.given.liveStream();
    await tip((await viewer(100)).client, live.streamId, 1); // the stream's owner is known: the fast path
    const fans = await Promise.all(Array.from({ length: 10 }, () => viewer(100)));
    const poor = await viewer(5);
    // Coins that sit in the tipper's receiving shard: the wallet alone cannot pay, the ledger gathers them.
    const sharded = await viewer();
    const owner = await viewer(60);
    await ledger.transfer({
      kind: 'tip', idempotencyKey: `shard-${newKey()}`, fromUserId: owner.user.id, toUserId: sharded.user.id, amount: 60, currency: 'CON',
      legs: [{ account: { userId: owner.user.id, currency: 'CON' }, amount: -60 }, { account: { userId: sharded.user.id, currency: 'CON', shard: 3 }, amount: 60 }],
    });
    const replayKey = newKey();
    const first = await tip(fans[0]!.client, live.streamId, 10, replayKey);

    const answers = await Promise.all([
      ...fans.map((fan, i) => sentTip(fan.client, live.streamId, 10 + i)),
      sentTip(poor.client, live.streamId, 10),
      sentTip(sharded.client, live.streamId, 50),
      sentTip(fans[0]!.client, live.streamId, 10, replayKey),
    ]);
    fans.forEach((_, i) => {
      expect(answers[i]!.status).toBe(200);
      expect(answers[i]!.body.balance).toMatchObject({ CON: 100 - (10 + i) - (i === 0 ? 10 : 0) });
    });
    expect(answers[10]).toMatchObject({ status: 402 });
    expect(answers[11]!.status).toBe(200);
    expect(answers[11]!.body.balance).toMatchObject({ CON: 10 });
    expect(answers[12]!.body.transfer_id).toBe(first.transfer_id);
    expect(await con(poor.user.id)).toBe(5);
    expect(await con(sharded.user.id)).toBe(10);
    expect(await transfersWithKey(fans[0]!.user.id, replayKey)).toBe(1);
  });

  it('answers a retried key with the first tip and moves nothing, even for 10 requests at once', async () => {
    const live = await t.given.liveStream();
    const fan = await viewer(1000);
    const key = newKey();
    const first = await tip(fan.client, live.streamId, 50, key);
    const retry = await tip(fan.client, live.streamId, 50, key);
    expect(retry.transfer_id).toBe(first.transfer_id);
    expect(retry.viewer_spend).toEqual({ currency: 'CON', amount: 50 });
    expect(await con(fan.user.id)).toBe(950);

    // The same key for another tip is a client error, not a second tip.
    expect((await refusedTip(fan.client, live.streamId, 60, key)).status).toBe(409);

    const together = newKey();
    const answers = await Promise.all(Array.from({ length: 10 }, () => tip(fan.client, live.streamId, 20, together)));
    expect(new Set(answers.map((a) => a.transfer_id)).size).toBe(1);
    expect(await transfersWithKey(fan.user.id, together)).toBe(1);
    expect(await con(fan.user.id)).toBe(930);
    expect(await con(live.user.id)).toBe(40 + 16);

    // Keys belong to their user: another viewer's identical key is another tip.
    const other = await viewer(100);
    expect((await tip(other.client, live.streamId, 20, together)).transfer_id).not.toBe(answers[0]!.transfer_id);
  });

  it('publishes TIP after the commit, once, with the tipper’s name and the coins', async () => {
    const live = await t.given.liveStream();
    const fan = await viewer(300);
    const watcher = await socketOf();
    const channel = `stream:${live.streamId}`;
    expect(await watcher.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    const key = newKey();
    const res = await tip(fan.client, live.streamId, 100, key);
    const got = await watcher.message('TIP');
    expect(got).toMatchObject({
      channel,
      message: {
        type: 'TIP',
        text: `${fan.user.username} tipped the streamer.`,
        data: { recipient_amount: 100, recipient_currency: 'CON' },
        sender: { user_id: fan.user.id, name: fan.user.username, is_owner: false, is_priority: false },
        timetoken: String(res.transfer_id),
      },
    });
    // A retry moves nothing and says nothing; a failed tip says nothing.
    await tip(fan.client, live.streamId, 100, key);
    expect((await refusedTip(fan.client, live.streamId, 1000)).status).toBe(402);
    await tip(fan.client, live.streamId, 5);
    const next = await watcher.message('TIP');
    expect((next.message.data as { recipient_amount: number }).recipient_amount).toBe(5);
  });

  it('carries a custom amount and an optional message to the stream, stores it with the tip and answers it in the history', async () => {
    const live = await t.given.liveStream();
    const fan = await viewer(300);
    const owner = await socketOf(live.client);
    const channel = `stream:${live.streamId}`;
    expect(await owner.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    const send = (body: { amount: number; message?: string }) => fan.client.call(sendTip, { stream_id: live.streamId, ...body }, { idempotencyKey: newKey() });
    const refused = (body: { amount: unknown; message?: unknown }) =>
      fan.client.refusal(sendTip, { stream_id: live.streamId, ...body }, { idempotencyKey: newKey() });

    const res = await send({ amount: 37, message: '  <b>Great</b> show!  ' });
    const got = await owner.message('TIP');
    // Stored and sent as typed (trimmed): the page shows it as text, never as markup.
    expect(got.message).toMatchObject({ data: { recipient_amount: 37, recipient_currency: 'CON', message: '<b>Great</b> show!' } });
    const [stored] = (await t.resources.database.db.execute(sql`select details->>'message' as message from ledger_transfers where id = ${res.transfer_id}`)).rows;
    expect(stored).toEqual({ message: '<b>Great</b> show!' });

    // A blank message is no message; emoji count as one character each.
    await send({ amount: 5, message: '   ' });
    expect((await owner.message('TIP')).message.data).not.toHaveProperty('message');
    await send({ amount: 5, message: '🎉'.repeat(TIP_MESSAGE_MAX) });
    await owner.message('TIP');

    // The tip rules apply to a custom amount, and the message has a bound.
    for (const [body, text] of [
      [{ amount: 2.5 }, MSG.coinsWhole],
      [{ amount: 0 }, MSG.coinsAtLeastOne],
      [{ amount: TIP_MAX + 1 }, `Must be at most ${TIP_MAX} coins`],
      [{ amount: 5, message: 'x'.repeat(TIP_MESSAGE_MAX + 1) }, `At most ${TIP_MESSAGE_MAX} characters`],
      [{ amount: 5, message: 42 }, MSG.mustBeText],
      [{ amount: 5, message: 'nul\u0000byte' }, MSG.textHasNul],
    ] as const) {
      const answer = await refused(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message, JSON.stringify(body)).toBe(text);
    }
    expect(await con(fan.user.id)).toBe(300 - 37 - 5 - 5);

    // A later subscriber reads the message in the chat history.
    const later = await socketOf();
    const joined = await later.request({ op: 'subscribe', channel });
    const lines = (joined.history as Array<{ type: string; data?: { message?: string; recipient_amount: number } }>).filter((m) => m.type === 'TIP');
    expect(lines.find((m) => m.data?.recipient_amount === 37)?.data?.message).toBe('<b>Great</b> show!');
  });

  it(`limits a user to ${TIP_RATE.tips} tips a minute`, async () => {
    const live = await t.given.liveStream();
    const fan = await viewer(1000);
    const first = await tip(fan.client, live.streamId, 1, 'first-of-many');
    for (let i = 1; i < TIP_RATE.tips; i++) await tip(fan.client, live.streamId, 1);
    const res = await refusedTip(fan.client, live.streamId, 1);
    expect(res.status).toBe(429);
    // A retried key still answers its tip, however empty the bucket.
    const retried = await tip(fan.client, live.streamId, 1, 'first-of-many');
    expect(retried.transfer_id).toBe(first.transfer_id);
    expect(await con(fan.user.id)).toBe(1000 - TIP_RATE.tips);
  });

  it(`lets exactly ${TIP_RATE.tips} of a burst of parallel tips through`, async () => {
    const live = await t.given.liveStream();
    const fan = await viewer(1000);
    const answers = await Promise.all(Array.from({ length: TIP_RATE.tips + 10 }, () => sentTip(fan.client, live.streamId, 1)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(TIP_RATE.tips);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(10);
    expect(await con(fan.user.id)).toBe(1000 - TIP_RATE.tips);
  });
});

describe('tips in the chat history', () => {
  it('answers a later subscriber the stream’s tips in order with its comments, and keeps them off the priority channel', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const fan = await viewer(300);
    await t.resources.database.db.execute(sql`update users set fullname = 'Fan Fullname' where id = ${fan.user.id}`);
    const chatter = await viewer();
    const chatterSocket = await socketOf(chatter.client);
    expect(await chatterSocket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed', history: [] });
    const say = async (text: string) => {
      const id = `h-${newKey()}`;
      expect(await chatterSocket.request({ op: 'send', channel, type: 'COMMENT', text, id })).toEqual({ op: 'ack', id });
    };
    await say('before the tip');
    const first = await tip(fan.client, live.streamId, 100);
    await say('between the tips');
    const second = await tip(fan.client, live.streamId, 25);
    await say('after the tips');
    const published = await chatterSocket.message('TIP');

    const late = await socketOf();
    const subscribed = await late.request({ op: 'subscribe', channel });
    const history = subscribed.history as Array<Record<string, unknown>>;
    expect(history.map((m) => (m.type === 'TIP' ? `TIP ${(m.data as { recipient_amount: number }).recipient_amount}` : m.text))).toEqual([
      'before the tip', 'TIP 100', 'between the tips', 'TIP 25', 'after the tips',
    ]);
    // The same message as the one published when the tip committed, but for its time (the transfer's).
    const { chatTime: publishedAt, ...publishedRest } = published.message;
    const { chatTime: storedAt, ...storedRest } = history[1]!;
    expect(storedRest).toEqual(publishedRest);
    expect(history[1]).toMatchObject({
      type: 'TIP',
      text: 'Fan Fullname tipped the streamer.',
      sender: { user_id: fan.user.id, name: 'Fan Fullname', is_owner: false, is_priority: false },
      timetoken: String(first.transfer_id),
    });
    expect(history[3]).toMatchObject({ timetoken: String(second.transfer_id) });
    expect(Math.abs(Date.parse(storedAt as string) - Date.parse(publishedAt as string))).toBeLessThan(5_000);

    const owner = await socketOf(live.client);
    expect(await owner.request({ op: 'subscribe', channel: `${channel}:priority` })).toMatchObject({ op: 'subscribed', history: [] });
  });

  it('keeps the last lines of the merged history', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const fan = await viewer(HISTORY_LINES + 5);
    const chatter = await viewer();
    const chatterSocket = await socketOf(chatter.client);
    await chatterSocket.request({ op: 'subscribe', channel });
    const id = `h-${newKey()}`;
    expect(await chatterSocket.request({ op: 'send', channel, type: 'COMMENT', text: 'oldest', id })).toEqual({ op: 'ack', id });
    for (let i = 0; i < HISTORY_LINES; i++) await ledgerTip(fan.user.id, live.streamId, live.user.id);
    const history = (await (await socketOf()).request({ op: 'subscribe', channel })).history as Array<{ type: string }>;
    expect(history).toHaveLength(HISTORY_LINES);
    expect(history.every((m) => m.type === 'TIP')).toBe(true);
  });

  it('shows a viewer who tipped past the pay wall their own tip line when they then subscribe', async () => {
    const live = await t.given.liveStream();
    await live.client.call(updateStreamInfo, { id: live.streamId, data: { tip_viewer_min_amount: 40 } });
    const channel = `stream:${live.streamId}`;
    const fan = await viewer(100);
    const socket = await socketOf(fan.client);
    expect(await socket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'error', code: 'stream_payment_required' });

    const paid = await tip(fan.client, live.streamId, 40);
    expect(paid).toMatchObject({ has_paid: true });
    const subscribed = await socket.request({ op: 'subscribe', channel });
    expect(subscribed).toMatchObject({ op: 'subscribed', channel });
    expect(subscribed.history).toEqual([expect.objectContaining({
      type: 'TIP',
      text: `${fan.user.username} tipped the streamer.`,
      data: { recipient_amount: 40, recipient_currency: 'CON' },
      sender: expect.objectContaining({ user_id: fan.user.id }),
      timetoken: String(paid.transfer_id),
    })]);
  });
});

describe('paid streams', () => {
  const setPrice = (client: HttpSession, id: number, amount: number) => client.call(updateStreamInfo, { id, data: { tip_viewer_min_amount: amount } });
  const refusedPrice = (client: HttpSession, id: number, amount: number) => client.refusal(updateStreamInfo, { id, data: { tip_viewer_min_amount: amount } });
  const lookup = (client: HttpSession, id: number) => client.call(streamLookup, { id });
  const join = (client: HttpSession, id: number) => client.call(streamJoin, { stream_id: id });
  const refusedJoin = (client: HttpSession, id: number) => client.refusal(streamJoin, { stream_id: id });

  it('validates the price and never lets a paid stream become free again', async () => {
    const live = await t.given.liveStream();
    for (const [amount, message] of [[15, 'Must be multiple of 10, ie. 10, 20, 100'], [-10, 'Must be a positive number'], [1010, 'Must be at most 1000 coins']] as const) {
      const res = await refusedPrice(live.client, live.streamId, amount);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    await setPrice(live.client, live.streamId, 0);
    const paid = await setPrice(live.client, live.streamId, 50);
    expect(paid.stream.tip_viewer_min_amount).toBe(50);
    const back = await refusedPrice(live.client, live.streamId, 0);
    expect(back.status).toBe(400);
    expect(back.body.message).toBe('A paid stream cannot be made free again.');
    await setPrice(live.client, live.streamId, 100);
    const stranger = await viewer();
    expect((await refusedPrice(stranger.client, live.streamId, 200)).status).toBe(404);
  });

  it('keeps an unpaid viewer out of the video and the chat until they tip the minimum', async () => {
    const live = await t.given.liveStream();
    await setPrice(live.client, live.streamId, 30);
    const fan = await viewer(100);
    const channel = `stream:${live.streamId}`;

    const before = await lookup(fan.client, live.streamId);
    expect(before.stream).toMatchObject({ tip_viewer_min_amount: 30, has_paid: false, tip_owed: 30, viewer_spend: { currency: 'CON', amount: 0 }, skip_paywall: false });

    const refused = await refusedJoin(fan.client, live.streamId);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ response: 'stream_payment_required', message: 'Tip 30 coins to watch this stream.', tip_owed: 30 });
    expect(JSON.stringify(refused.body)).not.toContain('m3u8');
    expect((await refusedJoin(t.client(), live.streamId)).status).toBe(402);

    const socket = await socketOf(fan.client);
    expect(await socket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'error', channel, code: 'stream_payment_required' });
    const sendId = `s-${newKey()}`;
    expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: 'let me in', id: sendId }))
      .toMatchObject({ op: 'error', id: sendId, code: 'stream_payment_required' });

    const partial = await tip(fan.client, live.streamId, 20);
    expect(partial).toMatchObject({ has_paid: false, viewer_spend: { amount: 20 } });
    expect((await refusedJoin(fan.client, live.streamId)).body.message).toBe('Tip 10 coins to watch this stream.');

    const rest = await tip(fan.client, live.streamId, 10);
    expect(rest).toMatchObject({ has_paid: true, viewer_spend: { currency: 'CON', amount: 30 } });
    const joined = await join(fan.client, live.streamId);
    expect(joined.url.hls).toContain('m3u8');
    expect(joined.stream).toMatchObject({ has_paid: true, tip_owed: 0, viewer_spend: { amount: 30 } });
    expect(await socket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed', channel });

    // The owner is never asked to pay.
    const own = await join(live.client, live.streamId);
    expect(own.stream).toMatchObject({ skip_paywall: true });
  });

  it('lets admins and holders of GRANT PERMISSION, UPDATE STREAM_ANY or ALLOW REPORT_STREAM_HIDE past the wall', async () => {
    const live = await t.given.liveStream();
    await setPrice(live.client, live.streamId, 100);
    const privileged = [
      await viewer(0, { role: 'admin' }),
      await viewer(0, { perms: [...DEFAULT_PERMISSIONS, 'GRANT PERMISSION'] }),
      await viewer(0, { perms: [...DEFAULT_PERMISSIONS, 'UPDATE STREAM_ANY'] }),
      await viewer(0, { perms: [...DEFAULT_PERMISSIONS, 'ALLOW REPORT_STREAM_HIDE'] }),
    ];
    for (const { client } of privileged) {
      const res = await join(client, live.streamId);
      expect(res.stream).toMatchObject({ skip_paywall: true, tip_owed: 100 });
      const socket = await socketOf(client);
      expect(await socket.request({ op: 'subscribe', channel: `stream:${live.streamId}` })).toMatchObject({ op: 'subscribed' });
    }
  });

  it('publishes TIP-ENFORCE when the price changes and takes unpaid viewers off the channel', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const fan = await viewer(100);
    const payer = await viewer(100);
    const fanSocket = await socketOf(fan.client);
    const ownerSocket = await socketOf(live.client);
    expect(await fanSocket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    expect(await ownerSocket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    await tip(payer.client, live.streamId, 20);
    await ownerSocket.message('TIP');
    await fanSocket.message('TIP');

    await setPrice(live.client, live.streamId, 20);
    const enforce = await ownerSocket.message('TIP-ENFORCE');
    expect(enforce.message).toMatchObject({ type: 'TIP-ENFORCE', data: { tip_viewer_min_amount: 20 } });
    // The unpaid viewer's socket no longer gets the stream's messages; the payer may subscribe.
    const payerSocket = await socketOf(payer.client);
    expect(await payerSocket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    // The unpaid socket is told why it left the channel.
    expect(await fanSocket.next((f) => f.op === 'error' && f.channel === channel)).toMatchObject({ code: 'stream_payment_required', message: 'Tip 20 coins to watch this stream.' });
    await tip(payer.client, live.streamId, 5);
    await ownerSocket.message('TIP');
    await expect(fanSocket.next((f) => f.op === 'message' && (f.message as { type: string }).type === 'TIP', 500)).rejects.toThrow(/no matching frame/);

    // Saving the same price again says nothing.
    await setPrice(live.client, live.streamId, 20);
    await expect(ownerSocket.message('TIP-ENFORCE', 300)).rejects.toThrow(/no matching frame/);
  });
});

describe('supporters and earnings', () => {
  it('lists a stream’s top tippers, most coins first, with short amounts', async () => {
    const live = await t.given.liveStream();
    const [a, b, c] = [await viewer(5000), await viewer(5000), await viewer(5000)];
    await tip(a.client, live.streamId, 200);
    await tip(b.client, live.streamId, 1000);
    await tip(b.client, live.streamId, 200);
    await tip(c.client, live.streamId, 5);
    await tip(c.client, live.streamId, 5);
    const res = await t.client().call(streamSupporters, { id: live.streamId });
    expect(res.supporters).toEqual([
      { user_id: b.user.id, name: b.user.username, avatar: null, amt: 1200, amtFormatted: '1.2k' },
      { user_id: a.user.id, name: a.user.username, avatar: null, amt: 200, amtFormatted: '200' },
      { user_id: c.user.id, name: c.user.username, avatar: null, amt: 10, amtFormatted: '10' },
    ]);
    expect((await t.client().call(streamSupporters, { id: live.streamId, limit: 1 })).supporters).toHaveLength(1);
    const empty = await t.given.liveStream();
    expect((await t.client().call(streamSupporters, { id: empty.streamId })).supporters).toEqual([]);
  });

  it('answers earning details to GRANT PERMISSION holders and admins only', async () => {
    const live = await t.given.liveStream();
    const fan = await viewer(5000);
    await tip(fan.client, live.streamId, 100);
    await tip(fan.client, live.streamId, 500);
    await tip(fan.client, live.streamId, 50);
    await t.given.coins(live.user.id, 30);
    const other = await t.given.liveStream();
    await tip(live.client, other.streamId, 30);

    const moderator = await viewer(0, { perms: [...DEFAULT_PERMISSIONS, 'GRANT PERMISSION'] });
    const res = await moderator.client.call(userEarningDetails, { id: live.user.id });
    expect(res).toMatchObject({ response: 'success', totalEarnings: 520, totalMonthlyEarnings: 520 });
    for (const field of ['accountCreated', 'lastStreamDate', 'maxTipReceivedDate', 'maxTipSentDate'] as const) {
      expect(Number.isNaN(Date.parse(res[field] ?? 'x')), field).toBe(false);
    }
    const fanDetails = await (await viewer(0, { role: 'admin' })).client.call(userEarningDetails, { id: fan.user.id });
    expect(fanDetails).toMatchObject({ totalEarnings: 0, maxTipReceivedDate: null, lastStreamDate: null });
    expect(fanDetails.maxTipSentDate).not.toBeNull();

    const details = (client: HttpSession, id: number) => client.refusal(userEarningDetails, { id });
    expect((await details(fan.client, live.user.id)).status).toBe(403);
    expect((await details(live.client, live.user.id)).status).toBe(403);
    expect((await details(t.client(), live.user.id)).status).toBe(401);
    expect((await details(moderator.client, 999_999_999)).status).toBe(404);
  });
});
