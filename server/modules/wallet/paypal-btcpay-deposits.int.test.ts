/**
 * PayPal and bitcoin (BTCPay Server) deposits through the same hosted flow as cards under Stripe
 * (decision 0055), over HTTP, against the local stand-ins of each: the payer approves or pays there,
 * the processor's signed webhook or the return page settles the payment, once, conserved.
 */
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as subs from '../../../common/api/subscriptions';
import * as api from '../../../common/api/wallet';
import type { CallOutput } from '../../../common/api/define';
import { MSG } from '../../../common/messages';
import { LocalBtcPay } from '../../testing/btcpay-standin';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { closeCheckingLedger, expectPaymentsBooked } from '../../testing/ledger-invariants';
import { LocalPayPal } from '../../testing/paypal-standin';
import { RECONCILE_LEASE_MS } from './hosted-deposits';
import { hostedWebhookPath } from './routes';
import { payments } from './tables';

let t: TestApp;
let paypal: LocalPayPal;
let btcpay: LocalBtcPay;
let pkg: CallOutput<typeof api.coinPackages>['packages'][number];

beforeAll(async () => {
  paypal = await new LocalPayPal().start();
  btcpay = await new LocalBtcPay().start();
  t = await startTestApp({ ...paypal.env(), ...btcpay.env() });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  paypal.webhookUrl = `${base}${hostedWebhookPath('paypal')}`;
  btcpay.webhookUrl = `${base}${hostedWebhookPath('btcpay')}`;
  pkg = (await t.client().call(api.coinPackages, {})).packages[0]!;
});
afterAll(async () => {
  await closeCheckingLedger(t);
  await paypal?.close();
  await btcpay?.close();
});

const db = () => t.resources.database.db;
const buyer = async () => (await t.given.signedInUser()).client;
const coinsOf = async (client: HttpSession) => (await client.call(api.walletBalance, {})).balance.CON;
const paymentRow = async (id: number) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
/** The books balance, and the money in is exactly what the succeeded payments took (decisions 0036, 0055). */
const expectConserved = () => expectPaymentsBooked(db());

async function startCheckout(client: HttpSession, method: 'paypal' | 'bitcoin') {
  const res = await client.call(api.depositCoins, { package_id: pkg.package_id, payment_method: method });
  const checkout = res.checkout!;
  return { ...checkout, providerRef: (await paymentRow(checkout.payment_id)).providerRef };
}

describe('the payment methods', () => {
  it('offers PayPal and bitcoin as paid on the processor page, beside the sandbox card', async () => {
    const methods = (await t.client().call(api.paymentMethods, {})).methods;
    expect(methods).toEqual([
      { id: 'card', available: true, reason: null, checkout: false },
      { id: 'paypal', available: true, reason: null, checkout: true },
      { id: 'bitcoin', available: true, reason: null, checkout: true },
    ]);
    const res = await (await buyer()).post(api.depositCoins.path, { package_id: pkg.package_id, payment_method: 'paypal', renew_monthly: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: MSG.renewMonthlyCardOnly });
  });
});

