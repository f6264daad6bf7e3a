/**
 * A plan paid on a processor's page (decision 0059), over HTTP, against the local Stripe stand-in: the
 * plan's coins come in as a recorded deposit, and the settlement that credits them takes the
 * subscription from the wallet — or, when it cannot, leaves the coins there and says why. Every case
 * ends with the books checked for conservation.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as subs from '../../../common/api/subscriptions';
import * as api from '../../../common/api/wallet';
import { fill, MSG } from '../../../common/messages';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { closeCheckingLedger, expectPaymentsBooked } from '../../testing/ledger-invariants';
import { startStripeStandin, STANDIN_CARDS, type StripeStandin } from '../../testing/stripe-standin';
import { hostedWebhookPath } from './routes';

let t: TestApp;
let stripe: StripeStandin;

beforeAll(async () => {
  stripe = await startStripeStandin();
  t = await startTestApp(stripe.env());
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  stripe.webhookUrl = `${base}${hostedWebhookPath('stripe')}`;
});
afterAll(async () => {
  await closeCheckingLedger(t);
  await stripe?.close();
});

const db = () => t.resources.database.db;
const FEE_PERCENT = 20;
/** The books balance, and the money in is exactly what the succeeded payments took (decisions 0036, 0055). */
const expectConserved = () => expectPaymentsBooked(db());
const coinsOf = async (userId: number) => (await t.app.services.ledger.balances(userId)).CON;

/** A creator offering one plan of the Fan template at `price` coins. */
async function creatorWithPlan(price = 150) {
  const creator = await t.given.signedInUser();
  const templates = (await creator.client.call(subs.planTemplates, {})).templates;
  const template = templates.find((x) => x.prices.some((p) => p.price === price))!;
  const { plan } = await creator.client.call(subs.planAdd, { template_id: template.template_id, price, currency: 'CON' });
  return { ...creator, plan };
}

const startPlanCheckout = (fan: SignedInUser, creator: { user: { id: number }; plan: subs.Plan }, extra: Partial<{ auto_renew: boolean }> = {}) =>
  fan.client.call(subs.subscribeCheckout, { plan_id: creator.plan.plan_id, user_id: creator.user.id, payment_method: 'card', ...extra });

/** The payer types a card on the stand-in's page and submits it; a payment's webhook reaches the server before the redirect. */
async function pay(redirectUrl: string, number: string = STANDIN_CARDS.succeeds) {
  const res = await fetch(redirectUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ number, expiry: '12 / 34', cvc: '123', name: 'Pat Payer' }).toString(),
  });
  expect(res.status).toBe(number === STANDIN_CARDS.declined ? 402 : 303);
}

const planCheckoutRow = async (paymentId: number) =>
  (await db().execute<{ state: string; subscription_id: string | null; outcome: string | null }>(sql`select state, subscription_id, outcome from plan_checkouts where payment_id = ${paymentId}`)).rows[0]!;

describe('starting a plan checkout', () => {
  it('asks the processor for the plan\'s coins at the list rate, as an unlisted package, and writes nothing else', async () => {
    const creator = await creatorWithPlan(150);
    const fan = await t.given.signedInUser();
    const started = await startPlanCheckout(fan, creator);
    expect(started).toMatchObject({ coins: 150, amount: 750, currency: 'USD' });
    const session = stripe.session(started.checkout.redirect_url.split('/').pop()!)!;
    expect(session).toMatchObject({ amount_total: 750, currency: 'usd', client_reference_id: `pay_${started.checkout.payment_id}` });
    expect(String(session.success_url)).toMatch(new RegExp(`/subscription\\?payment=${started.checkout.payment_id}&outcome=success$`));
    // The deposit page never lists the plan's package.
    expect((await t.client().call(api.coinPackages, {})).packages.map((p) => p.coins)).not.toContain(150);
    const result = await fan.client.call(subs.subscribeCheckoutResult, { payment_id: started.checkout.payment_id });
    expect(result).toMatchObject({ state: 'pending', subscription: null, plan_name: creator.plan.name, creator: { user_id: creator.user.id } });
    expect(await coinsOf(fan.user.id)).toBe(0);
  });

  it('refuses what subscribe refuses, a method not configured here, bad input, and others\' results', async () => {
    const creator = await creatorWithPlan(50);
    const fan = await t.given.signedInUser();
    const body = { plan_id: creator.plan.plan_id, user_id: creator.user.id, payment_method: 'card' };
    expect((await t.client().post(subs.subscribeCheckout.path, body)).status).toBe(401);
    const self = await creator.client.post(subs.subscribeCheckout.path, body);
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ message: MSG.subscribeSelf });
    const bitcoin = await fan.client.post(subs.subscribeCheckout.path, { ...body, payment_method: 'bitcoin' });
    expect(bitcoin.status).toBe(400);
    expect(bitcoin.body).toMatchObject({ message: MSG.paymentMethodUnavailable });
    expect((await fan.client.post(subs.subscribeCheckout.path, { ...body, payment_method: 'cash' })).status).toBe(400);
    expect((await fan.client.post(subs.subscribeCheckout.path, { ...body, return_path: '//evil.example/x' })).status).toBe(400);
    const unknown = await fan.client.post(subs.subscribeCheckout.path, { ...body, plan_id: 999_999_999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: MSG.planNotFound });

    // Subscribed already (with wallet coins): no checkout is opened.
    await t.given.coins(fan.user, 50);
    await fan.client.request('POST', subs.subscribe.path, { body: { plan_id: creator.plan.plan_id, user_id: creator.user.id }, headers: { 'idempotency-key': 'k1' } });
    const again = await fan.client.post(subs.subscribeCheckout.path, body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: MSG.alreadySubscribed });

    const other = await creatorWithPlan(50);
    const started = await startPlanCheckout(fan, other);
    const stranger = await t.given.signedInUser();
    expect((await stranger.client.send(subs.subscribeCheckoutResult, { payment_id: started.checkout.payment_id })).status).toBe(404);
    expect((await t.client().send(subs.subscribeCheckoutResult, { payment_id: started.checkout.payment_id })).status).toBe(401);
    expect((await fan.client.send(subs.subscribeCheckoutResult, { payment_id: 0 })).status).toBe(400);
    await expectConserved();
  });
});

