import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalPayPal } from '../../../testing/paypal-standin';
import { startWebhookReceiver } from '../../../testing/standin-http';
import type { CheckoutRequest, HostedPaymentProvider } from '../hosted-payment';
import { createPayPalProvider, payPalSettings, PAYPAL_LIVE_API } from './paypal';

let paypal: LocalPayPal;
let provider: HostedPaymentProvider;
let counter = 0;

const checkout = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  reference: `pay_${++counter}`,
  amountCents: 1999,
  currency: 'USD',
  description: '2,000 coins',
  returnUrl: 'https://limelight.test/wallet/deposit/return?ref=1',
  cancelUrl: 'https://limelight.test/wallet/deposit/cancel',
  payer: { userId: 7, email: 'pat@example.com' },
  saveForRecurring: false,
  ...overrides,
});

const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
const verify = (delivery: { headers: Record<string, string>; body: string }) => provider.verifyWebhook(Buffer.from(delivery.body), lower(delivery.headers));

/** A checkout the payer approved, captured on return. */
async function paid(request = checkout()) {
  const started = await provider.startCheckout(request);
  await paypal.approve(started.providerRef);
  const event = await provider.completeReturn(started.providerRef);
  return { request, started, event };
}

beforeAll(async () => {
  paypal = await new LocalPayPal().start();
  const settings = payPalSettings(paypal.env());
  if (!settings.ok) throw new Error('stand-in settings refused');
  provider = createPayPalProvider(settings.options);
});
afterAll(() => paypal.close());

