/**
 * Offers on plans (decision 0089) through HTTP against the real database: a creator's free trials,
 * first-period discounts and bundles, limited in count and time; a fan takes one by its link's code; the
 * first period costs the offer's price (nothing for a trial) and the renewal job then charges the plan's
 * full price. Every money movement is checked for conservation: what the fan pays is what the creator
 * and the platform's fees receive, and the ledger's invariants hold.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as offersApi from '../../../common/api/plan-offers';
import * as api from '../../../common/api/subscriptions';
import { fill, MSG } from '../../../common/messages';
import { OFFER_RULES } from '../../../common/rules/plan-offers';
import { periodEnd } from '../../../common/rules/plans';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { closeCheckingLedger, expectLedgerInvariants, systemBalance } from '../../testing/ledger-invariants';
import { paymentLegs } from '../ledger';
import { offerClaims, planOffers, subscriptions } from './tables';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => closeCheckingLedger(t));

const db = () => t.resources.database.db;
const FEE = 20;
const DAY = 24 * 3600_000;

type Offer = offersApi.PlanOffer;
type Sub = api.Subscription;

/** A creator with a Fan plan at each price (150 is monthly, 400 quarterly). */
async function creatorWithPlan(prices: number[] = [150]) {
  const creator = await t.given.signedInUser();
  const templates = (await creator.client.send(api.planTemplates, {})).body.templates as api.PlanTemplate[];
  const fan = templates.find((x) => x.name === 'Fan')!;
  const planIds: number[] = [];
  for (const price of prices) {
    const res = await creator.client.post(api.planAdd.path, { template_id: fan.template_id, price, currency: 'CON' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    planIds.push((res.body.plan as api.Plan).plan_id);
  }
  return { ...creator, planId: planIds[0]!, planIds };
}

async function offerOf(creator: SignedInUser, body: Record<string, unknown>): Promise<Offer> {
  const res = await creator.client.post(offersApi.offerAdd.path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.offer as Offer;
}

function claim(fan: SignedInUser, code: string, key: string = randomUUID(), autoRenew = true) {
  return fan.client.request('POST', offersApi.offerClaim.path, { body: { code, auto_renew: autoRenew }, headers: { 'idempotency-key': key } });
}

async function fanWithCoins(amount: number) {
  const fan = await t.given.signedInUser();
  if (amount > 0) await t.given.coins(fan.user, amount);
  return fan;
}

const coinsOf = async (userId: number) => (await t.app.services.ledger.balances(userId)).CON;
const fees = () => systemBalance(db(), 'fees');

async function subscriptionRow(id: number) {
  const [row] = await db().select().from(subscriptions).where(eq(subscriptions.id, id));
  return row!;
}

async function offerRow(id: number) {
  const [row] = await db().select().from(planOffers).where(eq(planOffers.id, id));
  return row!;
}

/** The money of a fan, a creator and the fees, to check that a payment only moved coins between them. */
async function purse(fanId: number, creatorId: number) {
  return { fan: await coinsOf(fanId), creator: await coinsOf(creatorId), fees: await fees() };
}

/** Between two purses: the fan paid `paid`, the creator got it less the platform's fee, the fees the rest; nothing else moved. */
function expectPaid(before: Awaited<ReturnType<typeof purse>>, after: Awaited<ReturnType<typeof purse>>, paid: number, fanId: number, creatorId: number) {
  const { fee } = paymentLegs(fanId, creatorId, paid, FEE);
  expect(after.fan - before.fan).toBe(-paid);
  expect(after.creator - before.creator).toBe(paid - fee);
  expect(after.fees - before.fees).toBe(fee);
  expect((after.fan - before.fan) + (after.creator - before.creator) + (after.fees - before.fees)).toBe(0);
}

describe('a creator\'s offers', () => {
  it('puts a trial, a discount and a bundle on a plan, lists them with their terms, and withdraws one', async () => {
    const creator = await creatorWithPlan();
    const trial = await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 7, max_claims: 50 });
    expect(trial).toMatchObject({
      kind: 'trial', days: 7, percent: null, months: null, max_claims: 50, claims: 0, state: 'open', first_price: 0, first_period: 'RDAY:7',
      name: '7-day free trial', terms: 'Free for 7 days, then 150 Coins a month', plan_price: 150, plan_period: 'RMONTH:1',
    });
    expect(trial.code).toMatch(/^[a-z0-9]{10}$/);
    const discount = await offerOf(creator, { plan_id: creator.planId, kind: 'discount', percent: 50 });
    expect(discount).toMatchObject({ first_price: 75, first_period: 'RMONTH:1', terms: '50% off your first month: 75 Coins, then 150 Coins a month' });
    const endsAt = new Date(Date.now() + 10 * DAY).toISOString();
    const bundle = await offerOf(creator, { plan_id: creator.planId, kind: 'bundle', months: 6, percent: 15, ends_at: endsAt });
    expect(bundle).toMatchObject({ first_price: 765, first_period: 'RMONTH:6', ends_at: endsAt, terms: '6 months for 765 Coins instead of 900 Coins, then 150 Coins a month' });

    const listed = await creator.client.send(offersApi.offerList, {});
    expect((listed.body.offers as Offer[]).map((o) => o.offer_id)).toEqual([bundle.offer_id, discount.offer_id, trial.offer_id]);

    // Three running offers per plan: a fourth waits for one to be withdrawn.
    const fourth = await creator.client.post(offersApi.offerAdd.path, { plan_id: creator.planId, kind: 'trial', days: 3 });
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toBe(fill(MSG.offerTooMany, { n: OFFER_RULES.openPerPlan }));
    const withdrawn = await creator.client.post(offersApi.offerWithdraw.path, { offer_id: discount.offer_id });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.offer).toMatchObject({ state: 'withdrawn' });
    expect((await creator.client.post(offersApi.offerWithdraw.path, { offer_id: discount.offer_id })).body.offer).toMatchObject({ withdrawn_at: (withdrawn.body.offer as Offer).withdrawn_at });
    await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 3 });
  });

  it('refuses offers that do not add up, in words that name the field', async () => {
    const creator = await creatorWithPlan([150, 400]);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ kind: 'trial' }, 'days', fill(MSG.offerDaysInvalid, OFFER_RULES.trialDays)],
      [{ kind: 'trial', days: 31 }, 'days', fill(MSG.offerDaysInvalid, OFFER_RULES.trialDays)],
      [{ kind: 'trial', days: 7, percent: 10 }, 'percent', MSG.offerFieldNotForKind],
      [{ kind: 'discount', percent: 95 }, 'percent', fill(MSG.offerPercentInvalid, OFFER_RULES.percent)],
      [{ kind: 'bundle', months: 4, percent: 10 }, 'months', MSG.offerMonthsInvalid],
      [{ kind: 'bundle', months: 3 }, 'percent', fill(MSG.offerPercentInvalid, OFFER_RULES.percent)],
      [{ kind: 'gift' }, 'kind', MSG.offerKindInvalid],
      [{ kind: 'trial', days: 7, max_claims: 0 }, 'max_claims', fill(MSG.offerMaxClaimsInvalid, OFFER_RULES.maxClaims)],
      [{ kind: 'trial', days: 7, ends_at: 'next week' }, 'ends_at', fill(MSG.offerEndsAtInvalid, { days: OFFER_RULES.maxDaysAhead })],
      [{ kind: 'trial', days: 7, ends_at: new Date(Date.now() - DAY).toISOString() }, 'ends_at', fill(MSG.offerEndsAtInvalid, { days: OFFER_RULES.maxDaysAhead })],
      [{ kind: 'trial', days: 7, ends_at: new Date(Date.now() + 400 * DAY).toISOString() }, 'ends_at', fill(MSG.offerEndsAtInvalid, { days: OFFER_RULES.maxDaysAhead })],
    ];
    for (const [body, field, message] of cases) {
      const res = await creator.client.post(offersApi.offerAdd.path, { plan_id: creator.planId, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatchObject({ field, message });
    }
    // A bundle of months needs a monthly plan.
    const quarterly = await creator.client.post(offersApi.offerAdd.path, { plan_id: creator.planIds[1], kind: 'bundle', months: 6, percent: 10 });
    expect(quarterly.status).toBe(400);
    expect(quarterly.body).toMatchObject({ field: 'months', message: MSG.offerBundleMonthlyOnly });
    expect(await db().select().from(planOffers).where(eq(planOffers.creatorId, creator.user.id))).toEqual([]);
  });

  it('lets only the plan\'s creator put an offer on it or withdraw one; to anyone else they are not there', async () => {
    const creator = await creatorWithPlan();
    const offer = await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 7 });
    const stranger = await t.given.signedInUser();
    const add = await stranger.client.post(offersApi.offerAdd.path, { plan_id: creator.planId, kind: 'trial', days: 7 });
    expect(add.status).toBe(404);
    expect(add.body.message).toBe(MSG.planNotFound);
    const withdraw = await stranger.client.post(offersApi.offerWithdraw.path, { offer_id: offer.offer_id });
    expect(withdraw.status).toBe(404);
    expect(withdraw.body.message).toBe(MSG.offerNotFound);
    expect((await stranger.client.send(offersApi.offerList, {})).body.offers).toEqual([]);
    expect((await t.client().post(offersApi.offerAdd.path, { plan_id: creator.planId, kind: 'trial', days: 7 })).status).toBe(401);
    expect((await offerRow(offer.offer_id)).withdrawnAt).toBeNull();
  });
});

