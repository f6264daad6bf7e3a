/**
 * Bitcoin through a self-hosted BTCPay Server, over its Greenfield API (v1): a deposit is an invoice
 * in the deposit's currency; the payer pays it on the server's checkout page (checkoutLink) and is sent
 * back to our return URL. The server's webhooks say what became of it, signed with
 * `BTCPay-Sig: sha256=<hex HMAC-SHA256 of the raw body under the webhook's secret>`.
 *
 * - InvoiceSettled → payment.succeeded; InvoiceInvalid → payment.failed; InvoiceExpired →
 *   payment.expired, or payment.underpaid when some bitcoin arrived (PaidPartial), with the amount paid.
 * - InvoiceCreated, InvoiceReceivedPayment, InvoiceProcessing, InvoicePaymentSettled: nothing final.
 * - A redelivery carries a new deliveryId and the first delivery's originalDeliveryId: the event's id
 *   is the original one, so a replay is stored once.
 * - A deposit started again reuses the invoice still open for its reference (found by orderId); two
 *   starts at the same instant may each make one, and the one the payer is not sent to just expires.
 * - A refund is a pull payment the payer claims with a bitcoin address: it answers `pending` with the
 *   link to send the payer. When a payout of it is Completed (PayoutUpdated), that is refund.succeeded,
 *   keyed by the pull payment (one refund however many payouts the payer claimed it in).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CheckoutRequest, HostedPaymentProvider, ProviderEvent, ProviderEventKind, StartedCheckout, VerifiedWebhook } from '../hosted-payment';
import { centsToDecimal, decimalToCents } from './amounts';
import { callProcessor, dateOf, field, header, ProcessorUnavailable, text, type ProcessorAnswer } from './provider-http';
import { baseUrl, readSettings, type SettingsCheck } from './settings';

export interface BtcPayOptions {
  /** The server's address, e.g. https://btcpay.example.com */
  url: string;
  /**
   * A Greenfield API key of the store with btcpay.store.cancreateinvoice, btcpay.store.canviewinvoices,
   * btcpay.store.cancreatenonapprovedpullpayments and btcpay.store.canviewpullpayments.
   */
  apiKey: string;
  storeId: string;
  /** The secret of the store's webhook pointing at /api/wallet/webhooks/btcpay. */
  webhookSecret: string;
}

const SETTINGS = ['BTCPAY_URL', 'BTCPAY_API_KEY', 'BTCPAY_STORE_ID', 'BTCPAY_WEBHOOK_SECRET'] as const;

/** BTCPay's settings from the environment (config.ts calls it). */
export function btcPaySettings(env: Record<string, string | undefined>): SettingsCheck<BtcPayOptions> {
  const { values, missing, absent } = readSettings(env, SETTINGS);
  const invalid: string[] = [];
  const url = values.BTCPAY_URL === undefined ? undefined : baseUrl('BTCPAY_URL', values.BTCPAY_URL);
  if (url && 'problem' in url) invalid.push(url.problem);
  if (values.BTCPAY_STORE_ID !== undefined && !/^[A-Za-z0-9]{20,64}$/.test(values.BTCPAY_STORE_ID)) invalid.push('BTCPAY_STORE_ID: not a store id');
  if (values.BTCPAY_WEBHOOK_SECRET !== undefined && values.BTCPAY_WEBHOOK_SECRET.length < 16) invalid.push('BTCPAY_WEBHOOK_SECRET: shorter than 16 characters');
  if (missing.length > 0 || invalid.length > 0 || !url || 'problem' in url) return { ok: false, absent, missing, invalid };
  return { ok: true, options: { url: url.url, apiKey: values.BTCPAY_API_KEY!, storeId: values.BTCPAY_STORE_ID!, webhookSecret: values.BTCPAY_WEBHOOK_SECRET! } };
}

export const BTCPAY_SIGNATURE_HEADER = 'btcpay-sig';

const NAME = 'btcpay';
const PROCESSOR = 'BTCPay Server';
const INVOICE_ID = /^[A-Za-z0-9_-]{1,100}$/;

interface Invoice {
  id: string;
  status: string;
  additionalStatus: string;
  amountCents: number | null;
  paidCents: number | null;
  currency: string;
  orderId: string | undefined;
  checkoutLink: string | undefined;
  expiresAt: Date;
}

function readInvoice(body: unknown): Invoice | null {
  const id = text(field(body, 'id'), 100);
  const status = text(field(body, 'status'), 40);
  if (!id || !status) return null;
  return {
    id,
    status,
    additionalStatus: text(field(body, 'additionalStatus'), 40) ?? 'None',
    amountCents: decimalToCents(field(body, 'amount')),
    paidCents: decimalToCents(field(body, 'paidAmount')),
    currency: text(field(body, 'currency'), 10) ?? '',
    orderId: text(field(field(body, 'metadata'), 'orderId'), 200),
    checkoutLink: text(field(body, 'checkoutLink'), 2000),
    expiresAt: dateOf(field(body, 'expirationTime')),
  };
}

