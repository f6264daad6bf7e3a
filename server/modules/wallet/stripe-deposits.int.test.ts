/**
 * Card deposits through Stripe Checkout (decision 0055), over HTTP, against the local Stripe stand-in:
 * the official SDK pointed at it, its hosted page paid as a payer would, its signed events posted to
 * our webhook. Every case ends with the books checked for conservation.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/wallet';
import type { CallOutput } from '../../../common/api/define';
import { MSG } from '../../../common/messages';
import type { TestApp, TestUser } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { eventually } from '../../testing/eventually';
import { expectLedgerInvariants } from '../../testing/ledger-invariants';
import { startStripeTestApp } from '../../testing/stripe-app';
import { payOnHostedPage, STANDIN_CARDS, type StandinEvent, type StripeStandin } from '../../testing/stripe-standin';
import { RECONCILE_LEASE_MS } from './hosted-deposits';
import { hostedWebhookPath } from './routes';
import { coinSubscriptions, paymentCards, paymentEvents, payments } from './tables';

let t: TestApp;
let stripe: StripeStandin;
let pkg: CallOutput<typeof api.coinPackages>['packages'][number];

let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, stripe, close } = await startStripeTestApp());
  pkg = (await t.client().call(api.coinPackages, {})).packages[0]!;
});
afterAll(() => close?.());

const db = () => t.resources.database.db;
const minutes = (n: number) => n * 60_000;

async function buyer(): Promise<{ user: TestUser; client: HttpSession }> {
  const user = await t.given.user();
  return { user, client: await t.given.signedIn(user) };
}

const coinsOf = async (client: HttpSession) => (await client.call(api.walletBalance, {})).balance.CON;

async function startCheckout(client: HttpSession, extra: { renew_monthly?: boolean } = {}) {
  const res = await client.call(api.depositCoins, { package_id: pkg.package_id, payment_method: 'card', return_path: '/user/account/deposit-coins', ...extra });
  expect(res.transfer_id).toBe(0);
  return res.checkout!;
}

/** The payer on the hosted page: types a card and submits; answers the page's status and where it sends them. */
async function pay(redirectUrl: string, number: string) {
  const { pageStatus, pageHtml, ...answer } = await payOnHostedPage(redirectUrl, number);
  expect(pageStatus).toBe(200);
  expect(pageHtml).toContain(pkg.name);
  return answer;
}

