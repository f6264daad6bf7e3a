import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testOnPostgres } from '../../testing/suite-needing';
import * as api from '../../../common/api/subscriptions';
import { deleteAccount } from '../../../common/api/accounts';
import { sendRating } from '../../../common/api/stream-interactions';
import { DEFAULT_PERMISSIONS } from '../../../common/permissions';
import { fill, MSG } from '../../../common/messages';
import { periodEnd } from '../../../common/rules/plans';
import { eventOutbox, mailOutbox } from '../../platform/db/platform-tables';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { eventually } from '../../testing/eventually';
import { closeCheckingLedger, expectLedgerInvariants } from '../../testing/ledger-invariants';
import type { HttpSession } from '../../testing/http-session';
import { activeBenefits } from './reads';
import type { PLAN_TEMPLATES } from './templates';
import { subscriptions } from './tables';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => closeCheckingLedger(t));

const db = () => t.resources.database.db;
const FEE = 20;

type Template = api.PlanTemplate;
type Sub = api.Subscription;

async function templateOf(client: HttpSession, code: (typeof PLAN_TEMPLATES)[number]['name']): Promise<Template> {
  const res = await client.send(api.planTemplates, {});
  expect(res.status).toBe(200);
  return (res.body.templates as Template[]).find((x) => x.name === code)!;
}

