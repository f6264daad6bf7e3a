/**
 * Notifications through the real parts: a go-live fanned out to followers as their preferences say and
 * at most once an hour per broadcaster, the bell's frames over the realtime gateway, mail in the outbox
 * with a signed unsubscribe link that works signed out, Web Push to a push service (decrypted as a
 * browser would), and the other sources (new follower, tip).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { userChannelOf } from '../../../common/realtime';
import { listMail } from '../../platform/mail/outbox';
import { eventually } from '../../testing/eventually';
import type { SignedInUser, TestUser } from '../../testing/harness';
import { useListeningTestApp } from '../../testing/listening-app';
import { LocalPushService } from '../../testing/push-service';
import { HttpSession } from '../../testing/http-session';
import { paidCallFee } from '../../testing/paid-call';
import { publishImagePost } from '../../testing/uploads';

const pushService = new LocalPushService();
beforeAll(async () => {
  await pushService.start();
});
afterAll(() => pushService.close());

const served = useListeningTestApp(undefined, () => ({ PUSH_SERVICE_HOSTS: `fcm.googleapis.com,${pushService.host}` }));

interface Item { id: number; kind: string; text: string; link: string; read: boolean; actor: { id: number; username: string } | null }

const listOf = async (who: SignedInUser, query: Record<string, number> = {}) => {
  const res = await who.client.get('/api/user/notifications', query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { notifications: Item[]; unread: number; has_more: boolean };
};
const runJobs = () => served.t.app.services.notifications.runJobs();
const db = () => served.t.resources.database.db;
const mailTo = (user: TestUser) => listMail(db(), { to: user.email, limit: 20 });

/** A broadcaster with followers; each follower's preferences set by `prefs` (index → params). */
async function broadcasterWithFollowers(count: number) {
  const star = await served.t.given.signedInUser();
  const fans: SignedInUser[] = [];
  for (let i = 0; i < count; i += 1) fans.push(await served.t.given.follower(star.user));
  return { star, fans };
}

const endBroadcast = (streamId: number) =>
  served.t.app.services.broadcastCallbacks.onEnded({ streamId, broadcastId: 'b1', playlistKey: `media/${streamId}/b1/index.m3u8`, lengthSeconds: 30 });

