/**
 * PayPal and bitcoin (BTCPay Server) deposits through the same hosted flow as cards under Stripe
 * (decision 0055), over HTTP, against the local stand-ins of each: the payer approves or pays there,
 * the processor's signed webhook or the return page settles the payment, once, conserved.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/wallet';
import type { CallOutput } from '../../../common/api/define';
import { MSG } from '../../../common/messages';
import { LocalBtcPay } from '../../testing/btcpay-standin';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { closeCheckingLedger, expectLedgerInvariants } from '../../testing/ledger-invariants';
import { LocalPayPal } from '../../testing/paypal-standin';
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
    await expectLedgerInvariants(db());
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
    await expectLedgerInvariants(db());
  });
});