/** A creator with plans of the given template at the given prices. */
async function creatorWithPlans(name: 'Fan' | 'Supporter' | 'VIP' = 'VIP', prices?: number[]) {
  const creator = await t.given.signedInUser();
  const template = await templateOf(creator.client, name);
  const planIds: number[] = [];
  for (const price of prices ?? [template.prices[0]!.price]) {
    const res = await creator.client.post(api.planAdd.path, { template_id: template.template_id, price, currency: 'CON' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    planIds.push((res.body.plan as api.Plan).plan_id);
  }
  return { ...creator, template, planIds };
}

function subscribeAs(fan: SignedInUser, creatorId: number, planId: number, key: string = randomUUID(), autoRenew = true) {
  return fan.client.request('POST', api.subscribe.path, { body: { plan_id: planId, user_id: creatorId, auto_renew: autoRenew }, headers: { 'idempotency-key': key } });
}

async function fanWithCoins(amount: number) {
  const fan = await t.given.signedInUser();
  if (amount > 0) await t.given.coins(fan.user, amount);
  return fan;
}

async function coinsOf(userId: number) {
  return (await t.app.services.ledger.balances(userId)).CON;
}

async function subscriptionRow(id: number) {
  const [row] = await db().select().from(subscriptions).where(eq(subscriptions.id, id));
  return row!;
}

describe('plan templates and plans', () => {
  it('offers the seeded templates with period labels, USD prices and the prices already added', async () => {
    const creator = await t.given.signedInUser();
    const res = await creator.client.send(api.planTemplates, {});
    expect(res.status).toBe(200);
    const templates = res.body.templates as Template[];
    expect(templates.map((x) => x.name)).toEqual(['Fan', 'Supporter', 'VIP']);
    const fan = templates[0]!;
    expect(fan.prices.map((p) => p.period_label)).toEqual(['Daily', 'Weekly', 'Monthly', 'Monthly', 'Quarterly', 'Yearly']);
    expect(fan.prices.find((p) => p.period === 'RMONTH:1')).toMatchObject({ price: 150, currency: 'CON', price_by_currency: { USD: 7.5 }, added: false });
    expect(templates[2]!.features).toEqual(['Priority chat with the creator', 'No pay wall on paid streams', 'No ads']);
    expect(templates[1]!.features).toContain('50% off paid streams');

    await creator.client.post(api.planAdd.path, { template_id: fan.template_id, price: 150, currency: 'CON' });
    const again = await templateOf(creator.client, 'Fan');
    expect(again.prices.filter((p) => p.added).map((p) => p.price)).toEqual([150]);
  });

  it('asks a visitor to log in for templates', async () => {
    expect((await t.client().send(api.planTemplates, {})).status).toBe(401);
  });

  it('adds a plan only at a price the template offers, once per price and currency', async () => {
    const creator = await t.given.signedInUser();
    const vip = await templateOf(creator.client, 'VIP');
    const wrong = await creator.client.post(api.planAdd.path, { template_id: vip.template_id, price: 999, currency: 'CON' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: MSG.planPriceInvalid, field: 'price' });
    const missing = await creator.client.post(api.planAdd.path, { template_id: vip.template_id, currency: 'CON' });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('price');
    const unknown = await creator.client.post(api.planAdd.path, { template_id: 999_999, price: 600, currency: 'CON' });
    expect(unknown.status).toBe(404);
    const usd = await creator.client.post(api.planAdd.path, { template_id: vip.template_id, price: 600, currency: 'USD' });
    expect(usd.status).toBe(400);

    const added = await creator.client.post(api.planAdd.path, { template_id: vip.template_id, price: 600, currency: 'CON' });
    expect(added.status).toBe(200);
    expect(added.body.plan).toMatchObject({ name: 'VIP', price: 600, period: 'RMONTH:1', period_label: 'Monthly', benefits: { no_paywall: true, priority_chat: true, no_ads: true, discount: 1 } });
    const twice = await creator.client.post(api.planAdd.path, { template_id: vip.template_id, price: 600, currency: 'CON' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(MSG.planExists);
  });

  it('refuses plans to a user without CREATE PLAN, in the spec\'s words', async () => {
    const user = await t.given.user({ perms: DEFAULT_PERMISSIONS.filter((p) => p !== 'CREATE PLAN') });
    const client = await t.given.signedIn(user);
    const vip = await templateOf(client, 'VIP');
    const res = await client.post(api.planAdd.path, { template_id: vip.template_id, price: 600, currency: 'CON' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ response: 'plan_permission', message: MSG.planPermissionNeeded });
  });

  it('lists a creator\'s plans by group then price, with per-day discounts and the best price', async () => {
    const creator = await creatorWithPlans('Fan', [1500, 150, 400]);
    const fan = await t.given.signedInUser();
    const res = await fan.client.send(api.planList, { id: creator.user.id });
    expect(res.status).toBe(200);
    const plans = res.body.plans as api.Plan[];
    expect(plans.map((p) => [p.price, p.period_label, p.discount, p.bestPrice, p.qualified])).toEqual([
      [150, 'Monthly', 0, false, true],
      [400, 'Quarterly', 11, false, true],
      [1500, 'Yearly', 18, true, true],
    ]);
    expect(res.body.subscribed).toBe(false);
    const anonymous = await t.client().send(api.planList, { id: creator.user.id });
    expect((anonymous.body.plans as api.Plan[]).every((p) => !p.qualified)).toBe(true);
    const own = await creator.client.send(api.planList, { id: creator.user.id });
    expect((own.body.plans as api.Plan[]).every((p) => !p.qualified)).toBe(true);
    expect((await t.client().send(api.planList, { id: 999_999_999 })).status).toBe(404);
  });

  it('tells the platform\'s margin', async () => {
    const creator = await t.given.signedInUser();
    const res = await creator.client.post(api.planMargin.path, { currency: 'CON' });
    expect(res.body).toMatchObject({ currency: 'CON', margin: FEE, creator_share: 100 - FEE });
    expect((await creator.client.post(api.planMargin.path, { currency: 'EUR' })).status).toBe(400);
  });
});

describe('subscribing', () => {
  it('pays in coins through the ledger: the subscriber pays, the creator gets it less the fee, once per key', async () => {
    const creator = await creatorWithPlans('VIP');
    const fan = await fanWithCoins(1000);
    const key = randomUUID();
    const res = await subscribeAs(fan, creator.user.id, creator.planIds[0]!, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ paid: true, message: MSG.subscribedNow, balance: { CON: 400 } });
    const sub = res.body.subscription as Sub;
    expect(sub).toMatchObject({ plan_user_id: creator.user.id, user_id: creator.user.id, username: creator.user.username, price: 600, price_formatted: '600 Coins',
      state: 'enabled', auto_renew: true, active: true, period_label: 'Monthly', price_by_currency: { USD: 30 } });
    expect(sub.renewal_date).toBe(sub.end_date);
    expect(new Date(sub.end_date)).toEqual(periodEnd(new Date(sub.begin_date), 'RMONTH:1'));
    expect(await coinsOf(creator.user.id)).toBe(600 - 120);

    const retry = await subscribeAs(fan, creator.user.id, creator.planIds[0]!, key);
    expect(retry.status).toBe(200);
    expect((retry.body.subscription as Sub).subscription_id).toBe(sub.subscription_id);
    expect(await coinsOf(fan.user.id)).toBe(400);

    const again = await subscribeAs(fan, creator.user.id, creator.planIds[0]!);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ response: 'already_subscribed', message: MSG.alreadySubscribed, error_code: 20002 });
    const plans = await fan.client.send(api.planList, { id: creator.user.id });
    expect(plans.body.subscribed).toBe(true);
    expect(await activeBenefits(db(), fan.user.id, creator.user.id)).toMatchObject({ no_paywall: true, priority_chat: true });
    await expectLedgerInvariants(db());
  });

  it('asks for funds when the wallet is short, and writes nothing', async () => {
    const creator = await creatorWithPlans('VIP');
    const fan = await fanWithCoins(100);
    const res = await subscribeAs(fan, creator.user.id, creator.planIds[0]!);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ response: 'fund_account', message: MSG.subscribeFundAccount, error_code: 10516 });
    expect(await coinsOf(fan.user.id)).toBe(100);
    const rows = await db().select().from(subscriptions).where(eq(subscriptions.subscriberId, fan.user.id));
    expect(rows).toEqual([]);
  });

  it('needs an Idempotency-Key, and a used key for another plan is refused', async () => {
    const creator = await creatorWithPlans('Fan', [150, 400]);
    const fan = await fanWithCoins(1000);
    const missing = await fan.client.post(api.subscribe.path, { plan_id: creator.planIds[0], user_id: creator.user.id });
    expect(missing.status).toBe(400);
    const key = randomUUID();
    expect((await subscribeAs(fan, creator.user.id, creator.planIds[0]!, key)).status).toBe(200);
    const other = await subscribeAs(fan, creator.user.id, creator.planIds[1]!, key);
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(MSG.idempotencyKeyReused);
  });

  it('charges once when the same viewer subscribes many times at once', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const fan = await fanWithCoins(1000);
    const answers = await Promise.all(Array.from({ length: 6 }, () => subscribeAs(fan, creator.user.id, creator.planIds[0]!)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
    expect(await coinsOf(fan.user.id)).toBe(850);
  });

  it('refuses subscribing to oneself, to a withdrawn plan, to another creator\'s plan, and asks a visitor to log in', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const self = await subscribeAs(creator, creator.user.id, creator.planIds[0]!);
    expect(self.status).toBe(403);
    expect(self.body.message).toBe(MSG.subscribeSelf);
    const other = await creatorWithPlans('Fan', [150]);
    const fan = await fanWithCoins(1000);
    expect((await subscribeAs(fan, other.user.id, creator.planIds[0]!)).status).toBe(404);
    await creator.client.post(api.planDelete.path, { plan_id: creator.planIds[0] });
    const withdrawn = await subscribeAs(fan, creator.user.id, creator.planIds[0]!);
    expect(withdrawn.status).toBe(404);
    expect(withdrawn.body.message).toBe(MSG.planNotFound);
    const visitor = await t.client().request('POST', api.subscribe.path, { body: { plan_id: 1, user_id: creator.user.id }, headers: { 'idempotency-key': randomUUID() } });
    expect(visitor.status).toBe(401);
  });

  it('refuses a creator rated below the threshold, and lets an unrated one be subscribed to', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const live = await t.given.liveStream({}, creator.user);
    const rater = await t.given.signedInUser();
    const query = new URLSearchParams({ id: String(rater.user.id), stream_id: String(live.streamId), rating: '1' });
    const rated = await rater.client.request('GET', `${sendRating.path}?${query}`, { headers: { 'x-csrf-token': await rater.client.csrf() } });
    expect(rated.status, JSON.stringify(rated.body)).toBe(200);
    const fan = await fanWithCoins(1000);
    const res = await subscribeAs(fan, creator.user.id, creator.planIds[0]!);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ response: 'rating_too_low', message: fill(MSG.subscribeRatingTooLow, { n: 3 }) });
    expect(await coinsOf(fan.user.id)).toBe(1000);
    const unrated = await creatorWithPlans('Fan', [150]);
    expect((await subscribeAs(fan, unrated.user.id, unrated.planIds[0]!)).status).toBe(200);
  });

  it('pays with coins the subscriber received as a creator (gathered from receiving shards)', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const earner = await t.given.liveStream({ title: 'Earning' });
    const tipper = await fanWithCoins(500);
    const tip = await tipper.client.request('POST', '/api/streams/send-tip', { body: { stream_id: earner.streamId, amount: 250 }, headers: { 'idempotency-key': randomUUID() } });
    expect(tip.status, JSON.stringify(tip.body)).toBe(200);
    expect(await coinsOf(earner.user.id)).toBe(200);
    const res = await subscribeAs(earner, creator.user.id, creator.planIds[0]!);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await coinsOf(earner.user.id)).toBe(50);
  });
});

