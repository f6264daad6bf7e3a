import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBtcPay } from '../../../testing/btcpay-standin';
import { startWebhookReceiver } from '../../../testing/standin-http';
import type { CheckoutRequest, HostedPaymentProvider } from '../hosted-payment';
import { btcPaySettings, createBtcPayProvider } from './btcpay';

let btcpay: LocalBtcPay;
let provider: HostedPaymentProvider;
let counter = 0;

const checkout = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  reference: `pay_${++counter}`,
  amountCents: 1999,
  currency: 'USD',
  description: '2,000 coins',
  returnUrl: 'https://limelight.test/wallet/deposit/return',
  cancelUrl: 'https://limelight.test/wallet/deposit/cancel',
  payer: { userId: 7, email: 'pat@example.com' },
  saveForRecurring: false,
  ...overrides,
});

const verify = (delivery: { headers: Record<string, string>; body: string }) =>
  provider.verifyWebhook(Buffer.from(delivery.body), Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v])));

beforeAll(async () => {
  btcpay = await new LocalBtcPay().start();
  const settings = btcPaySettings(btcpay.env());
  if (!settings.ok) throw new Error('stand-in settings refused');
  provider = createBtcPayProvider(settings.options);
});
afterAll(() => btcpay.close());

describe('the BTCPay Server adapter', () => {
  it('sends the payer to the invoice, and a settled invoice is a payment that succeeded, by webhook and on return', async () => {
    const request = checkout();
    const started = await provider.startCheckout(request);
    expect(started.redirectUrl).toBe(`${btcpay.url}/i/${started.providerRef}`);
    expect(started.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const invoice = btcpay.invoices.get(started.providerRef)!;
    expect(invoice).toMatchObject({ amountCents: 1999, currency: 'USD', metadata: { orderId: request.reference } });
    expect(invoice.checkout.redirectURL).toBe(request.returnUrl);
    expect(await provider.completeReturn(started.providerRef)).toBeNull();

    await btcpay.pay(started.providerRef, 'full');
    const settled = btcpay.deliveriesOf(started.providerRef, 'InvoiceSettled')[0]!;
    const verified = await verify(settled);
    expect(verified).toEqual({
      ok: true,
      events: [{ eventId: settled.deliveryId, kind: 'payment.succeeded', providerRef: started.providerRef, reference: request.reference, occurredAt: expect.any(Date) }],
    });
    for (const type of ['InvoiceReceivedPayment', 'InvoiceProcessing']) {
      expect(await verify(btcpay.deliveriesOf(started.providerRef, type)[0]!)).toEqual({ ok: true, events: [] });
    }
    expect(await provider.completeReturn(started.providerRef)).toMatchObject({ kind: 'payment.succeeded', providerRef: started.providerRef, reference: request.reference, amountCents: 1999 });
    expect(await provider.lookup(started.providerRef)).toMatchObject({ kind: 'payment.succeeded' });
  });

  it('answers the open invoice again when the same deposit starts twice', async () => {
    const request = checkout();
    const first = await provider.startCheckout(request);
    const again = await provider.startCheckout(request);
    expect(again).toEqual(first);
    expect([...btcpay.invoices.values()].filter((i) => i.metadata.orderId === request.reference)).toHaveLength(1);
    const other = await provider.startCheckout({ ...request, amountCents: 4999 });
    expect(other.providerRef).not.toBe(first.providerRef);
  });

  it('gives a redelivered webhook the id of the first delivery', async () => {
    const started = await provider.startCheckout(checkout());
    await btcpay.pay(started.providerRef, 'full');
    const settled = btcpay.deliveriesOf(started.providerRef, 'InvoiceSettled')[0]!;
    const replay = await btcpay.redeliver(settled.deliveryId);
    const replayOfReplay = await btcpay.redeliver(replay.deliveryId);
    const ids = await Promise.all([settled, replay, replayOfReplay].map(async (d) => {
      const verified = await verify(d);
      return verified.ok ? verified.events.map((e) => e.eventId) : [];
    }));
    expect(ids).toEqual([[settled.deliveryId], [settled.deliveryId], [settled.deliveryId]]);
  });

  it('refuses a webhook that is unsigned, signed with another secret, altered or not JSON', async () => {
    const started = await provider.startCheckout(checkout());
    await btcpay.pay(started.providerRef, 'full');
    const settled = btcpay.deliveriesOf(started.providerRef, 'InvoiceSettled')[0]!;
    expect(await verify({ headers: {}, body: settled.body })).toEqual({ ok: false, reason: 'unsigned' });
    expect(await verify({ headers: settled.headers, body: settled.body.replace('InvoiceSettled', 'InvoiceSettleD') })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await verify({ headers: { 'BTCPay-Sig': 'sha256=abc' }, body: settled.body })).toEqual({ ok: false, reason: 'bad_signature' });
    const other = createBtcPayProvider({ url: btcpay.url, apiKey: btcpay.apiKey, storeId: btcpay.storeId, webhookSecret: 'another secret entirely' });
    expect(await other.verifyWebhook(Buffer.from(settled.body), { 'btcpay-sig': settled.headers['BTCPay-Sig'] })).toEqual({ ok: false, reason: 'bad_signature' });
    const { createHmac } = await import('node:crypto');
    const notJson = 'not json';
    expect(await verify({ headers: { 'BTCPay-Sig': `sha256=${createHmac('sha256', btcpay.webhookSecret).update(notJson).digest('hex')}` }, body: notJson })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('reports an invoice that ran out unpaid as expired', async () => {
    const started = await provider.startCheckout(checkout());
    await btcpay.expire(started.providerRef);
    const expired = btcpay.deliveriesOf(started.providerRef, 'InvoiceExpired')[0]!;
    expect(await verify(expired)).toMatchObject({ ok: true, events: [{ kind: 'payment.expired', providerRef: started.providerRef, eventId: expired.deliveryId }] });
    expect(await provider.lookup(started.providerRef)).toMatchObject({ kind: 'payment.expired' });
  });

  it('holds a partial payment: nothing final while it is open, underpaid with the amount paid once it expires', async () => {
    const started = await provider.startCheckout(checkout({ amountCents: 1000 }));
    await btcpay.pay(started.providerRef, 'partial');
    expect(await verify(btcpay.deliveriesOf(started.providerRef, 'InvoiceReceivedPayment')[0]!)).toEqual({ ok: true, events: [] });
    expect(await provider.lookup(started.providerRef)).toBeNull();
    await btcpay.expire(started.providerRef);
    const expired = btcpay.deliveriesOf(started.providerRef, 'InvoiceExpired')[0]!;
    expect(expired.event.partiallyPaid).toBe(true);
    expect(await verify(expired)).toMatchObject({ ok: true, events: [{ kind: 'payment.underpaid', amountCents: 500 }] });
    expect(await provider.lookup(started.providerRef)).toMatchObject({ kind: 'payment.underpaid', amountCents: 500 });
  });

  it('reports an invoice marked invalid as failed', async () => {
    const started = await provider.startCheckout(checkout());
    await btcpay.invalidate(started.providerRef);
    expect(await verify(btcpay.deliveriesOf(started.providerRef, 'InvoiceInvalid')[0]!)).toMatchObject({ ok: true, events: [{ kind: 'payment.failed' }] });
  });

  it('refunds through a pull payment the payer claims (pending), once per reference, in part or in full', async () => {
    const started = await provider.startCheckout(checkout({ amountCents: 2500 }));
    await btcpay.pay(started.providerRef, 'full');
    const whole = await provider.refund(started.providerRef, 2500, 'refund_1');
    expect(whole).toEqual({ refundRef: expect.any(String), status: 'pending', message: `${btcpay.url}/pull-payments/${whole.refundRef}` });
    expect(await provider.refund(started.providerRef, 2500, 'refund_1')).toEqual(whole);
    const part = await provider.refund(started.providerRef, 1000, 'refund_2');
    expect(part.refundRef).not.toBe(whole.refundRef);
    expect(btcpay.pullPayments.map((p) => [p.name, p.amount, p.currency])).toEqual([
      ['Refund refund_1', '25.00', 'USD'],
      ['Refund refund_2', '10.00', 'USD'],
    ]);
    const description = btcpay.pullPayments[0]!.description;
    expect(description).toBe(`Refund of ${btcpay.invoices.get(started.providerRef)!.metadata.orderId} (invoice ${started.providerRef})`);

    // Paid out once the payer claims it: the money went back.
    await btcpay.claimRefund(part.refundRef);
    const [created, approved, completed] = btcpay.payoutDeliveries(part.refundRef);
    expect(await verify(created!)).toEqual({ ok: true, events: [] });
    expect(await verify(approved!)).toEqual({ ok: true, events: [] });
    expect(await verify(completed!)).toEqual({
      ok: true,
      events: [
        {
          eventId: completed!.deliveryId,
          kind: 'refund.succeeded',
          providerRef: started.providerRef,
          reference: btcpay.invoices.get(started.providerRef)!.metadata.orderId,
          subjectRef: part.refundRef,
          amountCents: 1000,
          occurredAt: expect.any(Date),
        },
      ],
    });

    const unpaid = await provider.startCheckout(checkout());
    expect(await provider.refund(unpaid.providerRef, 100, 'refund_3')).toEqual({ refundRef: '', status: 'failed', message: 'Cannot refund this invoice' });
  });

  it('receives the webhooks the server POSTs, and checks them over the raw body', async () => {
    const receiver = await startWebhookReceiver();
    btcpay.webhookUrl = receiver.url;
    try {
      const started = await provider.startCheckout(checkout());
      await btcpay.pay(started.providerRef, 'full');
      expect(btcpay.deliveriesOf(started.providerRef).map((d) => d.status)).toEqual([200, 200, 200]);
      const settled = receiver.received.at(-1)!;
      expect(settled.headers['content-type']).toBe('application/json');
      expect(await provider.verifyWebhook(settled.body, settled.headers)).toMatchObject({ ok: true, events: [{ kind: 'payment.succeeded', providerRef: started.providerRef }] });
    } finally {
      btcpay.webhookUrl = undefined;
      await receiver.close();
    }
  });

  it('lets a browser pay on the checkout page and sends it back to our return URL', async () => {
    const request = checkout();
    const started = await provider.startCheckout(request);
    expect(await (await fetch(started.redirectUrl)).text()).toContain('Pay partially');
    const partly = await fetch(`${started.redirectUrl}/pay-partial`, { method: 'POST', redirect: 'manual' });
    expect(await partly.text()).toContain('Paid so far: 9.99 USD.');
    const paidUp = await fetch(`${started.redirectUrl}/pay-full`, { method: 'POST', redirect: 'manual' });
    expect([paidUp.status, paidUp.headers.get('location')]).toEqual([303, request.returnUrl]);
    expect(await provider.completeReturn(started.providerRef)).toMatchObject({ kind: 'payment.succeeded' });
    const other = await provider.startCheckout(checkout());
    const ranOut = await fetch(`${other.redirectUrl}/expire`, { method: 'POST', redirect: 'manual' });
    expect(await ranOut.text()).toContain('Expired');
  });

  it('answers nothing for an invoice the server does not know', async () => {
    expect(await provider.lookup('NoSuchInvoice')).toBeNull();
    expect(await provider.lookup('../stores')).toBeNull();
  });

  it('reads its settings: all or none, each checked', () => {
    expect(btcPaySettings({})).toEqual({ ok: false, absent: true, missing: ['BTCPAY_URL', 'BTCPAY_API_KEY', 'BTCPAY_STORE_ID', 'BTCPAY_WEBHOOK_SECRET'], invalid: [] });
    expect(btcPaySettings({ BTCPAY_URL: 'ftp://x', BTCPAY_API_KEY: 'k', BTCPAY_STORE_ID: 'short', BTCPAY_WEBHOOK_SECRET: 'tiny' })).toEqual({
      ok: false,
      absent: false,
      missing: [],
      invalid: ['BTCPAY_URL: must be an http(s) URL', 'BTCPAY_STORE_ID: not a store id', 'BTCPAY_WEBHOOK_SECRET: shorter than 16 characters'],
    });
    expect(btcPaySettings({ ...btcpay.env(), BTCPAY_URL: `${btcpay.url}/` })).toMatchObject({ ok: true, options: { url: btcpay.url } });
  });
});