async function threeDSecure(redirectUrl: string, action: 'authorise' | 'fail') {
  const res = await fetch(`${redirectUrl}/3ds`, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `action=${action}`,
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

const result = (client: HttpSession, paymentId: number) => client.call(api.depositResult, { payment_id: paymentId });
const paymentRow = async (id: number) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
const sessionIdOf = (redirectUrl: string) => redirectUrl.split('/').pop()!;
const eventsOfType = (type: string, sessionId?: string) =>
  stripe.events.filter((e) => e.type === type && (sessionId === undefined || e.object.id === sessionId));

async function mailsTo(email: string, atLeast = 1) {
  const read = async () => (await db().execute(sql`select subject, text from mail_outbox where "to" = ${email} order by id`)).rows as Array<{ subject: string; text: string }>;
  return eventually(read, (mails) => mails.length >= atLeast);
}

async function postWebhook(body: string, headers: Record<string, string>) {
  return t.client().request('POST', hostedWebhookPath('stripe'), { rawBody: body, csrf: false, headers: { 'content-type': 'application/json', ...headers } });
}

describe('the deposit page', () => {
  it('offers the card as paid on the processor page, and refuses a card typed in', async () => {
    const methods = (await t.client().call(api.paymentMethods, {})).methods;
    expect(methods.find((m) => m.id === 'card')).toEqual({ id: 'card', available: true, reason: null, checkout: true });
    const { client } = await buyer();
    const res = await client.post(api.depositCoins.path, {
      package_id: pkg.package_id, payment_method: 'card', card: { number: STANDIN_CARDS.succeeds, exp_month: 12, exp_year: 2034, cvc: '123', name: 'Pat' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: MSG.cardOnProcessorPage });
    const badPath = await client.post(api.depositCoins.path, { package_id: pkg.package_id, payment_method: 'card', return_path: '//evil.example/x' });
    expect(badPath.status).toBe(400);
  });
});

describe('the webhook routes of processors not configured here', () => {
  it('answer 404, saying the processor is not available yet', async () => {
    for (const name of ['paypal', 'btcpay']) {
      const other = await t.client().request('POST', hostedWebhookPath(name), { rawBody: '{"id":"WH-1"}', csrf: false, headers: { 'content-type': 'application/json' } });
      expect(other.status).toBe(404);
      expect(other.body).toMatchObject({ message: MSG.processorNotConfigured });
    }
    // Stripe's, configured, checks the signature.
    expect((await postWebhook('{"id":"WH-1"}', {})).status).toBe(401);
  });
});

describe('paying on the hosted page', () => {
  it('credits the coins once the checkout completes, shows the reference, and mails a receipt', async () => {
    const { user, client } = await buyer();
    const checkout = await startCheckout(client);
    expect(checkout.redirect_url).toMatch(new RegExp(`^${stripe.baseUrl}/pay/cs_test_`));
    expect(new Date(checkout.expires_at).getTime()).toBeGreaterThan(Date.now() + minutes(29));
    const session = stripe.session(sessionIdOf(checkout.redirect_url))!;
    expect(session).toMatchObject({ client_reference_id: `pay_${checkout.payment_id}`, amount_total: pkg.price, currency: pkg.currency.toLowerCase(), mode: 'payment' });
    expect(String(session.success_url)).toMatch(new RegExp(`/user/account/deposit-coins\\?payment=${checkout.payment_id}&outcome=success$`));

    const paid = await pay(checkout.redirect_url, STANDIN_CARDS.succeeds);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(session.success_url);
    const answer = await result(client, checkout.payment_id);
    expect(answer).toMatchObject({ status: 'succeeded', coins: pkg.coins, amount: pkg.price, currency: pkg.currency, provider_reference: expect.stringMatching(/^pi_/) });
    expect(await coinsOf(client)).toBe(pkg.coins);

    const history = (await client.call(api.walletTransfers, {})).transfers;
    expect(history.find((line) => line.kind === 'deposit' && line.currency === 'CON')).toMatchObject({ amount: pkg.coins, payment_reference: `stripe:${answer.provider_reference}` });
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your receipt: ${pkg.name}`);
    expect(mails[0]!.text).toContain(answer.provider_reference!);
    expect(mails[0]!.text).not.toMatch(/4242|sk_test|whsec_/);
    // Someone else's payment is not theirs to read.
    const other = await buyer();
    expect((await other.client.refusal(api.depositResult, { payment_id: checkout.payment_id })).status).toBe(404);
    await expectLedgerInvariants(db());
  });

  it('takes a card that asks for 3-D Secure once the payer authenticates, and nothing when they fail it', async () => {
    const { client } = await buyer();
    const checkout = await startCheckout(client);
    const asked = await pay(checkout.redirect_url, STANDIN_CARDS.threeDSecure);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('3-D Secure');
    const failed = await threeDSecure(checkout.redirect_url, 'fail');
    expect(failed.status).toBe(402);
    expect((await result(client, checkout.payment_id)).status).toBe('pending');
    expect(await coinsOf(client)).toBe(0);

    await pay(checkout.redirect_url, STANDIN_CARDS.threeDSecure);
    const authorised = await threeDSecure(checkout.redirect_url, 'authorise');
    expect(authorised.status).toBe(303);
    expect((await result(client, checkout.payment_id)).status).toBe('succeeded');
    expect(await coinsOf(client)).toBe(pkg.coins);
    await expectLedgerInvariants(db());
  });

  it('credits nothing for a declined card or one without funds; the abandoned checkout ends expired', async () => {
    const { client } = await buyer();
    const checkout = await startCheckout(client);
    const declined = await pay(checkout.redirect_url, STANDIN_CARDS.declined);
    expect(declined.status).toBe(402);
    expect(declined.html).toContain('Your card was declined.');
    const poor = await pay(checkout.redirect_url, STANDIN_CARDS.insufficientFunds);
    expect(poor.status).toBe(402);
    expect(poor.html).toContain('Your card has insufficient funds.');
    expect((await result(client, checkout.payment_id)).status).toBe('pending');

    await stripe.expire(sessionIdOf(checkout.redirect_url));
    expect((await result(client, checkout.payment_id)).status).toBe('expired');
    expect(await coinsOf(client)).toBe(0);
    // A late success for an expired checkout moves nothing either.
    const completed: StandinEvent = { id: 'evt_late_success', type: 'checkout.session.completed', object: { ...stripe.session(sessionIdOf(checkout.redirect_url))!, payment_status: 'paid' } };
    expect(await stripe.deliver(completed)).toBe(200);
    expect(await coinsOf(client)).toBe(0);
    await expectLedgerInvariants(db());
  });

  it('credits a payer who never came back to the site, when the webhook arrives', async () => {
    const { client } = await buyer();
    const checkout = await startCheckout(client);
    await pay(checkout.redirect_url, STANDIN_CARDS.succeeds);
    // No deposit-result call: the webhook alone settled it.
    expect((await paymentRow(checkout.payment_id)).status).toBe('succeeded');
    expect(await coinsOf(client)).toBe(pkg.coins);
    await expectLedgerInvariants(db());
  });
});

describe('the webhook', () => {
  it('moves nothing for a replayed event, and stores each event once', async () => {
    const { client } = await buyer();
    const checkout = await startCheckout(client);
    await pay(checkout.redirect_url, STANDIN_CARDS.succeeds);
    const [completed] = eventsOfType('checkout.session.completed', sessionIdOf(checkout.redirect_url));
    for (let i = 0; i < 3; i++) expect(await stripe.deliver(completed!)).toBe(200);
    expect(await coinsOf(client)).toBe(pkg.coins);
    const stored = await db().select().from(paymentEvents).where(and(eq(paymentEvents.provider, 'stripe'), eq(paymentEvents.eventId, completed!.id)));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: 'payment.succeeded', outcome: 'applied', paymentId: checkout.payment_id });
    await expectLedgerInvariants(db());
  });

  it('ignores a failure reported after the success', async () => {
    const { client } = await buyer();
    const checkout = await startCheckout(client);
    await pay(checkout.redirect_url, STANDIN_CARDS.succeeds);
    const failed: StandinEvent = { id: `evt_failed_after_${checkout.payment_id}`, type: 'checkout.session.async_payment_failed', object: stripe.session(sessionIdOf(checkout.redirect_url))! };
    expect(await stripe.deliver(failed)).toBe(200);
    expect((await paymentRow(checkout.payment_id)).status).toBe('succeeded');
    expect(await coinsOf(client)).toBe(pkg.coins);
    await expectLedgerInvariants(db());
  });

  it('applies a refund that arrives before its payment once the payment arrives, and takes the coins back once', async () => {
    const { client } = await buyer();
    const checkout = await startCheckout(client);
    stripe.webhookMode = 'hold';
    try {
      await pay(checkout.redirect_url, STANDIN_CARDS.succeeds);
      const intent = String(stripe.session(sessionIdOf(checkout.redirect_url))!.payment_intent);
      const half = Math.floor(pkg.price / 2);
      const refund = await fetch(`${stripe.baseUrl}/v1/refunds`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stripe.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: `payment_intent=${intent}&amount=${half}`,
      });
      expect(refund.status).toBe(200);
      // Delivered the wrong way round: the refund first.
      const held = stripe.undelivered.splice(0).reverse();
      expect(held.map((e) => e.type)).toEqual(['charge.refunded', 'checkout.session.completed']);
      expect(await stripe.deliver(held[0]!)).toBe(200);
      expect(await coinsOf(client)).toBe(0);
      expect(await stripe.deliver(held[1]!)).toBe(200);
      expect(await coinsOf(client)).toBe(pkg.coins - Math.floor((pkg.coins * half) / pkg.price));
      // Both again: nothing more moves.
      for (const event of held) expect(await stripe.deliver(event)).toBe(200);
      expect(await coinsOf(client)).toBe(pkg.coins - Math.floor((pkg.coins * half) / pkg.price));
      expect((await paymentRow(checkout.payment_id)).refundedCents).toBe(half);
      const history = (await client.call(api.walletTransfers, {})).transfers;
      expect(history.find((line) => line.kind === 'refund' && line.currency === 'CON')?.payment_reference).toMatch(/^stripe:re_/);
    } finally {
      stripe.webhookMode = 'deliver';
    }
    await expectLedgerInvariants(db());
  });

  it('refuses an unsigned delivery (401), a wrong or stale signature (400), and a body that is not an event', async () => {
    const body = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'checkout.session.completed', created: 1, data: { object: {} } });
    expect((await postWebhook(body, {})).status).toBe(401);
    expect((await postWebhook(body, { 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` })).status).toBe(400);
    expect((await postWebhook(body, { 'stripe-signature': stripe.sign(body, Math.floor(Date.now() / 1000) - 3600) })).status).toBe(400);
    expect((await postWebhook(body, { 'stripe-signature': stripe.sign(`${body} `) })).status).toBe(400);
    expect((await postWebhook('not json', { 'stripe-signature': stripe.sign('not json') })).status).toBe(400);
    const rows = await db().select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_forged'));
    expect(rows).toEqual([]);
  });
});