describe('lists, lookups and figures', () => {
  it('lists one\'s subscriptions and a creator\'s subscribers, 5 a page, to them and GRANT PERMISSION only', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const fans = await Promise.all(Array.from({ length: 6 }, () => fanWithCoins(200)));
    for (const fan of fans) expect((await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).status).toBe(200);

    const page1 = await creator.client.post(api.listSubscribers.path, { user_id: creator.user.id });
    expect(page1.body.total).toBe(6);
    expect(page1.body.subscriptions as Sub[]).toHaveLength(5);
    expect((page1.body.subscriptions as Sub[])[0]).toMatchObject({ user_id: fans[5]!.user.id, username: fans[5]!.user.username });
    const page2 = await creator.client.post(api.listSubscribers.path, { user_id: creator.user.id, offset: 5 });
    expect(page2.body.subscriptions as Sub[]).toHaveLength(1);

    const mine = await fans[0]!.client.post(api.listSubscriptions.path, { detail: true });
    expect(mine.body.total).toBe(1);
    const first = (mine.body.subscriptions as Sub[])[0]!;
    expect(first).toMatchObject({ user_id: creator.user.id, username: creator.user.username });
    expect(first.history?.map((h) => h.category)).toEqual(['SUBSCRIBED']);

    const stranger = await t.given.signedInUser();
    expect((await stranger.client.post(api.listSubscribers.path, { user_id: creator.user.id })).status).toBe(403);
    expect((await stranger.client.post(api.listSubscriptions.path, { user_id: fans[0]!.user.id })).status).toBe(403);
    expect((await stranger.client.send(api.subscriberStats, { id: creator.user.id })).status).toBe(403);
    expect((await stranger.client.send(api.lookupSubscription, { id: first.subscription_id })).status).toBe(404);
    expect((await stranger.client.send(api.subscriptionHistory, { id: first.subscription_id })).status).toBe(404);

    const moderator = await t.given.signedInUser({ perms: [...DEFAULT_PERMISSIONS, 'GRANT PERMISSION'] });
    expect((await moderator.client.post(api.listSubscribers.path, { user_id: creator.user.id })).body.total).toBe(6);
    expect((await moderator.client.send(api.lookupSubscription, { id: first.subscription_id })).status).toBe(200);

    const byCreator = await creator.client.send(api.lookupSubscription, { id: first.subscription_id });
    expect(byCreator.body.subscription).toMatchObject({ user_id: fans[0]!.user.id });
    const history = await fans[0]!.client.send(api.subscriptionHistory, { id: first.subscription_id });
    expect((history.body.history as api.HistoryEntry[])[0]).toMatchObject({ category: 'SUBSCRIBED', detail: 'Fan, Monthly: 150 Coins' });

    const stats = await creator.client.send(api.subscriberStats, { id: creator.user.id });
    expect(stats.body.stats).toEqual({ active_subscribers: 6, total_subscribers: 6, plans: 1, coins_total: 900, revenue_usd: 45, coins_this_month: 900 });
  });
});