describe('going live', () => {
  it('notifies each follower who wants it, once an hour, in the bell at once and by mail with a signed unsubscribe link', async () => {
    const { star, fans } = await broadcasterWithFollowers(4);
    const [plain, bellOff, startOff, mailOff] = fans as [SignedInUser, SignedInUser, SignedInUser, SignedInUser];
    expect((await bellOff.client.post('/api/user/toggle-notification', { id: star.user.id, notify: false })).status).toBe(200);
    expect((await startOff.client.post('/api/user/update-user-preferences', { id: startOff.user.id, params: { notify_stream_start: false } })).status).toBe(200);
    expect((await mailOff.client.post('/api/user/update-user-preferences', { id: mailOff.user.id, params: { notify_via_email: false } })).status).toBe(200);
    const socket = await served.socketOf(plain);
    expect(await socket.request({ op: 'subscribe', channel: userChannelOf(plain.user.id) })).toMatchObject({ op: 'subscribed' });

    const live = await served.t.given.liveStream({ title: 'Evening set' }, star.user);
    const frame = await socket.message('NOTIFICATION', 10_000);
    expect(frame.message).toMatchObject({
      data: { unread: 1, notification: { kind: 'stream_live', text: `${star.user.username} is live: Evening set`, link: `/streams/stream-view?id=${live.streamId}`, read: false } },
    });
    await runJobs();

    const seen = (await listOf(plain)).notifications;
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'stream_live', actor: { id: star.user.id, username: star.user.username } });
    expect((await listOf(bellOff)).notifications).toEqual([]);
    expect((await listOf(startOff)).notifications).toEqual([]);
    expect((await listOf(mailOff)).notifications.map((n) => n.kind)).toEqual(['stream_live']);

    const mail = await eventually(() => mailTo(plain.user), (found) => found.length > 0);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toMatch(new RegExp(`^${star.user.username} is live: Evening set`));
    expect(mail[0]!.text).toContain(`/streams/stream-view?id=${live.streamId}`);
    expect(await mailTo(mailOff.user)).toEqual([]);
    expect(await mailTo(bellOff.user)).toEqual([]);

    // The broadcaster ends and goes live again within the hour: nobody is told twice.
    await endBroadcast(live.streamId);
    const again = await served.t.given.liveStream({ title: 'Second set' }, star.user);
    expect(again.streamId).not.toBe(live.streamId);
    await runJobs();
    expect((await listOf(plain)).notifications).toHaveLength(1);
    expect(await mailTo(plain.user)).toHaveLength(1);

    // The mail's link turns e-mail off without signing in; a tampered one is refused.
    const link = new URL(/http\S+\/user\/notifications\/email\?\S+/.exec(mail[0]!.text)![0]);
    const id = link.searchParams.get('id')!;
    const token = link.searchParams.get('token')!;
    const stranger = served.t.client();
    expect((await stranger.get('/api/user/email-notifications', { id, token })).body).toMatchObject({ notify_via_email: true });
    const tampered = await stranger.post('/api/user/email-notifications', { id: Number(id), token: `${token.slice(0, -1)}x`, notify_via_email: false });
    expect([tampered.status, tampered.body.message]).toEqual([404, MSG.linkInvalid]);
    const off = await stranger.post('/api/user/email-notifications', { id: Number(id), token, notify_via_email: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const other = await served.t.given.signedInUser();
    await served.t.given.follower(plain.user, other);
    await runJobs();
    expect((await listOf(plain)).notifications.map((n) => n.kind)).toEqual(['new_follower', 'stream_live']);
    expect(await mailTo(plain.user)).toHaveLength(1);
  });

  it('does not make the go-live wait for the followers: the fan-out is queued and done in batches by the job', async () => {
    const { star, fans } = await broadcasterWithFollowers(7);
    const live = await served.t.given.liveStream({}, star.user);
    await runJobs();
    const [row] = (await db().execute<{ cursor: string; done: boolean }>(sql`
      select cursor, done_at is not null as done from notification_fanouts where source_key = ${`stream_live:${live.streamId}`}`)).rows;
    expect(row).toMatchObject({ cursor: String(Math.max(...fans.map((f) => f.user.id))), done: true });
    for (const fan of fans) expect((await listOf(fan)).unread).toBe(1);
  });
});

