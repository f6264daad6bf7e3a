/** What a subscription gives where it applies: pay wall and its discount, playback, chat, priority chat, audience, profiles. */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/subscriptions';
import type { StreamInfo } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { subscriberMinimum } from '../../../common/rules/plans';
import type { SignedInUser } from '../../testing/harness';
import { useListeningTestApp } from '../../testing/listening-app';
import { minimumSql } from '../streams';
import { subscriptions } from './tables';

const served = useListeningTestApp();
const { socketOf } = served;
afterEach(() => served.closeSockets());

const db = () => served.t.resources.database.db;

/** A creator live with a paid stream (the viewer minimum given) and a plan of the template. */
async function paidCreator(template: 'Fan' | 'Supporter' | 'VIP', minimum = 100, info: Record<string, unknown> = {}) {
  const live = await served.t.given.liveStream({ tip_viewer_min_amount: minimum, ...info });
  const templates = (await live.client.send(api.planTemplates, {})).body.templates as api.PlanTemplate[];
  const chosen = templates.find((x) => x.name === template)!;
  const added = await live.client.post(api.planAdd.path, { template_id: chosen.template_id, price: chosen.prices[0]!.price, currency: 'CON' });
  return { ...live, planId: (added.body.plan as api.Plan).plan_id, price: chosen.prices[0]!.price };
}

async function subscriberOf(creator: Awaited<ReturnType<typeof paidCreator>>, extraCoins = 0) {
  const fan = await served.t.given.signedInUser();
  await served.t.given.coins(fan.user, creator.price + extraCoins);
  const res = await fan.client.request('POST', api.subscribe.path, {
    body: { plan_id: creator.planId, user_id: creator.user.id }, headers: { 'idempotency-key': randomUUID() },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...fan, subscriptionId: (res.body.subscription as api.Subscription).subscription_id };
}

const lookup = async (who: SignedInUser, streamId: number) =>
  (await who.client.get('/api/streams/stream-lookup', { id: streamId })).body.stream as StreamInfo;
const join = (who: SignedInUser, streamId: number) => who.client.post('/api/streams/stream-join', { stream_id: streamId });
const tip = (who: SignedInUser, streamId: number, amount: number) =>
  who.client.request('POST', '/api/streams/send-tip', { body: { stream_id: streamId, amount }, headers: { 'idempotency-key': randomUUID() } });

describe('the pay wall for subscribers', () => {
  it('takes the plan\'s discount off what a subscriber owes, and a tip of that lifts the wall', async () => {
    const creator = await paidCreator('Supporter', 250);
    const fan = await subscriberOf(creator, 200);
    const info = await lookup(fan, creator.streamId);
    expect(info).toMatchObject({ subscribed: true, tip_subscriber_discount: 0.5, tip_subscriber_min_amount: 130, tip_owed: 130, has_paid: false, skip_paywall: false, no_ads: false });
    const refused = await join(fan, creator.streamId);
    expect(refused.status).toBe(402);
    expect(refused.body.tip_owed).toBe(130);
    const paid = await tip(fan, creator.streamId, 130);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ has_paid: true, viewer_spend: { amount: 130 } });
    expect((await join(fan, creator.streamId)).status).toBe(200);

    const plain = await served.t.given.signedInUser();
    expect(await lookup(plain, creator.streamId)).toMatchObject({ subscribed: false, tip_subscriber_discount: 0, tip_subscriber_min_amount: 250, tip_owed: 250 });
  });

  it('lets a no-paywall subscriber watch, play and chat on a paid stream without tipping', async () => {
    const creator = await paidCreator('VIP', 100);
    const fan = await subscriberOf(creator);
    expect(await lookup(fan, creator.streamId)).toMatchObject({ subscribed: true, skip_paywall: true, tip_owed: 0, has_paid: true, tip_subscriber_min_amount: 0, no_ads: true });
    const joined = await join(fan, creator.streamId);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect((joined.body.url as { hls: string }).hls).toMatch(/^\/media\/hls\/\d+\/[\w.-]+\/index\.m3u8$/);
    const socket = await socketOf(fan);
    expect(await socket.request({ op: 'subscribe', channel: `stream:${creator.streamId}` })).toMatchObject({ op: 'subscribed' });
    expect(await socket.request({ op: 'send', channel: `stream:${creator.streamId}`, type: 'COMMENT', text: 'no wall for me', id: 'c1' })).toEqual({ op: 'ack', id: 'c1' });

    const plain = await served.t.given.signedInUser();
    expect((await join(plain, creator.streamId)).status).toBe(402);
  });

  it('gives nothing once the paid period is over, and keeps giving to a cancelled one until then', async () => {
    const creator = await paidCreator('VIP', 100);
    const fan = await subscriberOf(creator);
    expect((await fan.client.post(api.cancelSubscription.path, { id: fan.subscriptionId })).status).toBe(200);
    expect((await join(fan, creator.streamId)).status).toBe(200);
    await db().update(subscriptions).set({ endDate: new Date(Date.now() - 1000) }).where(eq(subscriptions.id, fan.subscriptionId));
    expect(await lookup(fan, creator.streamId)).toMatchObject({ subscribed: false, skip_paywall: false, tip_owed: 100 });
    expect((await join(fan, creator.streamId)).status).toBe(402);
  });

  it('computes a subscriber\'s minimum in SQL (the one-statement tip) exactly as the rule does', async () => {
    const creator = await paidCreator('Supporter', 100);
    const fan = await subscriberOf(creator);
    for (const discount of [0, 0.1, 0.25, 1 / 3, 0.5, 0.75, 0.99, 1]) {
      await db().update(subscriptions).set({ benefits: { priority_chat: true, no_paywall: false, no_ads: false, discount } }).where(eq(subscriptions.id, fan.subscriptionId));
      for (const minimum of [10, 100, 250, 990, 1000]) {
        await db().execute(sql`update streams set tip_viewer_min_amount = ${minimum} where id = ${creator.streamId}`);
        const result = await db().execute(sql`select (${minimumSql(creator.streamId, fan.user.id)}) as n`);
        expect(Number((result.rows[0] as { n: number | string }).n), `${minimum} less ${discount}`).toBe(subscriberMinimum(minimum, discount));
      }
    }
    const plain = await served.t.given.signedInUser();
    const result = await db().execute(sql`select (${minimumSql(creator.streamId, plain.user.id)}) as n`);
    expect(Number((result.rows[0] as { n: number | string }).n)).toBe(1000);
  });
});