describe('cancelling, renewing, withdrawing a plan', () => {
  it('cancels: no renewal, the benefits to the end of the paid period; only the subscriber may', async () => {
    const creator = await creatorWithPlans('VIP');
    const fan = await fanWithCoins(600);
    const sub = (await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).body.subscription as Sub;
    expect((await creator.client.post(api.cancelSubscription.path, { id: sub.subscription_id })).status).toBe(404);
    const res = await fan.client.post(api.cancelSubscription.path, { id: sub.subscription_id });
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ state: 'cancelled', auto_renew: false, renewal_date: null, active: true });
    expect(await activeBenefits(db(), fan.user.id, creator.user.id)).not.toBeNull();
    const twice = await fan.client.post(api.cancelSubscription.path, { id: sub.subscription_id });
    expect(twice.status).toBe(409);
    const renew = await fan.client.post(api.renewSubscription.path, { id: sub.subscription_id });
    expect(renew.status).toBe(409);
    expect(renew.body.message).toBe(MSG.subscriptionNotRenewable);
    // Still paid up: subscribing again waits for the period's end.
    await t.given.coins(fan.user, 600);
    expect((await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).status).toBe(409);
    // The period over: a new subscription may start.
    await db().update(subscriptions).set({ endDate: new Date(Date.now() - 1000) }).where(eq(subscriptions.id, sub.subscription_id));
    expect(await activeBenefits(db(), fan.user.id, creator.user.id)).toBeNull();
    expect((await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).status).toBe(200);
  });

  it('renews a subscription that does not renew by itself: auto-renewal on in its period, a new paid period after it', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const fan = await fanWithCoins(300);
    const sub = (await subscribeAs(fan, creator.user.id, creator.planIds[0]!, randomUUID(), false)).body.subscription as Sub;
    expect(sub).toMatchObject({ auto_renew: false, renewal_date: null });
    const on = await fan.client.post(api.renewSubscription.path, { id: sub.subscription_id });
    expect(on.status).toBe(200);
    expect(on.body.subscription).toMatchObject({ auto_renew: true, renewal_date: sub.end_date });
    expect(await coinsOf(fan.user.id)).toBe(150);
    expect((await fan.client.post(api.renewSubscription.path, { id: sub.subscription_id })).status).toBe(409);

    await db().update(subscriptions).set({ autoRenew: false, endDate: new Date(Date.now() - 60_000) }).where(eq(subscriptions.id, sub.subscription_id));
    const paid = await fan.client.post(api.renewSubscription.path, { id: sub.subscription_id });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.subscription).toMatchObject({ auto_renew: true, active: true });
    expect(paid.body.balance).toMatchObject({ CON: 0 });
    expect((await subscriptionRow(sub.subscription_id)).periodNo).toBe(2);

    await db().update(subscriptions).set({ autoRenew: false, endDate: new Date(Date.now() - 60_000) }).where(eq(subscriptions.id, sub.subscription_id));
    const short = await fan.client.post(api.renewSubscription.path, { id: sub.subscription_id });
    expect(short.status).toBe(402);
    expect(short.body.error_code).toBe(10516);
  });

  it('withdraws a plan: its subscribers keep it to the end of the period and are not renewed; only its creator may', async () => {
    const creator = await creatorWithPlans('VIP');
    const fan = await fanWithCoins(600);
    const sub = (await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).body.subscription as Sub;
    expect((await fan.client.post(api.planDelete.path, { plan_id: creator.planIds[0] })).status).toBe(404);
    const res = await creator.client.post(api.planDelete.path, { plan_id: creator.planIds[0] });
    expect(res.body).toMatchObject({ plan_id: creator.planIds[0], subscribers: 1 });
    const after = (await fan.client.send(api.lookupSubscription, { id: sub.subscription_id })).body.subscription as Sub;
    expect(after).toMatchObject({ state: 'deleted', auto_renew: false, active: true });
    expect(after.history?.[0]?.category).toBe('PLAN_DELETED');
    expect((await creator.client.send(api.planList, { id: creator.user.id })).body.plans).toEqual([]);
    const outcome = await t.app.services.renewals.renewDue(new Date(new Date(sub.end_date).getTime() + 1000));
    expect((await subscriptionRow(sub.subscription_id)).periodNo).toBe(1);
    expect(outcome.renewed).toBeGreaterThanOrEqual(0);
    expect((await creator.client.post(api.planDelete.path, { plan_id: creator.planIds[0] })).status).toBe(404);
  });

  testOnPostgres('refuses withdrawing a plan while a subscription to it is being paid', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const holder = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL!.replace(/\/[^/]*$/, `/${(await db().execute(sql`select current_database() as d`)).rows[0]!.d as string}`) });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from subscription_plans where id = $1 for share', [creator.planIds[0]]);
      const res = await creator.client.post(api.planDelete.path, { plan_id: creator.planIds[0] });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(MSG.planInUse);
      await holder.query('rollback');
    } finally {
      await holder.end();
    }
  });

  it('a deleted account\'s subscriptions stop renewing and its plans are withdrawn', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const fan = await fanWithCoins(300);
    const sub = (await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).body.subscription as Sub;
    const gone = await fan.client.post(deleteAccount.path, { id: fan.user.id, current_password: fan.user.password });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    // The subscriptions module's clean-up follows the deletion from the event outbox, at once.
    expect(await eventually(() => subscriptionRow(sub.subscription_id), (row) => row.state === 'cancelled')).toMatchObject({ state: 'cancelled', autoRenew: false });
  });
});

