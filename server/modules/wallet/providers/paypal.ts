/**
 * PayPal through its REST API: Orders v2 (create → the payer approves on PayPal → we capture), refunds
 * of captures (Payments v2) and webhooks checked by PayPal itself (verify-webhook-signature).
 *
 * Plain fetch rather than @paypal/paypal-server-sdk: the SDK only knows PayPal's two hosts (its
 * Environment is Production or Sandbox, the base URL is fixed in its client), so it cannot be pointed
 * at a local stand-in, and it has no call for webhook verification.
 *
 * - The token and the webhook check are paypal-client.ts's (shared with PayPal payouts). The OAuth2 token is kept until shortly before it expires; a 401 fetches a new
 *   one and repeats the call once.
 * - Every call that makes something carries a PayPal-Request-Id derived from our reference or the
 *   order's id, so a repeated create, capture or refund answers what was done the first time.
 * - The payer's return captures the approved order. The payer may approve and never come back:
 *   CHECKOUT.ORDER.APPROVED, and `lookup` of an approved order, capture it too (the same
 *   PayPal-Request-Id, and PayPal captures an order once). An order not captured within three hours
 *   of its creation (StartedCheckout.expiresAt) is expired and never captured later.
 * - Refund, reversal and dispute events name the capture; its order (our providerRef) is asked of PayPal.
 */
import type { CheckoutRequest, HostedPaymentProvider, ProviderEvent, ProviderEventKind, VerifiedWebhook } from '../hosted-payment';
import { centsToDecimal, decimalToCents } from './amounts';
import { createPayPalClient, PAYPAL, paypalIssue, type PayPalCredentials } from './paypal-client';
import { dateOf, field, ProcessorUnavailable, text } from './provider-http';
import { baseUrl, readSettings, type SettingsCheck } from './settings';

export interface PayPalOptions extends PayPalCredentials {
  /** https://api-m.paypal.com (live) or https://api-m.sandbox.paypal.com. */
  apiBase: string;
  /** The id PayPal gave the webhook registered for /api/wallet/webhooks/paypal. */
  webhookId: string;
}

export const PAYPAL_LIVE_API = 'https://api-m.paypal.com';
const SETTINGS = ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'] as const;

/** PayPal's settings from the environment (config.ts calls it); PAYPAL_API_BASE defaults to the live API. */
export function payPalSettings(env: Record<string, string | undefined>): SettingsCheck<PayPalOptions> {
  const { values, missing, absent } = readSettings(env, SETTINGS);
  const invalid: string[] = [];
  const base = baseUrl('PAYPAL_API_BASE', env.PAYPAL_API_BASE?.trim() || PAYPAL_LIVE_API);
  if ('problem' in base) invalid.push(base.problem);
  if (values.PAYPAL_WEBHOOK_ID !== undefined && !/^[A-Za-z0-9-]{5,50}$/.test(values.PAYPAL_WEBHOOK_ID)) invalid.push('PAYPAL_WEBHOOK_ID: not a webhook id');
  if (missing.length > 0 || invalid.length > 0 || 'problem' in base) return { ok: false, absent: absent && !env.PAYPAL_API_BASE?.trim(), missing, invalid };
  return { ok: true, options: { apiBase: base.url, clientId: values.PAYPAL_CLIENT_ID!, clientSecret: values.PAYPAL_CLIENT_SECRET!, webhookId: values.PAYPAL_WEBHOOK_ID! } };
}

const NAME = 'paypal';
const PROCESSOR = PAYPAL;
const RESOURCE_ID = /^[A-Za-z0-9-]{1,64}$/;
/** PayPal keeps an order that was not approved for about three hours; we capture none older than that. */
const ORDER_LIFETIME_MS = 3 * 60 * 60 * 1000;
/** Outcomes of a resolved dispute in which the money stays with us. */
const DISPUTE_WON = new Set(['RESOLVED_SELLER_FAVOUR', 'CANCELED_BY_BUYER', 'DENIED']);