describe('a fan takes an offer', () => {
  it('a free trial moves no coins, and the renewal after it charges the plan\'s full price', async () => {
    const creator = await creatorWithPlan();
    const offer = await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 7 });
    const fan = await fanWithCoins(200);

    const seen = await t.client().send(offersApi.offerLookup, { code: offer.code });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ offer: { terms: 'Free for 7 days, then 150 Coins a month' }, creator: { user_id: creator.user.id, username: creator.user.username }, claimable: false, reason: null });
    expect((await fan.client.send(offersApi.offerLookup, { code: offer.code.toUpperCase() })).body).toMatchObject({ claimable: true, reason: null });

    const before = await purse(fan.user.id, creator.user.id);
    const transfers = async () => Number((await db().execute(sql`select count(*)::int as n from ledger_transfers where from_user_id = ${fan.user.id}`)).rows[0]!.n);
    const key = randomUUID();
    const res = await claim(fan, offer.code, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ charged: 0, message: fill(MSG.offerTaken, { terms: offer.terms }), balance: { CON: 200 }, offer: { claims: 1 } });
    const sub = res.body.subscription as Sub;
    // The subscription keeps the plan's price and period: what the renewals charge.
    expect(sub).toMatchObject({ price: 150, period: 'RMONTH:1', state: 'enabled', auto_renew: true, active: true });
    expect(new Date(sub.end_date).getTime() - new Date(sub.begin_date).getTime()).toBe(7 * DAY);
    expect(await purse(fan.user.id, creator.user.id)).toEqual(before);
    expect(await transfers()).toBe(0);
    const history = await fan.client.send(api.subscriptionHistory, { id: sub.subscription_id });
    expect(history.body.history).toMatchObject([{ category: 'SUBSCRIBED', detail: 'Fan (7-day free trial): free' }]);

    // The same attempt again answers the same subscription and counts nobody twice.
    const retry = await claim(fan, offer.code, key);
    expect(retry.status).toBe(200);
    expect((retry.body.subscription as Sub).subscription_id).toBe(sub.subscription_id);
    expect((await offerRow(offer.offer_id)).claims).toBe(1);
    expect(await db().select().from(offerClaims).where(eq(offerClaims.subscriberId, fan.user.id))).toHaveLength(1);

    // The trial ends: the renewal job charges the full price for a month from the trial's end.
    const outcome = await t.app.services.renewals.renewDue(new Date(sub.end_date));
    expect(outcome.renewed).toBeGreaterThanOrEqual(1);
    const row = await subscriptionRow(sub.subscription_id);
    expect(row).toMatchObject({ periodNo: 2, state: 'enabled', price: 150 });
    expect(new Date(row.beginDate)).toEqual(new Date(sub.end_date));
    expect(new Date(row.endDate)).toEqual(periodEnd(new Date(sub.end_date), 'RMONTH:1'));
    expectPaid(before, await purse(fan.user.id, creator.user.id), 150, fan.user.id, creator.user.id);
    const after = await fan.client.send(api.subscriptionHistory, { id: sub.subscription_id });
    expect((after.body.history as api.HistoryEntry[])[0]).toMatchObject({ category: 'RENEWED', detail: 'Fan, Monthly: 150 Coins' });
    await expectLedgerInvariants(db());
  });

  it('a discount charges its price for the first period, then the full price', async () => {
    const creator = await creatorWithPlan();
    const offer = await offerOf(creator, { plan_id: creator.planId, kind: 'discount', percent: 40 });
    const fan = await fanWithCoins(300);
    const before = await purse(fan.user.id, creator.user.id);
    const res = await claim(fan, offer.code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ charged: 90, balance: { CON: 210 } });
    const sub = res.body.subscription as Sub;
    expect(new Date(sub.end_date)).toEqual(periodEnd(new Date(sub.begin_date), 'RMONTH:1'));
    const paid = await purse(fan.user.id, creator.user.id);
    expectPaid(before, paid, 90, fan.user.id, creator.user.id);
    // The first period's charge is an ordinary subscription payment: its kind, its fee, only the amount differs.
    const [transfer] = (await db().execute(sql`select kind, amount::int as amount, details from ledger_transfers where from_user_id = ${fan.user.id}`)).rows as Array<{ kind: string; amount: number; details: { fee_percent: number; period_no: number } }>;
    expect(transfer).toMatchObject({ kind: 'subscription', amount: 90, details: { fee_percent: FEE, period_no: 1 } });

    await t.app.services.renewals.renewDue(new Date(sub.end_date));
    expect(await subscriptionRow(sub.subscription_id)).toMatchObject({ periodNo: 2 });
    expectPaid(paid, await purse(fan.user.id, creator.user.id), 150, fan.user.id, creator.user.id);
    await expectLedgerInvariants(db());
  });

  it('a bundle pays its months at once, lasts them, then renews month by month at the full price', async () => {
    const creator = await creatorWithPlan();
    const offer = await offerOf(creator, { plan_id: creator.planId, kind: 'bundle', months: 3, percent: 20 });
    const fan = await fanWithCoins(510);
    const before = await purse(fan.user.id, creator.user.id);
    const res = await claim(fan, offer.code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.charged).toBe(360);
    const sub = res.body.subscription as Sub;
    expect(new Date(sub.end_date)).toEqual(periodEnd(new Date(sub.begin_date), 'RMONTH:3'));
    const paid = await purse(fan.user.id, creator.user.id);
    expectPaid(before, paid, 360, fan.user.id, creator.user.id);
    // Nothing is due within the bundle's months.
    await t.app.services.renewals.renewDue(new Date(new Date(sub.begin_date).getTime() + 40 * DAY));
    expect((await subscriptionRow(sub.subscription_id)).periodNo).toBe(1);
    await t.app.services.renewals.renewDue(new Date(sub.end_date));
    const row = await subscriptionRow(sub.subscription_id);
    expect(new Date(row.endDate)).toEqual(periodEnd(new Date(sub.end_date), 'RMONTH:1'));
    expectPaid(paid, await purse(fan.user.id, creator.user.id), 150, fan.user.id, creator.user.id);
    expect(await coinsOf(fan.user.id)).toBe(0);
    await expectLedgerInvariants(db());
  });

  it('asks for funds when the wallet cannot pay the first period, and writes nothing', async () => {
    const creator = await creatorWithPlan();
    const offer = await offerOf(creator, { plan_id: creator.planId, kind: 'discount', percent: 10 });
    const fan = await fanWithCoins(100);
    const res = await claim(fan, offer.code);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ response: 'fund_account', message: MSG.subscribeFundAccount });
    expect(await coinsOf(fan.user.id)).toBe(100);
    expect((await offerRow(offer.offer_id)).claims).toBe(0);
    expect(await db().select().from(subscriptions).where(eq(subscriptions.subscriberId, fan.user.id))).toEqual([]);
  });
});

