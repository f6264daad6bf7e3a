/**
 * A local PayPal speaking its REST API as documented, for tests and browser journeys: OAuth2
 * client-credentials tokens that expire, Orders v2 (create, read, capture), captures and their
 * refunds, PayPal-Request-Id idempotency, an approval page a browser can click through (approve,
 * approve with funding that will be declined, cancel), and webhooks signed as PayPal signs them
 * (SHA256withRSA over `transmission id|time|webhook id|CRC32 of the body`), which its
 * verify-webhook-signature endpoint checks (SUCCESS or FAILURE); and Payouts (paypal-standin-payouts.ts),
 * whose events go to a second webhook (its own id and URL), as a PayPal app registers one per endpoint.
 */
import { createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { StandinPayPalPayouts } from './paypal-standin-payouts';
import { sendWebhook, standinPage, StandinServer, type DeliveredWebhook, type StandinAnswer, type StandinRequest } from './standin-http';

type Json = Record<string, unknown>;

interface Money {
  currency_code: string;
  value: string;
}

interface StandinCapture {
  id: string;
  orderId: string;
  status: 'COMPLETED' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'REFUNDED' | 'REVERSED';
  amount: Money;
  refundedCents: number;
  customId?: string;
  invoiceId?: string;
  createTime: string;
  updateTime: string;
}

interface StandinOrder {
  id: string;
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  unit: Json & { amount: Money };
  returnUrl: string;
  cancelUrl: string;
  /** The payer chose funding that the capture will decline: a capture DECLINED, or a 422 INSTRUMENT_DECLINED. */
  declines: 'no' | 'capture' | 'instrument';
  captureId?: string;
  createTime: string;
  updateTime: string;
}

interface Dispute {
  id: string;
  captureId: string;
  amount: Money;
  reason: string;
  createTime: string;
}

const cents = (value: string) => Math.round(Number(value) * 100);
const decimal = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
const paypalId = () => randomBytes(12).toString('hex').toUpperCase().slice(0, 17);
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const DECIMAL = /^\d{1,10}(\.\d{2})?$/;
const CURRENCIES = new Set(['USD', 'CAD', 'EUR', 'GBP']);

const problem = (status: number, name: string, issue: string, description: string): StandinAnswer => ({
  status,
  json: { name, message: description, debug_id: randomBytes(6).toString('hex'), details: [{ issue, description }] },
});

export class LocalPayPal extends StandinServer {
  readonly clientId = `standin-${randomBytes(8).toString('hex')}`;
  readonly clientSecret = randomBytes(24).toString('base64url');
  readonly webhookId = paypalId();
  /** The webhook registered for payouts events (the app's /api/payouts/webhooks/paypal). */
  readonly payoutsWebhookId = paypalId();
  payoutsWebhookUrl: string | undefined;
  readonly payouts = new StandinPayPalPayouts(() => this.origin, (type, summary, resource) => this.emit(type, 'payouts_item', summary, resource, 'payouts'));
  /** Seconds a token lives (PayPal: about nine hours); a test shortens it. */
  tokenLifetimeSeconds = 32_400;
  /** Where webhooks are POSTed (the app's /api/wallet/webhooks/paypal); without it they are only recorded. */
  webhookUrl: string | undefined;
  readonly deliveries: (DeliveredWebhook & { event: Json; webhook: 'deposits' | 'payouts' })[] = [];
  readonly orders = new Map<string, StandinOrder>();
  readonly captures = new Map<string, StandinCapture>();
  readonly refunds: Json[] = [];
  /** How many tokens were handed out, and how many calls came with one unknown or expired. */
  tokensIssued = 0;
  tokensRefused = 0;
  /** Awaited before an order is made: a test holds the answer back (a start that dies or stalls half-way). */
  beforeCreateOrder: (() => Promise<void>) | undefined;
  /** Every API call, for tests that check what was sent (method, path, headers, body). */
  readonly calls: { method: string; path: string; headers: StandinRequest['headers']; body: string }[] = [];
  private readonly tokens = new Map<string, number>();
  private readonly idempotent = new Map<string, StandinAnswer>();
  private readonly disputes = new Map<string, Dispute>();
  private readonly keys: { privateKey: KeyObject; publicKey: KeyObject } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  get certUrl(): string {
    return `${this.origin}/v1/notifications/certs/CERT-360caa42-fca2a594-standin`;
  }

  /** The settings that point the app at this PayPal. */
  env(): Record<string, string> {
    return { PAYPAL_API_BASE: this.origin, PAYPAL_CLIENT_ID: this.clientId, PAYPAL_CLIENT_SECRET: this.clientSecret, PAYPAL_WEBHOOK_ID: this.webhookId, PAYPAL_PAYOUTS_WEBHOOK_ID: this.payoutsWebhookId };
  }

  /** PayPal forgets the PayPal-Request-Ids it has seen (kept for a limited time). */
  forgetRequestIds(): void {
    this.idempotent.clear();
  }

  /** Every token handed out so far stops working (as when PayPal's cache forgets them). */
  expireTokens(): void {
    this.tokens.clear();
  }

  /**
   * The payer approves on PayPal's page. `declined`: with funding the capture will decline (a capture
   * DECLINED); `instrument_declined`: with funding PayPal refuses at capture (422 INSTRUMENT_DECLINED).
   */
  async approve(orderId: string, how: 'approve' | 'declined' | 'instrument_declined' = 'approve'): Promise<string> {
    const order = this.orders.get(orderId);
    if (!order || (order.status !== 'CREATED' && order.status !== 'PAYER_ACTION_REQUIRED')) throw new Error(`order ${orderId} cannot be approved`);
    order.status = 'APPROVED';
    order.declines = how === 'declined' ? 'capture' : how === 'instrument_declined' ? 'instrument' : 'no';
    order.updateTime = now();
    await this.emit('CHECKOUT.ORDER.APPROVED', 'checkout-order', `An order has been approved by buyer`, this.orderData(order));
    return `${order.returnUrl}${order.returnUrl.includes('?') ? '&' : '?'}token=${order.id}&PayerID=${paypalId().slice(0, 13)}`;
  }

  /** The payer opens a dispute (or a chargeback) about an order's capture. */
  async openDispute(orderId: string, reason = 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED'): Promise<string> {
    const capture = this.captureOfOrder(orderId);
    const dispute: Dispute = { id: `PP-D-${randomBytes(4).readUInt32BE() % 100_000}`, captureId: capture.id, amount: capture.amount, reason, createTime: now() };
    this.disputes.set(dispute.id, dispute);
    await this.emit('CUSTOMER.DISPUTE.CREATED', 'dispute', `A new dispute opened with Case # ${dispute.id}`, this.disputeData(dispute, 'OPEN'));
    return dispute.id;
  }

  async resolveDispute(disputeId: string, outcome: 'RESOLVED_BUYER_FAVOUR' | 'RESOLVED_SELLER_FAVOUR' | 'CANCELED_BY_BUYER'): Promise<void> {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw new Error(`no dispute ${disputeId}`);
    await this.emit('CUSTOMER.DISPUTE.RESOLVED', 'dispute', `Dispute ${dispute.id} resolved`, this.disputeData(dispute, 'RESOLVED', outcome));
  }

  /** PayPal takes a capture's money back (a chargeback lost, a bank reversal). */
  async reverse(orderId: string): Promise<void> {
    const capture = this.captureOfOrder(orderId);
    capture.status = 'REVERSED';
    capture.updateTime = now();
    const refund = { id: paypalId(), amount: capture.amount, status: 'COMPLETED', create_time: now(), update_time: now(), links: this.refundLinks(capture.id) };
    await this.emit('PAYMENT.CAPTURE.REVERSED', 'refund', `A ${capture.amount.value} ${capture.amount.currency_code} capture payment was reversed`, refund);
  }

  /** Sends an event again as PayPal's "Resend" does: the same event, a new transmission. */
  async resend(eventId: string): Promise<DeliveredWebhook & { event: Json }> {
    const earlier = this.deliveries.find((d) => d.event.id === eventId);
    if (!earlier) throw new Error(`no event ${eventId}`);
    return this.deliver(earlier.event, earlier.webhook);
  }

  /** The deliveries of one event type, oldest first. */
  deliveriesOf(eventType: string): (DeliveredWebhook & { event: Json })[] {
    return this.deliveries.filter((d) => d.event.event_type === eventType);
  }

  private captureOfOrder(orderId: string): StandinCapture {
    const captureId = this.orders.get(orderId)?.captureId;
    const capture = captureId ? this.captures.get(captureId) : undefined;
    if (!capture) throw new Error(`order ${orderId} has no capture`);
    return capture;
  }

  private async emit(eventType: string, resourceType: string, summary: string, resource: Json, webhook: 'deposits' | 'payouts' = 'deposits'): Promise<void> {
    await this.deliver({
      id: `WH-${paypalId()}-${paypalId()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: eventType,
      summary,
      resource,
      links: [],
    }, webhook);
  }

  private signatureInput(transmissionId: string, time: string, webhookId: string, body: string): string {
    return `${transmissionId}|${time}|${webhookId}|${crc32(body) >>> 0}`;
  }

  /** The headers PayPal signs a delivery of `body` to a webhook with. */
  signedHeaders(body: string, webhookId: string): Record<string, string> {
    const transmissionId = randomUUID();
    const time = new Date().toISOString();
    const signature = createSign('sha256').update(this.signatureInput(transmissionId, time, webhookId, body)).sign(this.keys.privateKey, 'base64');
    return {
      'PAYPAL-TRANSMISSION-ID': transmissionId,
      'PAYPAL-TRANSMISSION-TIME': time,
      'PAYPAL-TRANSMISSION-SIG': signature,
      'PAYPAL-CERT-URL': this.certUrl,
      'PAYPAL-AUTH-ALGO': 'SHA256withRSA',
    };
  }

  private async deliver(event: Json, webhook: 'deposits' | 'payouts'): Promise<DeliveredWebhook & { event: Json; webhook: 'deposits' | 'payouts' }> {
    const body = JSON.stringify(event);
    const headers = this.signedHeaders(body, webhook === 'payouts' ? this.payoutsWebhookId : this.webhookId);
    const delivery = { event, webhook, ...(await sendWebhook(webhook === 'payouts' ? this.payoutsWebhookUrl : this.webhookUrl, { headers, body })) };
    this.deliveries.push(delivery);
    return delivery;
  }

  private orderData(order: StandinOrder): Json {
    const capture = order.captureId ? this.captures.get(order.captureId) : undefined;
    const approval = order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED';
    return {
      id: order.id,
      intent: 'CAPTURE',
      status: order.status,
      create_time: order.createTime,
      update_time: order.updateTime,
      purchase_units: [{ ...order.unit, ...(capture ? { payments: { captures: [this.captureData(capture)] } } : {}) }],
      links: [
        { href: `${this.origin}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
        ...(approval ? [{ href: `${this.origin}/checkoutnow?token=${order.id}`, rel: 'payer-action', method: 'GET' }] : []),
        ...(order.status === 'APPROVED' ? [{ href: `${this.origin}/v2/checkout/orders/${order.id}/capture`, rel: 'capture', method: 'POST' }] : []),
      ],
    };
  }

  private captureData(capture: StandinCapture): Json {
    return {
      id: capture.id,
      status: capture.status,
      ...(capture.status === 'DECLINED' ? { status_details: { reason: 'DECLINED_BY_RISK_FRAUD_FILTERS' } } : {}),
      amount: capture.amount,
      final_capture: true,
      custom_id: capture.customId,
      invoice_id: capture.invoiceId,
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      supplementary_data: { related_ids: { order_id: capture.orderId } },
      create_time: capture.createTime,
      update_time: capture.updateTime,
      links: [
        { href: `${this.origin}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
        { href: `${this.origin}/v2/payments/captures/${capture.id}/refund`, rel: 'refund', method: 'POST' },
        { href: `${this.origin}/v2/checkout/orders/${capture.orderId}`, rel: 'up', method: 'GET' },
      ],
    };
  }

  private refundLinks(captureId: string): Json[] {
    return [{ href: `${this.origin}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' }];
  }

  private disputeData(dispute: Dispute, status: 'OPEN' | 'RESOLVED', outcome?: string): Json {
    return {
      dispute_id: dispute.id,
      create_time: dispute.createTime,
      update_time: now(),
      disputed_transactions: [{ seller_transaction_id: dispute.captureId, seller: { merchant_id: 'STANDINMERCHANT' }, items: [] }],
      reason: dispute.reason,
      status,
      dispute_amount: dispute.amount,
      ...(outcome ? { dispute_outcome: { outcome_code: outcome, amount_refunded: outcome === 'RESOLVED_BUYER_FAVOUR' ? dispute.amount : { ...dispute.amount, value: '0.00' } } } : {}),
      dispute_life_cycle_stage: 'CHARGEBACK',
      dispute_channel: 'EXTERNAL',
      links: [],
    };
  }

  protected async handle(request: StandinRequest): Promise<StandinAnswer> {
    if (request.path === '/checkoutnow' || request.path.startsWith('/checkoutnow/')) return this.approvalPage(request);
    if (request.path.startsWith('/v1/notifications/certs/')) return { status: 200, json: { pem: this.keys.publicKey.export({ type: 'spki', format: 'pem' }) } };
    if (request.path === '/v1/oauth2/token' && request.method === 'POST') return this.issueToken(request);
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const expiry = bearer ? this.tokens.get(bearer) : undefined;
    if (expiry === undefined || expiry < Date.now()) {
      this.tokensRefused += 1;
      return { status: 401, json: { error: 'invalid_token', error_description: 'Access Token not found in cache' } };
    }
    this.calls.push({ method: request.method, path: request.path, headers: request.headers, body: request.body.toString('utf8') });
    const requestId = request.headers['paypal-request-id'];
    const key = typeof requestId === 'string' ? `${request.method} ${request.path} ${requestId}` : undefined;
    const earlier = key ? this.idempotent.get(key) : undefined;
    const lose = this.payouts.loseCreateAnswers && request.method === 'POST' && request.path === '/v1/payments/payouts';
    if (earlier && lose) return { drop: true };
    if (earlier) return 'json' in earlier && earlier.status === 201 ? { ...earlier, status: 200 } : earlier;
    const answer = await this.route(request);
    // What was done is answered again; a refusal is not kept, so the same call may succeed later.
    if (key && 'status' in answer && answer.status < 300) this.idempotent.set(key, answer);
    return lose ? { drop: true } : answer;
  }

  private issueToken(request: StandinRequest): StandinAnswer {
    const expected = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return { status: 401, json: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
    if (new URLSearchParams(request.body.toString('utf8')).get('grant_type') !== 'client_credentials') {
      return { status: 400, json: { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' } };
    }
    const token = `A21AA${randomBytes(32).toString('base64url')}`;
    this.tokens.set(token, Date.now() + this.tokenLifetimeSeconds * 1000);
    this.tokensIssued += 1;
    return {
      status: 200,
      json: { scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: 'APP-STANDIN', expires_in: this.tokenLifetimeSeconds, nonce: randomUUID() },
    };
  }

  private async route(request: StandinRequest): Promise<StandinAnswer> {
    let body: Json = {};
    if (request.method === 'POST' && request.body.length > 0) {
      try {
        body = JSON.parse(request.body.toString('utf8')) as Json;
      } catch {
        return problem(400, 'INVALID_REQUEST', 'MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.');
      }
    }
    const { method, path } = request;
    if (method === 'POST' && path === '/v2/checkout/orders') {
      await this.beforeCreateOrder?.();
      return this.createOrder(body);
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') return this.verifySignature(body);
    if (method === 'POST' && path === '/v1/payments/payouts') return this.payouts.create(body);
    const batch = /^\/v1\/payments\/payouts\/([A-Z0-9]+)$/.exec(path);
    if (method === 'GET' && batch) return this.payouts.read(batch[1]!);
    let match = /^\/v2\/checkout\/orders\/([A-Z0-9]+)(\/capture)?$/.exec(path);
    if (match) {
      const order = this.orders.get(match[1]!);
      if (!order) return problem(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
      if (method === 'GET' && !match[2]) return { status: 200, json: this.orderData(order) };
      if (method === 'POST' && match[2]) return this.captureOrder(order);
    }
    match = /^\/v2\/payments\/captures\/([A-Z0-9]+)(\/refund)?$/.exec(path);
    if (match) {
      const capture = this.captures.get(match[1]!);
      if (!capture) return problem(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
      if (method === 'GET' && !match[2]) return { status: 200, json: this.captureData(capture) };
      if (method === 'POST' && match[2]) return this.refund(capture, body);
    }
    return { status: 404, json: { name: 'NOT_FOUND', message: 'The requested resource was not found.' } };
  }

  private createOrder(body: Json): StandinAnswer {
    const unit = (body.purchase_units as Json[] | undefined)?.[0] as (Json & { amount?: Money }) | undefined;
    if (body.intent !== 'CAPTURE' && body.intent !== 'AUTHORIZE') return problem(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 'intent is required.');
    if (!unit?.amount || !CURRENCIES.has(unit.amount.currency_code) || !DECIMAL.test(unit.amount.value) || cents(unit.amount.value) <= 0) {
      return problem(422, 'UNPROCESSABLE_ENTITY', 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.');
    }
    const context = ((body.payment_source as Json | undefined)?.paypal as Json | undefined)?.experience_context as Json | undefined;
    const legacy = body.application_context as Json | undefined;
    const returnUrl = String(context?.return_url ?? legacy?.return_url ?? '');
    const cancelUrl = String(context?.cancel_url ?? legacy?.cancel_url ?? '');
    if (!/^https?:\/\//.test(returnUrl) || !/^https?:\/\//.test(cancelUrl)) return problem(422, 'UNPROCESSABLE_ENTITY', 'INVALID_PARAMETER_SYNTAX', 'return_url and cancel_url must be URLs.');
    const order: StandinOrder = {
      id: paypalId(),
      status: context ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      unit: unit as Json & { amount: Money },
      returnUrl,
      cancelUrl,
      declines: 'no',
      createTime: now(),
      updateTime: now(),
    };
    this.orders.set(order.id, order);
    return { status: 201, json: this.orderData(order) };
  }

  private async captureOrder(order: StandinOrder): Promise<StandinAnswer> {
    if (order.status === 'COMPLETED') return problem(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured.If \'intent=CAPTURE\' only one capture per order is allowed.');
    if (order.status !== 'APPROVED') return problem(422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment. Please redirect the payer to the \'rel\':\'approve\' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.');
    if (order.declines === 'instrument') {
      return problem(422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED', 'The instrument presented  was either declined by the processor or bank, or it can\'t be used for this payment.');
    }
    const capture: StandinCapture = {
      id: paypalId(),
      orderId: order.id,
      status: order.declines === 'capture' ? 'DECLINED' : 'COMPLETED',
      amount: order.unit.amount,
      refundedCents: 0,
      customId: typeof order.unit.custom_id === 'string' ? order.unit.custom_id : undefined,
      invoiceId: typeof order.unit.invoice_id === 'string' ? order.unit.invoice_id : undefined,
      createTime: now(),
      updateTime: now(),
    };
    this.captures.set(capture.id, capture);
    order.captureId = capture.id;
    order.status = 'COMPLETED';
    order.updateTime = now();
    const data = this.captureData(capture);
    if (capture.status === 'COMPLETED') await this.emit('PAYMENT.CAPTURE.COMPLETED', 'capture', `Payment completed for ${capture.amount.value} ${capture.amount.currency_code}`, data);
    else await this.emit('PAYMENT.CAPTURE.DENIED', 'capture', `A ${capture.amount.value} ${capture.amount.currency_code} capture payment was denied`, data);
    return { status: 201, json: this.orderData(order) };
  }

  private async refund(capture: StandinCapture, body: Json): Promise<StandinAnswer> {
    if (capture.status !== 'COMPLETED' && capture.status !== 'PARTIALLY_REFUNDED') {
      return problem(422, 'UNPROCESSABLE_ENTITY', capture.status === 'REFUNDED' ? 'CAPTURE_FULLY_REFUNDED' : 'REFUND_NOT_ALLOWED', 'The capture cannot be refunded.');
    }
    const left = cents(capture.amount.value) - capture.refundedCents;
    const asked = body.amount as Money | undefined;
    if (asked && (asked.currency_code !== capture.amount.currency_code || !DECIMAL.test(asked.value))) return problem(422, 'UNPROCESSABLE_ENTITY', 'INVALID_CURRENCY_CODE', 'The currency of the refund must be the currency of the capture.');
    const amountCents = asked ? cents(asked.value) : left;
    if (amountCents <= 0 || amountCents > left) return problem(422, 'UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.');
    capture.refundedCents += amountCents;
    capture.status = capture.refundedCents === cents(capture.amount.value) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    capture.updateTime = now();
    const refund = {
      id: paypalId(),
      status: 'COMPLETED',
      amount: { currency_code: capture.amount.currency_code, value: decimal(amountCents) },
      note_to_payer: body.note_to_payer,
      create_time: now(),
      update_time: now(),
      links: [{ href: `${this.origin}/v2/payments/refunds/x`, rel: 'self', method: 'GET' }, ...this.refundLinks(capture.id)],
    };
    this.refunds.push(refund);
    await this.emit('PAYMENT.CAPTURE.REFUNDED', 'refund', `A ${refund.amount.value} ${refund.amount.currency_code} capture payment was refunded`, refund);
    return { status: 201, json: refund };
  }

  private verifySignature(body: Json): StandinAnswer {
    const fields = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'] as const;
    if (fields.some((name) => typeof body[name] !== 'string') || typeof body.webhook_event !== 'object' || body.webhook_event === null) {
      return problem(400, 'VALIDATION_ERROR', 'MISSING_REQUIRED_PARAMETER', 'Invalid data provided');
    }
    const s = body as Record<(typeof fields)[number], string>;
    const input = this.signatureInput(s.transmission_id, s.transmission_time, s.webhook_id, JSON.stringify(body.webhook_event));
    const valid =
      s.auth_algo === 'SHA256withRSA' &&
      s.cert_url === this.certUrl &&
      (s.webhook_id === this.webhookId || s.webhook_id === this.payoutsWebhookId) &&
      createVerify('sha256').update(input).verify(this.keys.publicKey, s.transmission_sig, 'base64');
    return { status: 200, json: { verification_status: valid ? 'SUCCESS' : 'FAILURE' } };
  }

  private async approvalPage(request: StandinRequest): Promise<StandinAnswer> {
    const order = this.orders.get(request.query.get('token') ?? '');
    if (!order) return { status: 404, html: standinPage('PayPal', ['This checkout session is not available.'], []) };
    if (request.method === 'POST' && request.path === '/checkoutnow/cancel') {
      return { status: 303, location: `${order.cancelUrl}${order.cancelUrl.includes('?') ? '&' : '?'}token=${order.id}` };
    }
    if (request.method === 'POST' && (request.path === '/checkoutnow/approve' || request.path === '/checkoutnow/decline') && order.status !== 'APPROVED' && order.status !== 'COMPLETED') {
      return { status: 303, location: await this.approve(order.id, request.path === '/checkoutnow/decline' ? 'declined' : 'approve') };
    }
    const amount = order.unit.amount;
    if (order.status !== 'CREATED' && order.status !== 'PAYER_ACTION_REQUIRED') return { status: 200, html: standinPage('PayPal', [`Order ${order.id}: ${order.status}.`], []) };
    return {
      status: 200,
      html: standinPage(
        'PayPal',
        [`${String(order.unit.description ?? 'Your purchase')}`, `Total: ${amount.value} ${amount.currency_code}`],
        [
          { label: 'Pay with PayPal', action: `/checkoutnow/approve?token=${order.id}` },
          { label: 'Pay with a card that will be declined', action: `/checkoutnow/decline?token=${order.id}` },
          { label: 'Cancel and return', action: `/checkoutnow/cancel?token=${order.id}` },
        ],
      ),
    };
  }
}