describe('renewals', () => {
  it('renews a year of monthly periods, one charge each, with the books balanced', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const fan = await fanWithCoins(150 * 13);
    const sub = (await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).body.subscription as Sub;
    let end = new Date(sub.end_date);
    for (let month = 1; month <= 12; month++) {
      const outcome = await t.app.services.renewals.renewDue(end);
      expect(outcome.renewed).toBeGreaterThanOrEqual(1);
      // Run again at the same moment: nothing more is due for this subscription.
      await t.app.services.renewals.renewDue(end);
      const row = await subscriptionRow(sub.subscription_id);
      expect(row.periodNo).toBe(month + 1);
      expect(new Date(row.beginDate)).toEqual(end);
      end = new Date(row.endDate);
      expect(end).toEqual(periodEnd(new Date(row.beginDate), 'RMONTH:1'));
    }
    expect(await coinsOf(fan.user.id)).toBe(0);
    const charges = await db().execute(sql`select count(*)::int as n from ledger_transfers where kind = 'subscription' and from_user_id = ${fan.user.id}`);
    expect((charges.rows[0] as { n: number }).n).toBe(13);
    const history = await fan.client.send(api.subscriptionHistory, { id: sub.subscription_id });
    expect((history.body.history as api.HistoryEntry[]).filter((h) => h.category === 'RENEWED')).toHaveLength(12);
    await expectLedgerInvariants(db());
  });

  it('cancels a subscription the wallet cannot renew, and tells the subscriber by mail', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const fan = await fanWithCoins(150);
    const sub = (await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).body.subscription as Sub;
    await t.app.services.renewals.renewDue(new Date(sub.end_date));
    const row = await subscriptionRow(sub.subscription_id);
    expect(row).toMatchObject({ state: 'cancelled', autoRenew: false, periodNo: 1 });
    // The notice was written with the failure, in its transaction: a kill after the commit cannot lose it.
    const written = await db().select().from(eventOutbox).where(sql`${eventOutbox.payload}->>'subscriptionId' = ${String(sub.subscription_id)}`).orderBy(eventOutbox.id);
    expect(written.map((w) => [w.event, (w.payload as { reason: string }).reason])).toEqual([['subscription.changed', 'subscribed'], ['subscription.changed', 'renewal-failed']]);
    // Told through notifications: the mail goes out with the delivery job, moments later.
    const mails = await eventually(() => db().select().from(mailOutbox).where(eq(mailOutbox.to, fan.user.email)), (found) => found.length > 0);
    expect(mails.map((m) => m.subject)).toContain(fill(MSG.subscriptionRenewalFailedSubject, { name: creator.user.username }));
    const history = await fan.client.send(api.subscriptionHistory, { id: sub.subscription_id });
    expect((history.body.history as api.HistoryEntry[])[0]?.category).toBe('RENEWAL_FAILED');
  });

  it('refuses a held subscriber (decision 0057): no new subscription, and the renewal ends the subscription without a charge', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const fan = await fanWithCoins(300);
    const sub = (await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).body.subscription as Sub;
    await t.app.services.ledger.openHold(fan.user.id, `test-dispute:${fan.user.id}`);
    const other = await creatorWithPlans('Fan', [150]);
    const refused = await subscribeAs(fan, other.user.id, other.planIds[0]!);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ response: 'wallet_on_hold', message: MSG.walletOnHold });
    await t.app.services.renewals.renewDue(new Date(sub.end_date));
    expect(await subscriptionRow(sub.subscription_id)).toMatchObject({ state: 'cancelled', periodNo: 1 });
    expect(await coinsOf(fan.user.id)).toBe(150);
    const history = await fan.client.send(api.subscriptionHistory, { id: sub.subscription_id });
    expect((history.body.history as api.HistoryEntry[])[0]).toMatchObject({ category: 'RENEWAL_FAILED', detail: 'Not renewed: the wallet is on hold' });
    await t.app.services.ledger.releaseHold(`test-dispute:${fan.user.id}`);
    await expectLedgerInvariants(db());
  });

  it('starts a late renewal at the run, not at the old end: no paying for time without access', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const fan = await fanWithCoins(300);
    const sub = (await subscribeAs(fan, creator.user.id, creator.planIds[0]!)).body.subscription as Sub;
    const late = new Date(new Date(sub.end_date).getTime() + 3 * 24 * 3600_000);
    await t.app.services.renewals.renewDue(late);
    const row = await subscriptionRow(sub.subscription_id);
    expect(new Date(row.beginDate)).toEqual(late);
    expect(row.periodNo).toBe(2);
  });

  it('keeps a subscription that does not auto-renew out of the renewals', async () => {
    const creator = await creatorWithPlans('Fan', [150]);
    const fan = await fanWithCoins(300);
    const sub = (await subscribeAs(fan, creator.user.id, creator.planIds[0]!, randomUUID(), false)).body.subscription as Sub;
    await t.app.services.renewals.renewDue(new Date(new Date(sub.end_date).getTime() + 1000));
    expect(await subscriptionRow(sub.subscription_id)).toMatchObject({ periodNo: 1, state: 'enabled' });
    expect(await coinsOf(fan.user.id)).toBe(150);
    const ids = await db().select({ id: subscriptions.id }).from(subscriptions).where(and(eq(subscriptions.subscriberId, fan.user.id)));
    expect(ids).toHaveLength(1);
  });
});