describe('PayPal', () => {
  it('captures an approved order when the payer comes back, and credits it once', async () => {
    const client = await buyer();
    const checkout = await startCheckout(client, 'paypal');
    expect(checkout.redirect_url).toContain(checkout.providerRef);
    await paypal.approve(checkout.providerRef);
    const result = await client.call(api.depositResult, { payment_id: checkout.payment_id });
    expect(result).toMatchObject({ status: 'succeeded', coins: pkg.coins });
    expect(await client.call(api.depositResult, { payment_id: checkout.payment_id })).toMatchObject({ status: 'succeeded' });
    expect(await coinsOf(client)).toBe(pkg.coins);
    await expectConserved();
  });

  it('credits nothing when the payer declines on the approval page', async () => {
    const client = await buyer();
    const checkout = await startCheckout(client, 'paypal');
    await paypal.approve(checkout.providerRef, 'declined');
    const result = await client.call(api.depositResult, { payment_id: checkout.payment_id });
    expect(result.status).not.toBe('succeeded');
    expect(await coinsOf(client)).toBe(0);
    await expectConserved();
  });

  it('pays a plan: the order is captured on return, and that settlement takes the subscription', async () => {
    const creator = await t.given.signedInUser();
    const template = (await creator.client.call(subs.planTemplates, {})).templates[0]!;
    const { plan } = await creator.client.call(subs.planAdd, { template_id: template.template_id, price: template.prices[1]!.price, currency: 'CON' });
    const fan = await t.given.signedInUser();
    const started = await fan.client.call(subs.subscribeCheckout, { plan_id: plan.plan_id, user_id: creator.user.id, payment_method: 'paypal' });
    await paypal.approve((await paymentRow(started.checkout.payment_id)).providerRef);
    const result = await fan.client.call(subs.subscribeCheckoutResult, { payment_id: started.checkout.payment_id });
    expect(result).toMatchObject({ state: 'subscribed', payment: { status: 'succeeded', coins: plan.price } });
    expect(await coinsOf(fan.client)).toBe(0);
    await expectConserved();
  });
});

describe('bitcoin through BTCPay', () => {
  it('credits a settled invoice from its webhook, and nothing for an underpaid one that expired', async () => {
    const client = await buyer();
    const paid = await startCheckout(client, 'bitcoin');
    await btcpay.pay(paid.providerRef, 'full');
    expect((await paymentRow(paid.payment_id)).status).toBe('succeeded');
    expect(await coinsOf(client)).toBe(pkg.coins);

    const short = await startCheckout(client, 'bitcoin');
    await btcpay.pay(short.providerRef, 'partial');
    await btcpay.expire(short.providerRef);
    expect((await paymentRow(short.payment_id)).status).toBe('failed');
    expect(await coinsOf(client)).toBe(pkg.coins);
    await expectConserved();
  });
});

describe('a checkout whose start died half-way', () => {
  it('is closed by the reconcile job after its lease, and a late answer from the processor sends nobody to pay', async () => {
    const client = await buyer();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const reached = new Promise<void>((resolve) => (asked = resolve));
    paypal.beforeCreateOrder = () => {
      asked();
      return held;
    };
    try {
      const deposit = client.send(api.depositCoins, { package_id: pkg.package_id, payment_method: 'paypal' });
      await reached;
      // The payment row is written and the processor has not answered: as after a kill -9 between the two.
      const [row] = await db().select().from(payments).where(eq(payments.status, 'pending')).orderBy(desc(payments.id)).limit(1);
      expect(row!.providerRef).toMatch(/^pending:/);
      const reconcile = t.app.services.hostedDeposits.reconcile;
      expect((await reconcile(new Date())).asked).toBe(0);
      expect((await reconcile(new Date(Date.now() + RECONCILE_LEASE_MS + 1000))).settled).toBeGreaterThanOrEqual(1);
      expect(await paymentRow(row!.id)).toMatchObject({ status: 'failed', transferId: null });

      release();
      const answer = await deposit;
      expect(answer.status).toBe(502);
      expect(await paymentRow(row!.id)).toMatchObject({ status: 'failed' });
    } finally {
      paypal.beforeCreateOrder = undefined;
      release();
    }
    expect(await coinsOf(client)).toBe(0);
    await expectConserved();
  });
});

describe('the webhook routes', () => {
  it('are there for every processor; one not configured here answers 404, saying it is not available', async () => {
    const res = await t.client().request('POST', hostedWebhookPath('stripe'), { rawBody: '{}', csrf: false, headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: MSG.processorNotConfigured });
    // The configured ones check the signature.
    const unsigned = await t.client().request('POST', hostedWebhookPath('btcpay'), { rawBody: '{}', csrf: false, headers: { 'content-type': 'application/json' } });
    expect(unsigned.status).toBe(401);
  });
});