describe('settling a plan checkout', () => {
  it('credits the coins and takes the subscription from them in the webhook\'s settlement, once', async () => {
    const creator = await creatorWithPlan(150);
    const fan = await t.given.signedInUser();
    const creatorBefore = await coinsOf(creator.user.id);
    const started = await startPlanCheckout(fan, creator, { auto_renew: false });
    await pay(started.checkout.redirect_url);

    const row = await planCheckoutRow(started.checkout.payment_id);
    expect(row.state).toBe('subscribed');
    const result = await fan.client.call(subs.subscribeCheckoutResult, { payment_id: started.checkout.payment_id });
    expect(result).toMatchObject({ state: 'subscribed', message: null, payment: { status: 'succeeded', coins: 150, amount: 750 } });
    expect(result.subscription).toMatchObject({ plan_id: creator.plan.plan_id, plan_user_id: creator.user.id, auto_renew: false, active: true });
    // The coins came in and went to the plan: nothing stays in the wallet, the creator has the price less the fee.
    expect(await coinsOf(fan.user.id)).toBe(0);
    expect(await coinsOf(creator.user.id)).toBe(creatorBefore + 150 - Math.ceil((150 * FEE_PERCENT) / 100));

    // Every event again (a replayed delivery), and the return page asking again: nothing moves twice.
    for (const event of stripe.events.filter((e) => e.object.client_reference_id === `pay_${started.checkout.payment_id}`)) expect(await stripe.deliver(event)).toBe(200);
    await fan.client.call(subs.subscribeCheckoutResult, { payment_id: started.checkout.payment_id });
    expect(await coinsOf(fan.user.id)).toBe(0);
    const { rows } = await db().execute<{ n: number }>(sql`select count(*)::int as n from subscriptions where subscriber_id = ${fan.user.id}`);
    expect(rows[0]!.n).toBe(1);
    const history = (await fan.client.call(api.walletTransfers, {})).transfers.filter((line) => line.currency === 'CON');
    expect(history.map((line) => [line.kind, line.amount])).toEqual([['subscription', -150], ['deposit', 150]]);
    await expectConserved();
  });

  it('keeps the coins in the wallet and says why when the plan was withdrawn before the payment came in', async () => {
    const creator = await creatorWithPlan(400);
    const fan = await t.given.signedInUser();
    const started = await startPlanCheckout(fan, creator);
    await creator.client.call(subs.planDelete, { plan_id: creator.plan.plan_id });
    await pay(started.checkout.redirect_url);

    const result = await fan.client.call(subs.subscribeCheckoutResult, { payment_id: started.checkout.payment_id });
    expect(result).toMatchObject({ state: 'kept', subscription: null, payment: { status: 'succeeded' } });
    expect(result.message).toBe(fill(MSG.planCheckoutKept, { coins: '400 Coins', reason: MSG.planNotFound }));
    expect(await coinsOf(fan.user.id)).toBe(400);
    await expectConserved();
  });

  it('keeps the coins when the payer subscribed with their wallet meanwhile', async () => {
    const creator = await creatorWithPlan(50);
    const fan = await t.given.signedInUser();
    const started = await startPlanCheckout(fan, creator);
    await t.given.coins(fan.user, 50);
    const paid = await fan.client.request('POST', subs.subscribe.path, { body: { plan_id: creator.plan.plan_id, user_id: creator.user.id }, headers: { 'idempotency-key': 'wallet' } });
    expect(paid.status).toBe(200);
    await pay(started.checkout.redirect_url);
    const result = await fan.client.call(subs.subscribeCheckoutResult, { payment_id: started.checkout.payment_id });
    expect(result).toMatchObject({ state: 'kept', message: fill(MSG.planCheckoutKept, { coins: '50 Coins', reason: MSG.alreadySubscribed }) });
    expect(await coinsOf(fan.user.id)).toBe(50);
    await expectConserved();
  });

  it('answers unpaid, and moves nothing, when the card is declined and the checkout expires', async () => {
    const creator = await creatorWithPlan(50);
    const fan = await t.given.signedInUser();
    const started = await startPlanCheckout(fan, creator);
    await pay(started.checkout.redirect_url, STANDIN_CARDS.declined);
    await stripe.expire(started.checkout.redirect_url.split('/').pop()!);
    const result = await fan.client.call(subs.subscribeCheckoutResult, { payment_id: started.checkout.payment_id });
    expect(result).toMatchObject({ state: 'unpaid', subscription: null, payment: { status: 'expired' } });
    expect((await planCheckoutRow(started.checkout.payment_id)).state).toBe('pending');
    expect(await coinsOf(fan.user.id)).toBe(0);
    await expectConserved();
  });
});