describe('the bell', () => {
  it('lists newest first in pages, marks read (only the caller’s own), and tells the other pages the count', async () => {
    const me = await served.t.given.signedInUser();
    for (let i = 0; i < 3; i += 1) await served.t.given.follower(me.user);
    await runJobs(); // the follows' notices follow from the event outbox
    const first = await listOf(me, { limit: 2 });
    expect([first.notifications.length, first.unread, first.has_more]).toEqual([2, 3, true]);
    const rest = await listOf(me, { limit: 2, before: first.notifications[1]!.id });
    expect([rest.notifications.length, rest.has_more]).toEqual([1, false]);
    expect(first.notifications.every((n) => n.kind === 'new_follower' && n.link === `/u/${n.actor!.id}`)).toBe(true);

    const someoneElse = await served.t.given.signedInUser();
    await served.t.given.follower(someoneElse.user);
    await runJobs();
    const theirs = (await listOf(someoneElse)).notifications[0]!.id;
    const socket = await served.socketOf(me);
    await socket.request({ op: 'subscribe', channel: userChannelOf(me.user.id) });
    const read = await me.client.post('/api/user/notifications-read', { ids: [first.notifications[0]!.id, theirs] });
    expect(read.body).toMatchObject({ unread: 2 });
    expect((await socket.message('NOTIFICATION')).message).toEqual({ type: 'NOTIFICATION', data: { unread: 2 } });
    expect((await listOf(someoneElse)).unread).toBe(1);
    expect((await me.client.post('/api/user/notifications-read', { all: true })).body).toMatchObject({ unread: 0 });
    expect((await listOf(me)).notifications.every((n) => n.read)).toBe(true);
  });

  it('refuses bad input with the reason', async () => {
    const me = await served.t.given.signedInUser();
    for (const body of [{}, { ids: [] }, { ids: 'all' }, { all: false }, { ids: Array.from({ length: 101 }, (_, i) => i + 1) }]) {
      const res = await me.client.post('/api/user/notifications-read', body);
      expect([res.status, res.body.message], JSON.stringify(body)).toEqual([400, MSG.notificationIds]);
    }
    expect((await me.client.get('/api/user/notifications', { limit: 51 })).status).toBe(400);
    expect((await me.client.get('/api/user/notifications', { before: 'x' })).status).toBe(400);
    expect((await served.t.client().get('/api/user/notifications')).status).toBe(401);
  });

  it('tells a broadcaster of each tip, in the bell and not by mail; a new follower once an hour however often they re-follow', async () => {
    const live = await served.t.given.liveStream();
    const tipper = await served.t.given.signedInUser();
    await served.t.given.coins(tipper.user, 100);
    const tip = await tipper.client.request('POST', '/api/streams/send-tip', { body: { stream_id: live.streamId, amount: 10 }, headers: { 'idempotency-key': `n-tip-${process.pid}` } });
    expect(tip.status, JSON.stringify(tip.body)).toBe(200);
    // A tip's notice is written with the others of its burst, a moment after the tip.
    await eventually(async () => (await listOf(live)).notifications.length, (n) => n === 1);
    for (let i = 0; i < 3; i += 1) {
      await tipper.client.post('/api/user/toggle-following', { id: live.user.id, isFollowing: true });
      await tipper.client.post('/api/user/toggle-following', { id: live.user.id, isFollowing: false });
    }
    await runJobs();
    const seen = (await listOf(live)).notifications;
    expect(seen.map((n) => [n.kind, n.text])).toEqual([
      ['new_follower', `${tipper.user.username} started following you`],
      ['tip_received', `${tipper.user.username} tipped you 10 Coins`],
    ]);
    expect((await mailTo(live.user)).map((m) => m.subject)).toEqual([`${tipper.user.username} started following you`]);
  });

  it('tells a creator of a new subscriber, a post sold, a comment, a paid call guest and a toy bought, once each; the balance reaches their pages', async () => {
    const creator = await served.t.given.signedInUser();
    const creatorWeb = await HttpSession.at(served.baseUrl).signIn(creator.user.username, creator.user.password);
    const fan = await served.t.given.follower(creator.user);
    await served.t.given.coins(fan.user, 5_000);
    const socket = await served.socketOf(creator);
    expect(await socket.request({ op: 'subscribe', channel: userChannelOf(creator.user.id) })).toMatchObject({ op: 'subscribed' });
    const balanceFrame = (con: number) => socket.next((f) => f.op === 'message' && (f.message as { type: string; balance?: { CON: number } }).type === 'BALANCE'
      && (f.message as { balance: { CON: number } }).balance.CON === con);
    const conOf = async () => (await served.t.app.services.ledger.balances(creator.user.id)).CON;
    const idem = (name: string) => ({ 'idempotency-key': `sales-${name}-${creator.user.id}` });

    // A subscription to the creator's plan.
    const templates = (await creator.client.get('/api/subscription/plan-template')).body.templates as Array<{ template_id: number; name: string; prices: Array<{ price: number }> }>;
    const template = templates[0]!;
    const plan = await creator.client.post('/api/subscription/plan-add', { template_id: template.template_id, price: template.prices[0]!.price, currency: 'CON' });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const planId = (plan.body.plan as { plan_id: number }).plan_id;
    const subscribed = await fan.client.request('POST', '/api/subscription/subscribe', { body: { plan_id: planId, user_id: creator.user.id, auto_renew: false }, headers: idem('subscribe') });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    expect(await balanceFrame(await conOf())).toBeTruthy();

    // A paid post bought, then commented on twice (one notice an hour per commenter).
    const postId = await publishImagePost(creatorWeb, { tip: 100, title: 'Sunset set' });
    expect((await fan.client.post('/api/post/purchase', { post_id: postId })).status).toBe(200);
    expect(await balanceFrame(await conOf())).toBeTruthy();
    for (const body of ['Lovely light', 'Where was this?']) expect((await fan.client.post('/api/post/create-comment', { post_id: postId, body })).status).toBe(200);
    // The creator's own comment tells nobody.
    expect((await creator.client.post('/api/post/create-comment', { post_id: postId, body: 'Thank you!' })).status).toBe(200);

    // A video call's fee, paid by an invited guest.
    const meetingId = await paidCallFee(creator, fan, 300, idem('meeting')['idempotency-key']);
    expect(await balanceFrame(await conOf())).toBeTruthy();

    // Control of the creator's toy in the call, bought for 50.
    expect((await creator.client.post('/api/user/lovense-device', { connected: true })).status).toBe(200);
    const room = { room: 'meeting', stream_id: meetingId };
    const asked = await creator.client.request('POST', '/api/user/lovense-action', { body: { event: 'GET_QR_CODE', ...room, viewer_id: fan.user.id, tip_amount: 50 } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const bought = await fan.client.request('POST', '/api/user/lovense-action', { body: { event: 'PAID_TIP_SUCCESS', ...room, tip_amount: 50 }, headers: idem('toy') });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(await balanceFrame(await conOf())).toBeTruthy();

    // A tip on the creator's stream moves the top bar too.
    const live = await served.t.given.liveStream({}, creator.user);
    const tip = await fan.client.request('POST', '/api/streams/send-tip', { body: { stream_id: live.streamId, amount: 10 }, headers: idem('tip') });
    expect(tip.status, JSON.stringify(tip.body)).toBe(200);
    expect(await balanceFrame(await conOf())).toBeTruthy();

    await runJobs();
    const name = fan.user.username;
    const expected = [
      ['tip_received', `${name} tipped you 10 Coins`],
      ['toy_purchased', `${name} paid 50 Coins for control of your toy`],
      ['meeting_paid', `${name} paid 300 Coins to join your video call "Evening call"`],
      ['post_comment', `${name} commented on your post "Sunset set"`],
      ['post_purchased', `${name} bought your post "Sunset set" for 100 Coins`],
      ['new_subscriber', `${name} subscribed to you (${template.name}, ${template.prices[0]!.price} Coins)`],
      ['new_follower', `${name} started following you`],
    ];
    const kinds = async () => (await listOf(creator)).notifications.map((n) => [n.kind, n.text]);
    // Once each; their order is the order the outbox delivered them, which the test does not fix.
    const byText = (list: unknown[][]) => [...list].sort((a, b) => String(a).localeCompare(String(b)));
    expect(byText(await eventually(kinds, (seen) => seen.length >= expected.length))).toEqual(byText(expected));
    const links = (await listOf(creator)).notifications.map((n) => n.link);
    expect(links).toContain(`/post/post-view?id=${postId}`);
    expect(links).toContain(`/streams/meeting-view?id=${meetingId}`);
    // A new subscriber is mailed as well; the sales are in the bell and on the phone only.
    expect((await mailTo(creator.user)).map((m) => m.subject)).toContain(`${name} subscribed to you (${template.name}, ${template.prices[0]!.price} Coins)`);
  });
});

describe('Web Push', () => {
  it('sends to each subscribed browser, encrypted for it, and forgets a subscription the service says is gone', async () => {
    const me = await served.t.given.signedInUser();
    const key = await me.client.get('/api/user/push-key');
    expect(key.body.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const phone = pushService.subscription();
    const laptop = pushService.subscription();
    for (const browser of [phone, laptop]) expect((await me.client.post('/api/user/push-subscribe', browser)).body).toMatchObject({ subscribed: true });

    const fan = await served.t.given.follower(me.user);
    await runJobs();
    await eventually(async () => pushService.to(phone.endpoint).length + pushService.to(laptop.endpoint).length, (n) => n === 2);
    const [push] = pushService.to(phone.endpoint);
    expect(push!.payload).toMatchObject({ title: 'Limelight', body: `${fan.user.username} started following you`, url: expect.stringMatching(new RegExp(`/u/${fan.user.id}$`)) });
    expect(push!.headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '86400', topic: expect.stringMatching(/^n\d+$/) });
    expect(push!.headers.authorization).toMatch(new RegExp(`^vapid t=.+, k=${key.body.public_key}$`));

    pushService.answer.set(new URL(laptop.endpoint).pathname, 410);
    await served.t.given.follower(me.user);
    await runJobs();
    await eventually(async () => pushService.to(phone.endpoint).length, (n) => n === 2);
    const left = await db().execute<{ endpoint: string }>(sql`select endpoint from push_subscriptions where user_id = ${me.user.id}`);
    expect(left.rows.map((r) => r.endpoint)).toEqual([phone.endpoint]);

    expect((await me.client.post('/api/user/push-unsubscribe', { endpoint: phone.endpoint })).body).toMatchObject({ subscribed: false });
    expect((await db().execute(sql`select 1 from push_subscriptions where user_id = ${me.user.id}`)).rows).toHaveLength(0);
  });

  it('keeps an endpoint with the person who registered it: another account presenting it is refused and takes nothing', async () => {
    const me = await served.t.given.signedInUser();
    const other = await served.t.given.signedInUser();
    const browser = pushService.subscription();
    expect((await me.client.post('/api/user/push-subscribe', browser)).status).toBe(200);
    const stolen = await other.client.post('/api/user/push-subscribe', { ...browser, keys: pushService.subscription().keys });
    expect([stolen.status, stolen.body.message]).toEqual([409, MSG.pushEndpointTaken]);
    const kept = await db().execute<{ user_id: number; p256dh: string }>(sql`select user_id, p256dh from push_subscriptions where endpoint = ${browser.endpoint}`);
    expect(kept.rows.map((r) => [Number(r.user_id), r.p256dh])).toEqual([[me.user.id, browser.keys.p256dh]]);
    // Its owner may send it again (new keys after the browser renewed them).
    const renewed = { ...browser, keys: pushService.subscription().keys };
    expect((await me.client.post('/api/user/push-subscribe', renewed)).status).toBe(200);
    const after = await db().execute<{ p256dh: string }>(sql`select p256dh from push_subscriptions where endpoint = ${browser.endpoint}`);
    expect(after.rows.map((r) => r.p256dh)).toEqual([renewed.keys.p256dh]);
  });

  it('refuses push services outside the list and malformed subscriptions', async () => {
    const me = await served.t.given.signedInUser();
    const valid = pushService.subscription();
    for (const endpoint of ['http://169.254.169.254/latest/meta-data', 'https://evil.example/push', `http://${pushService.host.replace(/:\d+$/, ':1')}/x`]) {
      const res = await me.client.post('/api/user/push-subscribe', { ...valid, endpoint });
      expect([res.status, res.body.message], endpoint).toEqual([403, MSG.pushServiceRefused]);
    }
    const badKeys = await me.client.post('/api/user/push-subscribe', { ...valid, keys: { p256dh: 'short', auth: valid.keys.auth } });
    expect([badKeys.status, badKeys.body.message]).toEqual([400, MSG.pushKeys]);
    const notUrl = await me.client.post('/api/user/push-subscribe', { ...valid, endpoint: 'javascript:alert(1)' });
    expect([notUrl.status, notUrl.body.message]).toEqual([400, MSG.pushEndpoint]);
  });
});