describe('refunds and disputes', () => {
  async function paidDeposit() {
    const { user, client } = await buyer();
    const checkout = await startCheckout(client);
    await pay(checkout.redirect_url, STANDIN_CARDS.succeeds);
    expect(await coinsOf(client)).toBe(pkg.coins);
    return { user, client, paymentId: checkout.payment_id, intent: String(stripe.session(sessionIdOf(checkout.redirect_url))!.payment_intent) };
  }

  it('lets an administrator give a deposit back through Stripe; the coins leave when Stripe confirms, once', async () => {
    const { client, paymentId } = await paidDeposit();
    const { client: admin } = await t.given.signedInUser({ role: 'admin' });
    expect((await client.refusal(api.refundPayment, { payment_id: paymentId })).status).toBe(403);
    const tooMuch = await admin.post(api.refundPayment.path, { payment_id: paymentId, amount: pkg.price + 1 });
    expect(tooMuch.status).toBe(400);
    const quarter = Math.floor(pkg.price / 4);
    const first = await admin.call(api.refundPayment, { payment_id: paymentId, amount: quarter });
    expect(first).toMatchObject({ status: 'succeeded', amount: quarter, refund_reference: expect.stringMatching(/^re_/) });
    const afterFirst = pkg.coins - Math.floor((pkg.coins * quarter) / pkg.price);
    expect(await coinsOf(client)).toBe(afterFirst);
    // The rest; then nothing is left to give back.
    const rest = await admin.call(api.refundPayment, { payment_id: paymentId });
    expect(rest.amount).toBe(pkg.price - quarter);
    expect(await coinsOf(client)).toBe(0);
    expect((await admin.refusal(api.refundPayment, { payment_id: paymentId })).status).toBe(409);
    expect((await paymentRow(paymentId)).refundedCents).toBe(pkg.price);
    await expectLedgerInvariants(db());
  });

  it('answers 409 for a second refund of another amount while the first is unconfirmed', async () => {
    const { paymentId } = await paidDeposit();
    const { client: admin } = await t.given.signedInUser({ role: 'admin' });
    stripe.webhookMode = 'hold';
    try {
      expect((await admin.call(api.refundPayment, { payment_id: paymentId, amount: 100 })).status).toBe('succeeded');
      // A double click: the same refund, not another.
      expect((await admin.call(api.refundPayment, { payment_id: paymentId, amount: 100 })).status).toBe('succeeded');
      expect((await admin.refusal(api.refundPayment, { payment_id: paymentId, amount: 200 })).status).toBe(409);
      await stripe.flush();
    } finally {
      stripe.webhookMode = 'deliver';
    }
    expect((await paymentRow(paymentId)).refundedCents).toBe(100);
    await expectLedgerInvariants(db());
  });

  it('takes the coins back for a dispute, as far as the wallet holds them', async () => {
    const { user, client, paymentId, intent } = await paidDeposit();
    // Half the coins already spent (given to another user).
    const other = await buyer();
    await t.given.coins(other.user, 1);
    const spent = Math.floor(pkg.coins / 2);
    await t.app.services.ledger.transfer({
      kind: 'adjustment', idempotencyKey: `spend:${user.id}`, fromUserId: user.id, toUserId: other.user.id, amount: spent, currency: 'CON',
      legs: [{ account: { userId: user.id, currency: 'CON' }, amount: -spent }, { account: { userId: other.user.id, currency: 'CON' }, amount: spent }],
    });
    const disputeId = await stripe.dispute(intent);
    expect(await coinsOf(client)).toBe(0);
    const [stored] = await db().select().from(paymentEvents).where(and(eq(paymentEvents.provider, 'stripe'), eq(paymentEvents.subjectRef, disputeId)));
    expect(stored).toMatchObject({ kind: 'dispute.opened', outcome: 'applied', paymentId });
    await stripe.closeDispute(disputeId, 'lost');
    expect(await coinsOf(client)).toBe(0);
    expect((await paymentRow(paymentId)).refundedCents).toBe(pkg.price);
    await expectLedgerInvariants(db());
  });
});

