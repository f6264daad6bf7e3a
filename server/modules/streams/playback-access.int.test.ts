/**
 * Playback addresses bound to the viewer's session, re-checked on every playlist and segment, and
 * stream-join counted and limited by the caller's address (decision 0039).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as subscriptionsApi from '../../../common/api/subscriptions';
import { MSG } from '../../../common/messages';
import { eventOutbox } from '../../platform/db/platform-tables';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { segmentPath } from '../../testing/hls';

let t: TestApp;
beforeAll(async () => {
  // One proxy in front: each test speaks from its own address, as the proxy writes it.
  t = await startTestApp({ TRUST_PROXY: 'on', STREAM_JOINS_PER_ADDRESS: '45' });
});
afterAll(() => t.close());

const from = (address: string, headers: Record<string, string> = {}) => t.client({ 'x-forwarded-for': address, ...headers });

/** Joins as `client` and fetches the playlist: answers the playlist's and its first segment's addresses. */
async function play(streamId: number, client: HttpSession) {
  await t.resources.files.put(`media/${streamId}/b1/index.m3u8`, '#EXTM3U\n#EXTINF:1.0,\nseg_00000.ts\n#EXTINF:1.0,\nseg_00001.ts\n');
  await t.resources.files.put(`media/${streamId}/b1/seg_00000.ts`, Buffer.alloc(188, 0x47));
  const join = await client.post('/api/streams/stream-join', { stream_id: streamId });
  expect(join.status, JSON.stringify(join.body)).toBe(200);
  const playlist = (join.body.url as { hls: string }).hls;
  const listed = await client.request('GET', playlist);
  expect(listed.status).toBe(200);
  const segment = segmentPath(playlist, listed.body, 'seg_00000.');
  expect(segment).toBeDefined();
  expect((await client.request('GET', segment!)).status).toBe(200);
  return { playlist, segment: segment! };
}

const status = async (client: HttpSession, url: string) => (await client.request('GET', url)).status;

describe('playback addresses', () => {
  it('play only in the session they were made for: a copy in the same user\'s other session, another user or a guest is refused', async () => {
    const { streamId } = await t.given.liveStream();
    const alice = await t.given.user();
    const [first, second] = [await t.given.signedIn(alice), await t.given.signedIn(alice)];
    const { playlist, segment } = await play(streamId, first);
    for (const other of [second, await t.given.signedIn(await t.given.user()), t.client()]) {
      expect(await status(other, playlist)).toBe(403);
      expect(await status(other, segment)).toBe(403);
    }
    expect(await status(first, segment)).toBe(200);

    // A guest's address is the browser's: the same address and User-Agent without its cookie cannot use it.
    const guest = from('198.51.100.20', { 'user-agent': 'same-browser' });
    const guestPlay = await play(streamId, guest);
    const copy = from('198.51.100.20', { 'user-agent': 'same-browser' });
    expect(await status(copy, guestPlay.playlist)).toBe(403);
    expect(await status(copy, guestPlay.segment)).toBe(403);
  });

  it('stop serving segments as well as the playlist at once after a ban or a price the viewer has not paid', async () => {
    const live = await t.given.liveStream();
    const banned = await t.given.signedInUser();
    const other = await t.given.signedInUser();
    const bannedPlay = await play(live.streamId, banned.client);
    const otherPlay = await play(live.streamId, other.client);

    expect((await live.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: banned.user.id })).status).toBe(200);
    expect(await status(banned.client, bannedPlay.segment)).toBe(403);
    expect(await status(banned.client, bannedPlay.playlist)).toBe(403);
    expect(await status(other.client, otherPlay.segment)).toBe(200);

    expect((await live.client.post('/api/streams/update-stream-info', { id: live.streamId, data: { tip_viewer_min_amount: 50 } })).status).toBe(200);
    expect(await status(other.client, otherPlay.segment)).toBe(403);
    expect(await status(other.client, otherPlay.playlist)).toBe(403);
  });

  it('stop serving a subscriber as soon as the subscription ends without renewal', async () => {
    const live = await t.given.liveStream({ audience: 'SUBSCRIBERS' });
    const templates = (await live.client.send(subscriptionsApi.planTemplates, {})).body.templates as subscriptionsApi.PlanTemplate[];
    const fan = templates.find((x) => x.name === 'Fan')!;
    const added = await live.client.post(subscriptionsApi.planAdd.path, { template_id: fan.template_id, price: fan.prices[0]!.price, currency: 'CON' });
    const subscriber = await t.given.signedInUser();
    await t.given.coins(subscriber.user, fan.prices[0]!.price);
    const subscribed = await subscriber.client.request('POST', subscriptionsApi.subscribe.path, {
      body: { plan_id: (added.body.plan as subscriptionsApi.Plan).plan_id, user_id: live.user.id },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    const { playlist, segment } = await play(live.streamId, subscriber.client);

    // The paid period is over and the renewal finds no coins: the benefits end, and so does the video.
    const subscriptionId = (subscribed.body.subscription as subscriptionsApi.Subscription).subscription_id;
    await t.resources.database.db.execute(sql`update subscriptions set end_date = now() - interval '1 second' where id = ${subscriptionId}`);
    expect(await t.app.services.renewals.renewDue(new Date())).toMatchObject({ failed: 1 });
    // The failed renewal's event is written with it and leaves through the outbox after the commit: once
    // none of the subscription's events waits (the subscribe's may have left already, or not), the gate has
    // forgotten the subscriber's kept decision (kept a few seconds, it would still say yes).
    const waiting = async () => (await t.resources.database.db.execute<{ n: number }>(sql`select count(*)::int as n from ${eventOutbox}
      where event = 'subscription.changed' and payload->>'subscriptionId' = ${String(subscriptionId)} and delivered_at is null`)).rows[0]?.n;
    await expect.poll(waiting, { timeout: 10_000, interval: 20 }).toBe(0);
    expect(await status(subscriber.client, segment)).toBe(403);
    expect(await status(subscriber.client, playlist)).toBe(403);
  });
});

