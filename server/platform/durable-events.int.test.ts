/**
 * Events whose loss matters (decision 0052): each is written with its change, so a handler that dies
 * before its effect — as a process killed between the commit and the handler — loses nothing: the next
 * delivery does the effect, exactly once, and a second delivery does nothing twice. The handler's death
 * is its table refusing writes (testing/outbox-faults.ts); the kill -9 itself is scripts/notifications-crash-test.ts.
 */
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually';
import { startTestApp, type SignedInUser, type TestApp } from '../testing/harness';
import { dueAgain, outboxRows, refusingWrites } from '../testing/outbox-faults';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const db = () => t.resources.database.db;
/** Every due event delivered on this instance, and what the notifications module does with them. */
const deliver = () => t.app.services.notifications.runJobs();
const count = async (query: SQL) => Number((await db().execute<{ n: string | number }>(query)).rows[0]!.n);
const notices = (userId: number, kind: string) => count(sql`select count(*) as n from notifications where user_id = ${userId} and kind = ${kind}`);

interface LostHandler<T> {
  /** The table the event's durable handler writes: refused while the change is made. */
  table: string;
  event: string;
  /** The event's rows, by their payload (`payload`). */
  rows: SQL;
  change: () => Promise<void>;
  effect: () => Promise<T>;
  /** The effect once the handler died. */
  lost: T;
  /** The effect once delivered, however often. */
  done: T;
}

async function survivesLostHandler<T>(o: LostHandler<T>) {
  const refusal = await refusingWrites(db(), o.table);
  try {
    await o.change();
    // Committed with its change; the handler died (the woken delivery failed): nothing done, the event waits.
    await eventually(() => outboxRows(db(), o.event, o.rows), (rows) => rows.length > 0 && rows.every((r) => !r.delivered && r.attempts >= 1));
  } finally {
    await refusal.heal();
  }
  expect(await o.effect()).toEqual(o.lost);
  // Its lease over, the event is delivered again: the effect, once.
  await dueAgain(db(), o.event, o.rows);
  await deliver();
  expect(await o.effect()).toEqual(o.done);
  expect((await outboxRows(db(), o.event, o.rows)).every((r) => r.delivered)).toBe(true);
  // Delivered once more (at least once means maybe twice): nothing twice.
  await dueAgain(db(), o.event, o.rows);
  await deliver();
  expect(await o.effect()).toEqual(o.done);
}

const idem = (name: string) => ({ 'idempotency-key': `durable-${name}-${process.pid}` });