describe('limits and refusals', () => {
  it('stops at its count, even when many fans take it at once', async () => {
    const creator = await creatorWithPlan();
    const offer = await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 5, max_claims: 2 });
    const fans = await Promise.all(Array.from({ length: 6 }, () => fanWithCoins(0)));
    const answers = await Promise.all(fans.map((fan) => claim(fan, offer.code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.body.message])).toEqual(Array.from({ length: 4 }, () => [409, MSG.offerFull]));
    expect((await offerRow(offer.offer_id)).claims).toBe(2);
    expect(await db().select().from(offerClaims).where(eq(offerClaims.offerId, offer.offer_id))).toHaveLength(2);
    const late = await fanWithCoins(0);
    expect((await late.client.send(offersApi.offerLookup, { code: offer.code })).body).toMatchObject({ offer: { state: 'full' }, claimable: false, reason: MSG.offerFull });
    // A full offer no longer counts against the plan's running offers.
    await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 5 });
    await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 6 });
    await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 8 });
  });

  it('stops at its end, when withdrawn, and with its plan', async () => {
    const creator = await creatorWithPlan();
    const ending = await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 7, ends_at: new Date(Date.now() + DAY).toISOString() });
    await db().update(planOffers).set({ endsAt: new Date(Date.now() - 1000) }).where(eq(planOffers.id, ending.offer_id));
    const fan = await fanWithCoins(1000);
    const ended = await claim(fan, ending.code);
    expect(ended.status).toBe(409);
    expect(ended.body.message).toBe(MSG.offerEnded);

    const withdrawn = await offerOf(creator, { plan_id: creator.planId, kind: 'discount', percent: 20 });
    await creator.client.post(offersApi.offerWithdraw.path, { offer_id: withdrawn.offer_id });
    const refused = await claim(fan, withdrawn.code);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(MSG.offerWithdrawn);
    expect((await fan.client.send(offersApi.offerLookup, { code: withdrawn.code })).body).toMatchObject({ claimable: false, reason: MSG.offerWithdrawn });

    const bundle = await offerOf(creator, { plan_id: creator.planId, kind: 'bundle', months: 3, percent: 10 });
    await creator.client.post(api.planDelete.path, { plan_id: creator.planId });
    const gone = await claim(fan, bundle.code);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(MSG.offerNotFound);
    expect((await t.client().send(offersApi.offerLookup, { code: bundle.code })).status).toBe(404);
    expect(await coinsOf(fan.user.id)).toBe(1000);
  });

  it('gives a trial or a discount to new fans only, once per creator, and never to the creator', async () => {
    const creator = await creatorWithPlan();
    const trial = await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 7 });
    const discount = await offerOf(creator, { plan_id: creator.planId, kind: 'discount', percent: 50 });

    const own = await claim(creator, trial.code);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(MSG.offerOwn);
    const visitor = await t.client().request('POST', offersApi.offerClaim.path, { body: { code: trial.code }, headers: { 'idempotency-key': randomUUID() } });
    expect(visitor.status).toBe(401);
    const unknown = await claim(creator, 'nosuchcode9');
    expect(unknown.status).toBe(404);
    const malformed = await claim(creator, 'no!');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ field: 'code', message: MSG.mustBeOfferCode });

    // A fan who trialled: still subscribed, then after the trial ran out without renewal.
    const fan = await fanWithCoins(500);
    const first = await claim(fan, trial.code, randomUUID(), false);
    expect(first.status).toBe(200);
    const again = await claim(fan, discount.code);
    expect(again.status).toBe(409);
    expect(again.body.response).toBe('already_subscribed');
    const sub = first.body.subscription as Sub;
    await db().update(subscriptions).set({ endDate: new Date(Date.now() - 1000) }).where(eq(subscriptions.id, sub.subscription_id));
    const afterTrial = await claim(fan, discount.code);
    expect(afterTrial.status).toBe(409);
    expect(afterTrial.body.message).toBe(MSG.offerForNewFans);
    expect((await fan.client.send(offersApi.offerLookup, { code: trial.code })).body).toMatchObject({ claimable: false, reason: MSG.offerTakenBefore });

    // A fan who subscribed at the full price before.
    const former = await fanWithCoins(1000);
    const paid = await former.client.request('POST', api.subscribe.path, { body: { plan_id: creator.planId, user_id: creator.user.id, auto_renew: false }, headers: { 'idempotency-key': randomUUID() } });
    expect(paid.status).toBe(200);
    await db().update(subscriptions).set({ endDate: new Date(Date.now() - 1000) }).where(eq(subscriptions.subscriberId, former.user.id));
    const refused = await claim(former, trial.code);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(MSG.offerForNewFans);
    // A bundle is not introductory: a former subscriber may take it.
    const bundle = await offerOf(creator, { plan_id: creator.planId, kind: 'bundle', months: 3, percent: 10 });
    expect((await claim(former, bundle.code)).status).toBe(200);
    expect((await offerRow(trial.offer_id)).claims).toBe(1);
    expect((await offerRow(discount.offer_id)).claims).toBe(0);
    await expectLedgerInvariants(db());
  });

  it('takes one introductory offer when the same fan sends two at once', async () => {
    const creator = await creatorWithPlan();
    const trial = await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 7 });
    const other = await offerOf(creator, { plan_id: creator.planId, kind: 'trial', days: 14 });
    const fan = await fanWithCoins(0);
    const answers = await Promise.all([claim(fan, trial.code), claim(fan, other.code), claim(fan, trial.code), claim(fan, other.code)]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(3);
    expect(await db().select().from(offerClaims).where(eq(offerClaims.subscriberId, fan.user.id))).toHaveLength(1);
    const counted = (await offerRow(trial.offer_id)).claims + (await offerRow(other.offer_id)).claims;
    expect(counted).toBe(1);
  });
});