describe('reconciling pending payments', () => {
  it('credits a payment whose webhook was lost, once its checkout has expired, asking Stripe', async () => {
    const { client } = await buyer();
    const checkout = await startCheckout(client);
    stripe.webhookMode = 'drop';
    try {
      await pay(checkout.redirect_url, STANDIN_CARDS.succeeds);
    } finally {
      stripe.webhookMode = 'deliver';
    }
    expect(await coinsOf(client)).toBe(0);
    const reconcile = (at: Date) => t.app.services.hostedDeposits.reconcile(at);
    expect((await reconcile(new Date())).asked).toBe(0);
    const expiry = new Date(checkout.expires_at);
    const first = await reconcile(new Date(expiry.getTime() + minutes(1)));
    expect(first.asked).toBeGreaterThanOrEqual(1);
    expect((await paymentRow(checkout.payment_id)).status).toBe('succeeded');
    expect(await coinsOf(client)).toBe(pkg.coins);
    await expectLedgerInvariants(db());
  });

  it('asks about each payment once when two reconcilers run at once, and again only after the lease', async () => {
    const payers = await Promise.all([buyer(), buyer(), buyer()]);
    const checkouts = [];
    stripe.webhookMode = 'drop';
    try {
      for (const { client } of payers) {
        const checkout = await startCheckout(client);
        checkouts.push(checkout);
      }
      // Two paid, one left open on the page.
      await pay(checkouts[0]!.redirect_url, STANDIN_CARDS.succeeds);
      await pay(checkouts[1]!.redirect_url, STANDIN_CARDS.succeeds);
    } finally {
      stripe.webhookMode = 'deliver';
    }
    const later = new Date(Math.max(...checkouts.map((c) => new Date(c.expires_at).getTime())) + minutes(1));
    const runs = await Promise.all([t.app.services.hostedDeposits.reconcile(later), t.app.services.hostedDeposits.reconcile(later)]);
    const mine = new Set(checkouts.map((c) => c.payment_id));
    expect(runs.reduce((n, r) => n + r.asked, 0)).toBeGreaterThanOrEqual(3);
    for (const [i, { client }] of payers.entries()) expect(await coinsOf(client)).toBe(i < 2 ? pkg.coins : 0);
    const open = await paymentRow(checkouts[2]!.payment_id);
    expect(open.status).toBe('pending');
    expect(new Date(open.reconcileAfter!).getTime()).toBe(later.getTime() + RECONCILE_LEASE_MS);
    // Within the lease nobody asks again; after it, the open one is asked again.
    expect((await t.app.services.hostedDeposits.reconcile(new Date(later.getTime() + minutes(1)))).asked).toBe(0);
    const again = await t.app.services.hostedDeposits.reconcile(new Date(later.getTime() + RECONCILE_LEASE_MS + 1));
    expect(again.asked).toBe(1);
    expect(mine.has(checkouts[2]!.payment_id)).toBe(true);
    await expectLedgerInvariants(db());
  });
});