describe('events written with their change', () => {
  it('tip.received: the broadcaster is told of a tip once, though the notice died after the tip committed', async () => {
    const live = await t.given.liveStream();
    const tipper = await t.given.signedInUser();
    await t.given.coins(tipper.user, 100);
    await survivesLostHandler({
      table: 'notifications',
      event: 'tip.received',
      rows: sql`(payload->>'ownerId')::bigint = ${live.user.id}`,
      change: async () => {
        const tip = await tipper.client.request('POST', '/api/streams/send-tip', { body: { stream_id: live.streamId, amount: 10 }, headers: idem('tip') });
        expect(tip.status, JSON.stringify(tip.body)).toBe(200);
      },
      effect: () => notices(live.user.id, 'tip_received'),
      lost: 0,
      done: 1,
    });
  });

  it('account.deleted: every module forgets the person, though a clean-up died after the deletion committed', async () => {
    const creator = await t.given.signedInUser();
    const leaving = await t.given.follower(creator.user);
    await t.given.follower(leaving.user, await t.given.signedInUser());
    await t.given.coins(leaving.user, 5_000);
    const subscriptionId = await subscribe(creator, leaving);
    const effect = async () => ({
      follows: await count(sql`select count(*) as n from follows where ${leaving.user.id} in (follower_id, followee_id)`),
      cancelled: await count(sql`select count(*) as n from subscription_history where subscription_id = ${subscriptionId} and category = 'CANCELLED'`),
    });
    expect(await effect()).toEqual({ follows: 2, cancelled: 0 });
    await survivesLostHandler({
      table: 'follows',
      event: 'account.deleted',
      rows: sql`(payload->>'userId')::bigint = ${leaving.user.id}`,
      change: async () => {
        const deleted = await leaving.client.post('/api/user/delete-account', { id: leaving.user.id, current_password: leaving.user.password });
        expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      },
      effect,
      // The other modules' handlers ran: the subscription ended once, whatever the redeliveries.
      lost: { follows: 2, cancelled: 1 },
      done: { follows: 0, cancelled: 1 },
    });
    // The subscription's end is an event of its own, written with it and delivered.
    const ended = sql`(payload->>'subscriptionId')::bigint = ${subscriptionId} and payload->>'reason' = 'cancelled'`;
    await deliver();
    expect(await outboxRows(db(), 'subscription.changed', ended)).toEqual([{ attempts: 1, delivered: true }]);
  }, 90_000);

  it('stream.went-live: the followers hear of the go-live once, though its fan-out died after the stream went live', async () => {
    const star = await t.given.signedInUser();
    const fan = await t.given.follower(star.user);
    let streamId = 0;
    await survivesLostHandler({
      table: 'notification_fanouts',
      event: 'stream.went-live',
      rows: sql`(payload->>'ownerId')::bigint = ${star.user.id}`,
      change: async () => {
        streamId = (await t.given.liveStream({}, star.user)).streamId;
      },
      effect: async () => ({
        queued: await count(sql`select count(*) as n from notification_fanouts where source_key = ${`stream_live:${streamId}`}`),
        told: await notices(fan.user.id, 'stream_live'),
      }),
      lost: { queued: 0, told: 0 },
      done: { queued: 1, told: 1 },
    });
  });

  it('meeting.invited: an invitee is told once, though the notice died after the call was created', async () => {
    const host = await t.given.signedInUser();
    const guest = await t.given.follower(host.user);
    await survivesLostHandler({
      table: 'notifications',
      event: 'meeting.invited',
      rows: sql`(payload->>'hostId')::bigint = ${host.user.id}`,
      change: async () => {
        const created = await host.client.post('/api/user/create-meeting', {
          audience: 'PRIVATE', audience_ids: String(guest.user.id), title: 'Durable call', start_time: new Date(Date.now() + 3_600_000).toISOString(),
          tip_rules: { currency: 'CON', viewer_min_amount: 100 },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
      },
      effect: () => notices(guest.user.id, 'meeting_invitation'),
      lost: 0,
      done: 1,
    });
  });

  it('social.followed: the followee is told of a new follower once, though the notice died after the follow', async () => {
    const star = await t.given.signedInUser();
    const fan = await t.given.signedInUser();
    await survivesLostHandler({
      table: 'notifications',
      event: 'social.followed',
      rows: sql`(payload->>'followeeId')::bigint = ${star.user.id}`,
      change: async () => void (await t.given.follower(star.user, fan)),
      effect: () => notices(star.user.id, 'new_follower'),
      lost: 0,
      done: 1,
    });
  });

  it('subscription.changed: a cancellation is written with it, or not at all', async () => {
    const creator = await t.given.signedInUser();
    const fan = await t.given.follower(creator.user);
    await t.given.coins(fan.user, 5_000);
    const subscriptionId = await subscribe(creator, fan);
    const change = (reason: string) => sql`(payload->>'subscriptionId')::bigint = ${subscriptionId} and payload->>'reason' = ${reason}`;
    expect(await outboxRows(db(), 'subscription.changed', change('subscribed'))).toHaveLength(1);
    // A cancellation whose history row is refused rolls back, its event with it.
    const refusal = await refusingWrites(db(), 'subscription_history');
    try {
      expect((await fan.client.post('/api/subscription/cancel-subscription', { id: subscriptionId })).status).not.toBe(200);
    } finally {
      await refusal.heal();
    }
    expect(await outboxRows(db(), 'subscription.changed', change('cancelled'))).toEqual([]);
    expect((await fan.client.post('/api/subscription/cancel-subscription', { id: subscriptionId })).status).toBe(200);
    await deliver();
    expect(await outboxRows(db(), 'subscription.changed', change('cancelled'))).toEqual([{ attempts: 1, delivered: true }]);
  });
});

/** `fan` subscribed to a plan of `creator`'s: answers the subscription. */
async function subscribe(creator: SignedInUser, fan: SignedInUser): Promise<number> {
  const templates = (await creator.client.get('/api/subscription/plan-template')).body.templates as Array<{ template_id: number; prices: Array<{ price: number }> }>;
  const plan = await creator.client.post('/api/subscription/plan-add', { template_id: templates[0]!.template_id, price: templates[0]!.prices[0]!.price, currency: 'CON' });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  const planId = (plan.body.plan as { plan_id: number }).plan_id;
  const subscribed = await fan.client.request('POST', '/api/subscription/subscribe', { body: { plan_id: planId, user_id: creator.user.id, auto_renew: true }, headers: idem(`subscribe-${fan.user.id}`) });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
  return (subscribed.body.subscription as { subscription_id: number }).subscription_id;
}