/** What an invoice's state says, in our words; null while nothing is final. */
function outcomeOf(invoice: Invoice): { kind: ProviderEventKind; amountCents?: number; message?: string } | null {
  switch (invoice.status) {
    case 'Settled':
      return { kind: 'payment.succeeded', amountCents: invoice.amountCents ?? undefined };
    case 'Invalid':
      return { kind: 'payment.failed', message: 'The bitcoin payment was marked invalid.' };
    case 'Expired':
      if (invoice.additionalStatus === 'PaidPartial') return { kind: 'payment.underpaid', amountCents: invoice.paidCents ?? undefined, message: 'The invoice expired paid in part.' };
      if (invoice.additionalStatus === 'PaidLate') return { kind: 'payment.underpaid', amountCents: invoice.paidCents ?? undefined, message: 'The invoice was paid after it expired.' };
      return { kind: 'payment.expired' };
    default:
      return null;
  }
}

const REFUND_DESCRIPTION = /\(invoice ([A-Za-z0-9_-]{1,100})\)$/;
const refundDescription = (invoice: Invoice) => `Refund of ${invoice.orderId ?? 'a payment'} (invoice ${invoice.id})`;

function problemOf(answer: ProcessorAnswer): string {
  // Greenfield answers a list of {path, message} for a validation error, else {code, message}.
  const first = Array.isArray(answer.body) ? answer.body[0] : answer.body;
  return text(field(first, 'message'), 300) ?? `HTTP ${answer.status}`;
}