describe('views and stream-join by address', () => {
  it('counts forty joins with forty User-Agents from one address as one view, and a signed-in viewer once', async () => {
    const { streamId } = await t.given.liveStream();
    for (let i = 0; i < 40; i++) {
      const res = await from('203.0.113.7', { 'user-agent': `browser-${i}` }).post('/api/streams/stream-join', { stream_id: streamId });
      expect(res.status).toBe(200);
    }
    // A forged left-most hop is not the address: the proxy's own entry is.
    expect((await from('6.6.6.6, 203.0.113.7').post('/api/streams/stream-join', { stream_id: streamId })).status).toBe(200);
    const lookup = async () => ((await t.client().get('/api/streams/stream-lookup', { id: streamId })).body.stream as { tviewers: number }).tviewers;
    expect(await lookup()).toBe(1);

    const viewer = await t.given.signedIn(await t.given.user());
    for (let i = 0; i < 3; i++) expect((await viewer.post('/api/streams/stream-join', { stream_id: streamId })).status).toBe(200);
    expect((await from('203.0.113.8').post('/api/streams/stream-join', { stream_id: streamId })).status).toBe(200);
    expect(await lookup()).toBe(3);
  });

  it('limits stream-join per address: a clear 429 with Retry-After, other addresses unaffected', async () => {
    const { streamId } = await t.given.liveStream();
    const join = (i: number) => from('203.0.113.50', { 'user-agent': `agent-${i}` }).post('/api/streams/stream-join', { stream_id: streamId });
    // The bucket holds 45 joins and refills 45 a minute: joining in a loop is refused long before 200.
    let joined = 0;
    let refused = await join(0);
    while (refused.status === 200 && joined < 200) {
      joined += 1;
      refused = await join(joined);
    }
    expect(joined).toBeGreaterThanOrEqual(45);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ response: 'rate_limited', message: MSG.tooManyRequests });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await from('203.0.113.51').post('/api/streams/stream-join', { stream_id: streamId })).status).toBe(200);
  });
});