describe('priority chat and audiences', () => {
  it('opens the priority chat to subscribers whose plan gives it, not to other viewers', async () => {
    const creator = await paidCreator('Fan', 0);
    const fan = await subscriberOf(creator);
    const priority = `stream:${creator.streamId}:priority`;
    expect(await lookup(fan, creator.streamId)).toMatchObject({ priority_chat: true, subscribed: true });
    const socket = await socketOf(fan);
    expect(await socket.request({ op: 'subscribe', channel: priority })).toMatchObject({ op: 'subscribed' });
    expect(await socket.request({ op: 'send', channel: priority, type: 'COMMENT', text: 'first in line', id: 'p1' })).toEqual({ op: 'ack', id: 'p1' });
    expect(await socket.message('COMMENT')).toMatchObject({ channel: priority, message: { text: 'first in line', sender: { is_priority: true, is_owner: false } } });

    const plain = await served.t.given.signedInUser();
    expect(await lookup(plain, creator.streamId)).toMatchObject({ priority_chat: false });
    const other = await socketOf(plain);
    expect(await other.request({ op: 'subscribe', channel: priority })).toMatchObject({ op: 'error', code: 'forbidden', message: MSG.priorityChatOnly });
    expect(await other.request({ op: 'send', channel: priority, type: 'COMMENT', text: 'sneaky', id: 'p2' })).toMatchObject({ op: 'error', code: 'forbidden' });

    // A subscription without priority chat does not open it.
    await db().update(subscriptions).set({ benefits: { priority_chat: false, no_paywall: false, no_ads: false, discount: 0.5 } }).where(eq(subscriptions.id, fan.subscriptionId));
    const again = await socketOf(fan);
    expect(await again.request({ op: 'subscribe', channel: priority })).toMatchObject({ op: 'error', code: 'forbidden' });
  });

  it('shows a subscribers-only stream to subscribers alone', async () => {
    const creator = await paidCreator('Fan', 0, { audience: 'SUBSCRIBERS' });
    const fan = await subscriberOf(creator);
    expect((await join(fan, creator.streamId)).status).toBe(200);
    const plain = await served.t.given.signedInUser();
    const refused = await join(plain, creator.streamId);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MSG.streamSubscribersOnly);
  });

  it('tells a profile\'s visitor whether they are subscribed and may subscribe', async () => {
    const creator = await paidCreator('Fan', 0);
    const fan = await subscriberOf(creator);
    const plain = await served.t.given.signedInUser();
    const profile = async (who: SignedInUser | null) =>
      (await (who ? who.client : served.t.client()).get('/api/user/user-lookup', { id: creator.user.id })).body.user as { subscribed: boolean; can_subscribe: boolean };
    expect(await profile(fan)).toMatchObject({ subscribed: true, can_subscribe: false });
    expect(await profile(plain)).toMatchObject({ subscribed: false, can_subscribe: true });
    expect(await profile(null)).toMatchObject({ subscribed: false, can_subscribe: false });
    expect(await profile(creator)).toMatchObject({ subscribed: false, can_subscribe: false });
    const noPlans = await served.t.given.signedInUser();
    expect((await plain.client.get('/api/user/user-lookup', { id: noPlans.user.id })).body.user).toMatchObject({ can_subscribe: false });
  });
});