describe('recurring packages through Stripe', () => {
  async function subscriber(number: string) {
    const { user, client } = await buyer();
    const checkout = await startCheckout(client, { renew_monthly: true });
    const session = stripe.session(sessionIdOf(checkout.redirect_url))!;
    expect(session.customer).toMatch(/^cus_/);
    const paid = await pay(checkout.redirect_url, number);
    if (number === STANDIN_CARDS.threeDSecure) expect((await threeDSecure(checkout.redirect_url, 'authorise')).status).toBe(303);
    else expect(paid.status).toBe(303);
    const payment = await paymentRow(checkout.payment_id);
    const [sub] = await db().select().from(coinSubscriptions).where(eq(coinSubscriptions.id, payment.coinSubscriptionId!));
    return { user, client, sub: sub!, customer: String(session.customer) };
  }

  it('keeps the card Stripe saved and renews it off-session', async () => {
    const { client, sub, customer } = await subscriber(STANDIN_CARDS.succeeds);
    expect(sub.state).toBe('enabled');
    const [card] = await db().select().from(paymentCards).where(eq(paymentCards.id, sub.cardId!));
    expect(card).toMatchObject({ provider: 'stripe', customer, last4: '4242', brand: 'visa' });
    expect(card!.token).toMatch(/^pm_/);
    const outcome = await t.app.services.coinSubscriptions.renewDue(new Date(new Date(sub.expiryDate).getTime() + minutes(1)));
    expect(outcome.renewed).toBeGreaterThanOrEqual(1);
    expect(await coinsOf(client)).toBe(pkg.coins * 2);
    const renewals = await db().select().from(payments).where(eq(payments.coinSubscriptionId, sub.id)).orderBy(payments.id);
    expect(renewals.map((p) => [p.status, p.periodNo])).toEqual([['succeeded', 1], ['succeeded', 2]]);
    expect(renewals[1]!.providerRef).toMatch(/^pi_/);
    // Stripe's own event about the renewal's PaymentIntent finds it settled: nothing more.
    expect(eventsOfType('payment_intent.succeeded').length).toBeGreaterThanOrEqual(1);
    expect(await coinsOf(client)).toBe(pkg.coins * 2);
    await expectLedgerInvariants(db());
  });

  it('cancels the package and tells the subscriber when the bank wants them present (authentication required)', async () => {
    const { user, client, sub } = await subscriber(STANDIN_CARDS.threeDSecure);
    expect(await coinsOf(client)).toBe(pkg.coins);
    await mailsTo(user.email, 1);
    const outcome = await t.app.services.coinSubscriptions.renewDue(new Date(new Date(sub.expiryDate).getTime() + minutes(1)));
    expect(outcome.cancelled).toBeGreaterThanOrEqual(1);
    expect((await db().select().from(coinSubscriptions).where(eq(coinSubscriptions.id, sub.id)))[0]!.state).toBe('cancelled');
    expect(await coinsOf(client)).toBe(pkg.coins);
    const mails = await mailsTo(user.email, 2);
    expect(mails.map((m) => m.subject)).toContain(`Your monthly ${pkg.name} was not renewed`);
    // Whichever came first (the answer to the charge, or Stripe's payment_intent.payment_failed) refused it, once.
    const [refused, ...more] = await db().select().from(payments).where(and(eq(payments.coinSubscriptionId, sub.id), ne(payments.status, 'succeeded')));
    expect(more).toEqual([]);
    expect(['declined', 'failed']).toContain(refused!.status);
    expect(refused!.failure).toMatch(/authentication/);
    await expectLedgerInvariants(db());
  });
});