export function createBtcPayProvider(options: BtcPayOptions): HostedPaymentProvider {
  const store = `/stores/${encodeURIComponent(options.storeId)}`;
  /** `path` under /api/v1. */
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    callProcessor(PROCESSOR, {
      method,
      url: `${options.url}/api/v1${path}`,
      headers: { authorization: `token ${options.apiKey}`, accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const bodyOf = (answer: ProcessorAnswer, what: string): unknown => {
    if (answer.status !== 200) throw new ProcessorUnavailable(PROCESSOR, `${what}: ${problemOf(answer)}`);
    return answer.body;
  };

  const getInvoice = async (invoiceId: string): Promise<Invoice | null> => {
    if (!INVOICE_ID.test(invoiceId)) return null;
    const answer = await call('GET', `${store}/invoices/${encodeURIComponent(invoiceId)}`);
    if (answer.status === 404) return null;
    const invoice = readInvoice(bodyOf(answer, 'reading an invoice'));
    if (!invoice) throw new ProcessorUnavailable(PROCESSOR, 'an invoice without id or status');
    return invoice;
  };

  const eventOf = (invoice: Invoice): ProviderEvent | null => {
    const outcome = outcomeOf(invoice);
    if (!outcome) return null;
    return {
      // The same state read twice is the same event.
      eventId: `${invoice.id}:${invoice.status}:${invoice.additionalStatus}`,
      providerRef: invoice.id,
      reference: invoice.orderId,
      occurredAt: new Date(),
      ...outcome,
    };
  };

  /** An invoice still open for this reference and amount (a deposit started twice): reused rather than a second one made. */
  const openInvoiceFor = async (request: CheckoutRequest): Promise<Invoice | null> => {
    const body = bodyOf(await call('GET', `${store}/invoices?orderId=${encodeURIComponent(request.reference)}&status=New`), 'searching invoices');
    const invoices = (Array.isArray(body) ? body : []).map(readInvoice);
    return (
      invoices.find(
        (invoice) =>
          invoice?.status === 'New' &&
          invoice.orderId === request.reference &&
          invoice.amountCents === request.amountCents &&
          invoice.currency === request.currency &&
          invoice.expiresAt.getTime() > Date.now(),
      ) ?? null
    );
  };

  /**
   * A refund's pull payment paid out to the payer (a payout of it Completed): the money went back. The
   * pull payment names its invoice in its description (refundDescription); a pull payment that does
   * not is none of our refunds.
   */
  const refundPaidOut = async (eventId: string, body: unknown): Promise<ProviderEvent[]> => {
    const pullPaymentId = text(field(body, 'pullPaymentId'), 100);
    if (field(body, 'payoutState') !== 'Completed' || !pullPaymentId || !INVOICE_ID.test(pullPaymentId)) return [];
    const answer = await call('GET', `/pull-payments/${encodeURIComponent(pullPaymentId)}`);
    if (answer.status === 404) return [];
    const pullPayment = bodyOf(answer, 'reading a pull payment');
    const invoiceId = REFUND_DESCRIPTION.exec(text(field(pullPayment, 'description'), 500) ?? '')?.[1];
    const invoice = invoiceId ? await getInvoice(invoiceId) : null;
    if (!invoice) return [];
    return [
      {
        eventId,
        kind: 'refund.succeeded',
        providerRef: invoice.id,
        reference: invoice.orderId,
        subjectRef: pullPaymentId,
        amountCents: field(pullPayment, 'currency') === invoice.currency ? (decimalToCents(field(pullPayment, 'amount')) ?? undefined) : undefined,
        occurredAt: dateOf(field(body, 'timestamp')),
      },
    ];
  };

  const started = (invoice: Invoice): StartedCheckout => {
    if (!invoice.checkoutLink) throw new ProcessorUnavailable(PROCESSOR, 'an invoice without checkoutLink');
    return { providerRef: invoice.id, redirectUrl: invoice.checkoutLink, expiresAt: invoice.expiresAt };
  };

  return {
    name: NAME,
    method: 'bitcoin',

    async startCheckout(request) {
      const open = await openInvoiceFor(request);
      if (open) return started(open);
      const answer = await call('POST', `${store}/invoices`, {
        amount: centsToDecimal(request.amountCents),
        currency: request.currency,
        metadata: { orderId: request.reference, itemDesc: request.description },
        checkout: { redirectURL: request.returnUrl, redirectAutomatically: true },
      });
      const invoice = readInvoice(bodyOf(answer, 'creating an invoice'));
      if (!invoice) throw new ProcessorUnavailable(PROCESSOR, 'an invoice without id or status');
      return started(invoice);
    },

    async completeReturn(providerRef) {
      const invoice = await getInvoice(providerRef);
      return invoice ? eventOf(invoice) : null;
    },

    async lookup(providerRef) {
      const invoice = await getInvoice(providerRef);
      return invoice ? eventOf(invoice) : null;
    },

    async verifyWebhook(rawBody, headers): Promise<VerifiedWebhook> {
      const given = header(headers, BTCPAY_SIGNATURE_HEADER);
      if (!given) return { ok: false, reason: 'unsigned' };
      const match = /^sha256=([0-9a-fA-F]{64})$/.exec(given.trim());
      const expected = createHmac('sha256', options.webhookSecret).update(rawBody).digest();
      if (!match || !timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'))) return { ok: false, reason: 'bad_signature' };
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      const type = text(field(body, 'type'), 100);
      const deliveryId = text(field(body, 'deliveryId'), 200);
      if (!type || !deliveryId) return { ok: false, reason: 'malformed' };
      // Another store's under the same secret.
      if (field(body, 'storeId') !== options.storeId) return { ok: true, events: [] };
      // Older servers spelled it `orignalDeliveryId`.
      const eventId = text(field(body, 'originalDeliveryId'), 200) ?? text(field(body, 'orignalDeliveryId'), 200) ?? deliveryId;
      if (type.startsWith('Payout')) return { ok: true, events: await refundPaidOut(eventId, body) };
      if (!type.startsWith('Invoice')) return { ok: true, events: [] };
      const invoiceId = text(field(body, 'invoiceId'), 100);
      if (!invoiceId || !INVOICE_ID.test(invoiceId)) return { ok: false, reason: 'malformed' };
      const base = { eventId, providerRef: invoiceId, reference: text(field(field(body, 'metadata'), 'orderId'), 200), occurredAt: dateOf(field(body, 'timestamp')) };
      switch (type) {
        case 'InvoiceSettled':
          return { ok: true, events: [{ ...base, kind: 'payment.succeeded' }] };
        case 'InvoiceInvalid':
          return { ok: true, events: [{ ...base, kind: 'payment.failed', message: 'The bitcoin payment was marked invalid.' }] };
        case 'InvoiceExpired': {
          if (field(body, 'partiallyPaid') !== true) return { ok: true, events: [{ ...base, kind: 'payment.expired' }] };
          // The event does not say how much arrived: the invoice does.
          const invoice = await getInvoice(invoiceId);
          return {
            ok: true,
            events: [{ ...base, kind: 'payment.underpaid', amountCents: invoice?.paidCents ?? undefined, message: 'The invoice expired paid in part.' }],
          };
        }
        default:
          return { ok: true, events: [] };
      }
    },

    async refund(providerRef, amountCents, reference) {
      const name = `Refund ${reference}`;
      const earlier = bodyOf(await call('GET', `${store}/pull-payments?includeArchived=true`), 'listing pull payments');
      const existing = (Array.isArray(earlier) ? earlier : []).find((pullPayment) => field(pullPayment, 'name') === name);
      if (existing) return { refundRef: String(field(existing, 'id')), status: 'pending', message: text(field(existing, 'viewLink'), 2000) };
      const invoice = await getInvoice(providerRef);
      if (!invoice) return { refundRef: '', status: 'failed', message: 'BTCPay Server has no such invoice.' };
      const whole = invoice.amountCents !== null && amountCents >= invoice.amountCents;
      const answer = await call('POST', `${store}/invoices/${encodeURIComponent(invoice.id)}/refund`, {
        name,
        description: refundDescription(invoice),
        ...(whole ? { refundVariant: 'Fiat' } : { refundVariant: 'Custom', customAmount: centsToDecimal(amountCents), customCurrency: invoice.currency }),
      });
      if (answer.status !== 200) return { refundRef: '', status: 'failed', message: problemOf(answer) };
      const id = text(field(answer.body, 'id'), 200);
      if (!id) throw new ProcessorUnavailable(PROCESSOR, 'a pull payment without id');
      return { refundRef: id, status: 'pending', message: text(field(answer.body, 'viewLink'), 2000) };
    },
  };
}