describe('the PayPal adapter', () => {
  it('creates an order with our reference, sends the payer to approve it, and captures it on return', async () => {
    const request = checkout();
    const started = await provider.startCheckout(request);
    expect(started.redirectUrl).toBe(`${paypal.url}/checkoutnow?token=${started.providerRef}`);
    const create = paypal.calls.find((c) => c.path === '/v2/checkout/orders' && c.method === 'POST' && JSON.parse(c.body).purchase_units[0].custom_id === request.reference)!;
    expect(create.headers['paypal-request-id']).toBe(`order-${request.reference}`);
    expect(JSON.parse(create.body)).toMatchObject({
      intent: 'CAPTURE',
      purchase_units: [{ custom_id: request.reference, amount: { currency_code: 'USD', value: '19.99' } }],
      payment_source: { paypal: { experience_context: { return_url: request.returnUrl, cancel_url: request.cancelUrl } } },
    });
    expect(await provider.completeReturn(started.providerRef)).toBeNull();

    const back = await paypal.approve(started.providerRef);
    expect(back).toMatch(new RegExp(`^${request.returnUrl.replace('?', '\\?')}&token=${started.providerRef}&PayerID=`));
    const event = await provider.completeReturn(started.providerRef);
    expect(event).toMatchObject({ kind: 'payment.succeeded', providerRef: started.providerRef, reference: request.reference, amountCents: 1999, eventId: `${started.providerRef}:payment.succeeded` });
    // Captured once, however often the payer comes back.
    expect(await provider.completeReturn(started.providerRef)).toEqual(event);
    expect(paypal.captures.size).toBe([...paypal.orders.values()].filter((o) => o.captureId).length);
    const captureId = paypal.orders.get(started.providerRef)!.captureId!;
    expect(event!.paymentRef).toBe(captureId);

    const completed = paypal.deliveriesOf('PAYMENT.CAPTURE.COMPLETED').at(-1)!;
    expect(await verify(completed)).toEqual({
      ok: true,
      events: [
        { eventId: completed.event.id, kind: 'payment.succeeded', providerRef: started.providerRef, reference: request.reference, paymentRef: captureId, amountCents: 1999, occurredAt: expect.any(Date) },
      ],
    });
  });

  it('answers the same order when the same deposit starts twice', async () => {
    const request = checkout();
    const first = await provider.startCheckout(request);
    expect(await provider.startCheckout(request)).toEqual(first);
    expect((await provider.startCheckout({ ...request, reference: `${request.reference}b` })).providerRef).not.toBe(first.providerRef);
  });

  it('captures an order approved by a payer who never came back, from its webhook or when asked', async () => {
    const fromWebhook = await provider.startCheckout(checkout());
    await paypal.approve(fromWebhook.providerRef);
    const approved = paypal.deliveriesOf('CHECKOUT.ORDER.APPROVED').at(-1)!;
    expect(await verify(approved)).toMatchObject({ ok: true, events: [{ eventId: approved.event.id, kind: 'payment.succeeded', providerRef: fromWebhook.providerRef }] });
    expect(paypal.orders.get(fromWebhook.providerRef)!.status).toBe('COMPLETED');

    const fromLookup = await provider.startCheckout(checkout());
    expect(await provider.lookup(fromLookup.providerRef)).toBeNull();
    await paypal.approve(fromLookup.providerRef);
    expect(await provider.lookup(fromLookup.providerRef)).toMatchObject({ kind: 'payment.succeeded', providerRef: fromLookup.providerRef });
  });

  it('leaves a cancelled checkout uncaptured', async () => {
    const started = await provider.startCheckout(checkout());
    const page = await fetch(started.redirectUrl);
    expect(await page.text()).toContain('Cancel and return');
    const cancel = await fetch(`${paypal.url}/checkoutnow/cancel?token=${started.providerRef}`, { method: 'POST', redirect: 'manual' });
    expect(cancel.headers.get('location')).toBe(`https://limelight.test/wallet/deposit/cancel?token=${started.providerRef}`);
    expect(await provider.completeReturn(started.providerRef)).toBeNull();
    expect(await provider.lookup(started.providerRef)).toBeNull();
  });

  it('lets a browser approve on the approval page and sends it back to our return URL', async () => {
    const request = checkout();
    const started = await provider.startCheckout(request);
    const approve = await fetch(`${paypal.url}/checkoutnow/approve?token=${started.providerRef}`, { method: 'POST', redirect: 'manual' });
    expect(approve.status).toBe(303);
    expect(approve.headers.get('location')).toContain(`${request.returnUrl}&token=${started.providerRef}&PayerID=`);
    expect(await provider.completeReturn(started.providerRef)).toMatchObject({ kind: 'payment.succeeded' });
    const declined = await provider.startCheckout(checkout());
    await fetch(`${paypal.url}/checkoutnow/decline?token=${declined.providerRef}`, { method: 'POST', redirect: 'manual' });
    expect(await provider.completeReturn(declined.providerRef)).toMatchObject({ kind: 'payment.failed' });
  });

  it('reports a declined capture as a failed payment, on return and by webhook', async () => {
    const started = await provider.startCheckout(checkout());
    await paypal.approve(started.providerRef, 'declined');
    expect(await provider.completeReturn(started.providerRef)).toMatchObject({ kind: 'payment.failed', message: 'DECLINED_BY_RISK_FRAUD_FILTERS' });
    const denied = paypal.deliveriesOf('PAYMENT.CAPTURE.DENIED').at(-1)!;
    expect(await verify(denied)).toMatchObject({ ok: true, events: [{ kind: 'payment.failed', providerRef: started.providerRef }] });

    const refusedFunding = await provider.startCheckout(checkout());
    await paypal.approve(refusedFunding.providerRef, 'instrument_declined');
    expect(await provider.completeReturn(refusedFunding.providerRef)).toMatchObject({ kind: 'payment.failed', message: expect.stringContaining('declined by the processor or bank') });
    expect(paypal.orders.get(refusedFunding.providerRef)!.captureId).toBeUndefined();
  });

  it('gives a resent webhook the same event id', async () => {
    await paid();
    const completed = paypal.deliveriesOf('PAYMENT.CAPTURE.COMPLETED').at(-1)!;
    const resent = await paypal.resend(String(completed.event.id));
    expect(resent.headers['PAYPAL-TRANSMISSION-ID']).not.toBe(completed.headers['PAYPAL-TRANSMISSION-ID']);
    const [first, again] = await Promise.all([verify(completed), verify(resent)]);
    expect(first.ok && again.ok && again.events[0]!.eventId).toBe(first.ok && first.events[0]!.eventId);
  });

  it('refuses a webhook PayPal did not send: altered, another webhook id, unsigned or not JSON', async () => {
    await paid();
    const completed = paypal.deliveriesOf('PAYMENT.CAPTURE.COMPLETED').at(-1)!;
    expect(await verify({ headers: completed.headers, body: completed.body.replace('"19.99"', '"99.99"') })).toEqual({ ok: false, reason: 'bad_signature' });
    const otherWebhook = createPayPalProvider({ apiBase: paypal.url, clientId: paypal.clientId, clientSecret: paypal.clientSecret, webhookId: 'WH-SOMEONE-ELSE' });
    expect(await otherWebhook.verifyWebhook(Buffer.from(completed.body), lower(completed.headers))).toEqual({ ok: false, reason: 'bad_signature' });
    const { ['PAYPAL-TRANSMISSION-SIG']: _sig, ...unsigned } = completed.headers;
    expect(await verify({ headers: unsigned, body: completed.body })).toEqual({ ok: false, reason: 'unsigned' });
    expect(await verify({ headers: completed.headers, body: '{"id":' })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refunds a capture once per reference, and its webhook takes the coins back', async () => {
    const { started } = await paid(checkout({ amountCents: 2500 }));
    const part = await provider.refund(started.providerRef, 1000, 'refund_a');
    expect(part).toEqual({ refundRef: expect.any(String), status: 'succeeded' });
    expect(await provider.refund(started.providerRef, 1000, 'refund_a')).toEqual(part);
    expect(paypal.refunds.filter((r) => r.id === part.refundRef)).toHaveLength(1);
    const refunded = paypal.deliveriesOf('PAYMENT.CAPTURE.REFUNDED').at(-1)!;
    const captureId = paypal.orders.get(started.providerRef)!.captureId!;
    expect(await verify(refunded)).toMatchObject({
      ok: true,
      events: [{ kind: 'refund.succeeded', providerRef: started.providerRef, paymentRef: captureId, subjectRef: part.refundRef, amountCents: 1000, eventId: refunded.event.id }],
    });
    // Given the capture (the payment's paymentRef) rather than the order.
    expect(await provider.refund(captureId, 500, 'refund_by_capture')).toMatchObject({ status: 'succeeded' });
    expect(await provider.refund(started.providerRef, 1500, 'refund_b')).toEqual({ refundRef: '', status: 'failed', message: expect.stringContaining('not yet been refunded') });
    const uncaptured = await provider.startCheckout(checkout());
    expect(await provider.refund(uncaptured.providerRef, 100, 'refund_c')).toMatchObject({ status: 'failed' });
  });

  it('reports a reversal as money given back', async () => {
    const { started, request } = await paid();
    await paypal.reverse(started.providerRef);
    expect(await verify(paypal.deliveriesOf('PAYMENT.CAPTURE.REVERSED').at(-1)!)).toMatchObject({
      ok: true,
      events: [{ kind: 'refund.succeeded', providerRef: started.providerRef, reference: request.reference, amountCents: 1999 }],
    });
  });

  it('reports a dispute opened and how it closed', async () => {
    const { started, request } = await paid();
    const disputeId = await paypal.openDispute(started.providerRef);
    expect(await verify(paypal.deliveriesOf('CUSTOMER.DISPUTE.CREATED').at(-1)!)).toMatchObject({
      ok: true,
      events: [{ kind: 'dispute.opened', providerRef: started.providerRef, reference: request.reference, subjectRef: disputeId, amountCents: 1999, message: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED' }],
    });
    await paypal.resolveDispute(disputeId, 'RESOLVED_SELLER_FAVOUR');
    expect(await verify(paypal.deliveriesOf('CUSTOMER.DISPUTE.RESOLVED').at(-1)!)).toMatchObject({ ok: true, events: [{ kind: 'dispute.closed', won: true, subjectRef: disputeId }] });
    await paypal.resolveDispute(disputeId, 'RESOLVED_BUYER_FAVOUR');
    expect(await verify(paypal.deliveriesOf('CUSTOMER.DISPUTE.RESOLVED').at(-1)!)).toMatchObject({ ok: true, events: [{ kind: 'dispute.closed', won: false }] });
  });

  it('keeps its token until it expires, and fetches a new one when PayPal forgets it', async () => {
    const own = await new LocalPayPal().start();
    try {
      const client = createPayPalProvider({ apiBase: own.url, clientId: own.clientId, clientSecret: own.clientSecret, webhookId: own.webhookId });
      const first = await client.startCheckout(checkout());
      await client.lookup(first.providerRef);
      expect(own.tokensIssued).toBe(1);
      own.expireTokens();
      expect(await client.lookup(first.providerRef)).toBeNull();
      expect(own.tokensIssued).toBe(2);

      // A short-lived token is renewed once its time is up, before a call is refused with it.
      own.tokenLifetimeSeconds = 1;
      own.expireTokens();
      await client.lookup(first.providerRef);
      const refused = own.tokensRefused;
      expect(own.tokensIssued).toBe(3);
      await client.lookup(first.providerRef);
      expect(own.tokensIssued).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await client.lookup(first.providerRef);
      expect([own.tokensIssued, own.tokensRefused]).toEqual([4, refused]);

      const wrong = createPayPalProvider({ apiBase: own.url, clientId: own.clientId, clientSecret: 'wrong', webhookId: own.webhookId });
      await expect(wrong.lookup(first.providerRef)).rejects.toThrow('PayPal is unavailable: no access token (HTTP 401)');
    } finally {
      await own.close();
    }
  });

  it('receives the webhooks PayPal POSTs, and has PayPal check them over the raw body', async () => {
    const receiver = await startWebhookReceiver();
    paypal.webhookUrl = receiver.url;
    try {
      const { started } = await paid();
      expect(receiver.received.map((r) => JSON.parse(r.body.toString()).event_type)).toEqual(['CHECKOUT.ORDER.APPROVED', 'PAYMENT.CAPTURE.COMPLETED']);
      const completed = receiver.received[1]!;
      expect(completed.headers['paypal-auth-algo']).toBe('SHA256withRSA');
      expect(await provider.verifyWebhook(completed.body, completed.headers)).toMatchObject({ ok: true, events: [{ kind: 'payment.succeeded', providerRef: started.providerRef }] });
    } finally {
      paypal.webhookUrl = undefined;
      await receiver.close();
    }
  });

  it('never captures an order approved after its time ran out, and reports it expired', async () => {
    const started = await provider.startCheckout(checkout());
    expect(started.expiresAt.getTime() - Date.now()).toBeGreaterThan(2.9 * 3600 * 1000);
    paypal.orders.get(started.providerRef)!.createTime = new Date(Date.now() - 4 * 3600 * 1000).toISOString();
    expect(await provider.lookup(started.providerRef)).toMatchObject({ kind: 'payment.expired' });
    await paypal.approve(started.providerRef);
    expect(await verify(paypal.deliveriesOf('CHECKOUT.ORDER.APPROVED').at(-1)!)).toMatchObject({ ok: true, events: [{ kind: 'payment.expired' }] });
    expect(await provider.completeReturn(started.providerRef)).toMatchObject({ kind: 'payment.expired' });
    expect(paypal.orders.get(started.providerRef)!.captureId).toBeUndefined();
  });

  it('reports an order PayPal no longer has as expired', async () => {
    expect(await provider.lookup('5O190127TN364715T')).toMatchObject({ kind: 'payment.expired', providerRef: '5O190127TN364715T' });
    expect(await provider.lookup('../v1/oauth2')).toBeNull();
  });

  it('reads its settings: the live API unless told otherwise, the three credentials all or none', () => {
    expect(payPalSettings({})).toEqual({ ok: false, absent: true, missing: ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'], invalid: [] });
    expect(payPalSettings({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_WEBHOOK_ID: '8PT597110X687430LKGECATA' })).toMatchObject({ ok: true, options: { apiBase: PAYPAL_LIVE_API } });
    expect(payPalSettings({ PAYPAL_CLIENT_ID: 'id', PAYPAL_API_BASE: 'not a url' })).toEqual({
      ok: false,
      absent: false,
      missing: ['PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'],
      invalid: ['PAYPAL_API_BASE: not a URL'],
    });
  });
});