const firstUnit = (order: unknown) => (field(order, 'purchase_units') as unknown[] | undefined)?.[0];
const captureOf = (order: unknown) => (field(field(firstUnit(order), 'payments'), 'captures') as unknown[] | undefined)?.[0];
const amountCentsOf = (resource: unknown) => decimalToCents(String(field(field(resource, 'amount'), 'value') ?? '').replace(/^-/, '')) ?? undefined;

export function createPayPalProvider(options: PayPalOptions): HostedPaymentProvider {
  const client = createPayPalClient(options);
  const { api } = client;

  const getOrder = async (orderId: string): Promise<unknown | null> => {
    if (!RESOURCE_ID.test(orderId)) return null;
    const answer = await api('GET', `/v2/checkout/orders/${orderId}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw new ProcessorUnavailable(PROCESSOR, `reading an order: ${paypalIssue(answer).issue}`);
    return answer.body;
  };

  const getCapture = async (captureId: string | undefined): Promise<unknown | null> => {
    if (!captureId || !RESOURCE_ID.test(captureId)) return null;
    const answer = await api('GET', `/v2/payments/captures/${captureId}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw new ProcessorUnavailable(PROCESSOR, `reading a capture: ${paypalIssue(answer).issue}`);
    return answer.body;
  };

  /** The order a capture belongs to (refunds, reversals and disputes name only the capture). */
  const orderOfCapture = async (captureId: string | undefined): Promise<{ orderId: string; reference?: string } | null> => {
    const found = await getCapture(captureId);
    const orderId = text(field(field(field(found, 'supplementary_data'), 'related_ids'), 'order_id'), 64);
    return orderId ? { orderId, reference: text(field(found, 'custom_id'), 200) } : null;
  };

  const orderEvent = (orderId: string, kind: ProviderEventKind, extra: Partial<ProviderEvent> = {}): ProviderEvent => ({
    // The same outcome read twice (on return, then by the reconcile job) is the same event.
    eventId: `${orderId}:${kind}`,
    kind,
    providerRef: orderId,
    occurredAt: new Date(),
    ...extra,
  });

  /** What a captured (or voided) order says; null while nothing is final. */
  const eventOfOrder = (order: unknown): ProviderEvent | null => {
    const orderId = text(field(order, 'id'), 64)!;
    const reference = text(field(firstUnit(order), 'custom_id'), 200);
    const status = field(order, 'status');
    if (status === 'VOIDED') return orderEvent(orderId, 'payment.failed', { reference, message: 'The PayPal order was voided.' });
    if (status !== 'COMPLETED') return null;
    const capture = captureOf(order);
    const captureStatus = field(capture, 'status');
    const at = { reference, paymentRef: text(field(capture, 'id'), 64), occurredAt: dateOf(field(capture, 'update_time') ?? field(capture, 'create_time')) };
    if (captureStatus === 'COMPLETED' || captureStatus === 'REFUNDED' || captureStatus === 'PARTIALLY_REFUNDED') {
      return orderEvent(orderId, 'payment.succeeded', { ...at, amountCents: amountCentsOf(capture) });
    }
    if (captureStatus === 'DECLINED' || captureStatus === 'FAILED') {
      return orderEvent(orderId, 'payment.failed', { ...at, message: text(field(field(capture, 'status_details'), 'reason'), 100) ?? 'PayPal declined the payment.' });
    }
    return null;
  };

  const capture = async (orderId: string): Promise<ProviderEvent | null> => {
    if (!RESOURCE_ID.test(orderId)) return null;
    const answer = await api('POST', `/v2/checkout/orders/${orderId}/capture`, '{}', `capture-${orderId}`);
    if (answer.status === 200 || answer.status === 201) return eventOfOrder(answer.body);
    if (answer.status === 404) return orderEvent(orderId, 'payment.expired');
    const { issue, description } = paypalIssue(answer);
    if (issue === 'ORDER_NOT_APPROVED') return null;
    if (issue === 'ORDER_ALREADY_CAPTURED') {
      const order = await getOrder(orderId);
      return order ? eventOfOrder(order) : null;
    }
    if (answer.status === 422 || answer.status === 400) return orderEvent(orderId, 'payment.failed', { message: description });
    throw new ProcessorUnavailable(PROCESSOR, `capturing an order: ${issue}`);
  };

  /**
   * The order's outcome. An approved order is captured (only once approved, so that no refusal is kept
   * under its PayPal-Request-Id). An order not captured within its lifetime is expired for good: it is
   * never captured afterwards, so that no money is taken for a payment the wallet gave up on.
   */
  const settle = async (orderId: string): Promise<ProviderEvent | null> => {
    const order = await getOrder(orderId);
    if (!order) return RESOURCE_ID.test(orderId) ? orderEvent(orderId, 'payment.expired') : null;
    const status = field(order, 'status');
    const open = status === 'CREATED' || status === 'PAYER_ACTION_REQUIRED' || status === 'APPROVED' || status === 'SAVED';
    const created = dateOf(field(order, 'create_time'));
    if (open && created.getTime() + ORDER_LIFETIME_MS <= Date.now()) {
      return orderEvent(orderId, 'payment.expired', { reference: text(field(firstUnit(order), 'custom_id'), 200) });
    }
    return status === 'APPROVED' ? capture(orderId) : eventOfOrder(order);
  };

  /** A verified event in our words: none for an event we do not act on or about a payment not ours. */
  const eventsOf = async (event: Record<string, unknown>): Promise<ProviderEvent[]> => {
    const eventId = String(event.id);
    const resource = event.resource;
    const occurredAt = dateOf(field(resource, 'update_time') ?? event.create_time);
    switch (event.event_type) {
      case 'CHECKOUT.ORDER.APPROVED': {
        const settled = await settle(String(field(resource, 'id') ?? ''));
        return settled ? [{ ...settled, eventId }] : [];
      }
      case 'PAYMENT.CAPTURE.COMPLETED':
      case 'PAYMENT.CAPTURE.DENIED': {
        const orderId = text(field(field(field(resource, 'supplementary_data'), 'related_ids'), 'order_id'), 64);
        if (!orderId) return [];
        const succeeded = event.event_type === 'PAYMENT.CAPTURE.COMPLETED';
        return [
          {
            eventId,
            kind: succeeded ? 'payment.succeeded' : 'payment.failed',
            providerRef: orderId,
            reference: text(field(resource, 'custom_id'), 200),
            paymentRef: text(field(resource, 'id'), 64),
            amountCents: amountCentsOf(resource),
            ...(succeeded ? {} : { message: 'PayPal declined the payment.' }),
            occurredAt,
          },
        ];
      }
      case 'PAYMENT.CAPTURE.REFUNDED':
      case 'PAYMENT.CAPTURE.REVERSED': {
        // A refund names its capture in its `up` link; a reversal may be the capture itself.
        const up = (field(resource, 'links') as unknown[] | undefined)?.find((link) => field(link, 'rel') === 'up');
        const captureId = text(field(up, 'href'), 2000)?.split('/').pop() ?? text(field(resource, 'id'), 64);
        const order = await orderOfCapture(captureId);
        if (!order) return [];
        return [
          {
            eventId,
            kind: 'refund.succeeded',
            providerRef: order.orderId,
            reference: order.reference,
            paymentRef: captureId,
            subjectRef: text(field(resource, 'id'), 64),
            amountCents: amountCentsOf(resource),
            occurredAt,
          },
        ];
      }
      case 'CUSTOMER.DISPUTE.CREATED':
      case 'CUSTOMER.DISPUTE.RESOLVED': {
        const transaction = (field(resource, 'disputed_transactions') as unknown[] | undefined)?.[0];
        const captureId = text(field(transaction, 'seller_transaction_id'), 64);
        const order = await orderOfCapture(captureId);
        if (!order) return [];
        const base = {
          eventId,
          providerRef: order.orderId,
          reference: order.reference,
          paymentRef: captureId,
          subjectRef: text(field(resource, 'dispute_id'), 64),
          amountCents: decimalToCents(field(field(resource, 'dispute_amount'), 'value')) ?? undefined,
          message: text(field(resource, 'reason'), 100),
          occurredAt,
        };
        if (event.event_type === 'CUSTOMER.DISPUTE.CREATED') return [{ ...base, kind: 'dispute.opened' }];
        const outcome = text(field(field(resource, 'dispute_outcome'), 'outcome_code'), 100) ?? '';
        return [{ ...base, kind: 'dispute.closed', won: DISPUTE_WON.has(outcome), message: outcome || base.message }];
      }
      default:
        return [];
    }
  };

  return {
    name: NAME,
    method: 'paypal',

    async startCheckout(request: CheckoutRequest) {
      const unit = {
        reference_id: request.reference,
        // Not also invoice_id: PayPal refuses a second payment with an invoice id it has seen on the
        // account (a database started afresh against the same account would number payments again).
        custom_id: request.reference,
        description: request.description.slice(0, 127),
        amount: { currency_code: request.currency, value: centsToDecimal(request.amountCents) },
      };
      const body = {
        intent: 'CAPTURE',
        purchase_units: [unit],
        payment_source: {
          paypal: { experience_context: { return_url: request.returnUrl, cancel_url: request.cancelUrl, user_action: 'PAY_NOW', shipping_preference: 'NO_SHIPPING' } },
        },
      };
      const answer = await api('POST', '/v2/checkout/orders', JSON.stringify(body), `order-${request.reference}`);
      if (answer.status !== 200 && answer.status !== 201) throw new ProcessorUnavailable(PROCESSOR, `creating an order: ${paypalIssue(answer).issue}`);
      const id = text(field(answer.body, 'id'), 64);
      const links = (field(answer.body, 'links') as unknown[] | undefined) ?? [];
      const approval = links.find((link) => field(link, 'rel') === 'payer-action' || field(link, 'rel') === 'approve');
      const redirectUrl = text(field(approval, 'href'), 2000);
      if (!id || !redirectUrl) throw new ProcessorUnavailable(PROCESSOR, 'an order without id or approval link');
      const created = dateOf(field(answer.body, 'create_time'));
      return { providerRef: id, redirectUrl, expiresAt: new Date(created.getTime() + ORDER_LIFETIME_MS) };
    },

    completeReturn: settle,
    lookup: settle,

    async verifyWebhook(rawBody, headers): Promise<VerifiedWebhook> {
      const delivery = await client.verifiedEvent(rawBody, headers, options.webhookId);
      return delivery.ok ? { ok: true, events: await eventsOf(delivery.event) } : delivery;
    },

    async refund(providerRef, amountCents, reference) {
      // Given the capture (the payment's paymentRef) or, for a payment stored without one, its order.
      const captured = (await getCapture(providerRef)) ?? captureOf(await getOrder(providerRef));
      const captureId = text(field(captured, 'id'), 64);
      if (!captureId) return { refundRef: '', status: 'failed', message: 'The PayPal order was not captured.' };
      const currency = text(field(field(captured, 'amount'), 'currency_code'), 3) ?? 'USD';
      const answer = await api(
        'POST',
        `/v2/payments/captures/${captureId}/refund`,
        JSON.stringify({ amount: { value: centsToDecimal(amountCents), currency_code: currency }, note_to_payer: 'Refund of your coin purchase' }),
        `refund-${reference}`,
      );
      if (answer.status === 200 || answer.status === 201) {
        const status = field(answer.body, 'status');
        const refundRef = text(field(answer.body, 'id'), 64) ?? '';
        if (status === 'COMPLETED') return { refundRef, status: 'succeeded' };
        if (status === 'PENDING') return { refundRef, status: 'pending' };
        return { refundRef, status: 'failed', message: text(field(field(answer.body, 'status_details'), 'reason'), 100) ?? 'PayPal did not make the refund.' };
      }
      if (answer.status === 400 || answer.status === 422 || answer.status === 404) return { refundRef: '', status: 'failed', message: paypalIssue(answer).description };
      throw new ProcessorUnavailable(PROCESSOR, `refunding a capture: ${paypalIssue(answer).issue}`);
    },
  };
}
