/**
 * A local BTCPay Server speaking the Greenfield API (v1) as documented, for tests and browser journeys:
 * invoices (create, read, search by orderId), refunds as pull payments, a checkout page a browser can
 * click through (pay in full, pay in part, let the invoice expire), and store webhooks signed
 * `BTCPay-Sig: sha256=<hex HMAC-SHA256 of the body>` under the webhook's secret, with redelivery as the
 * server does it (a new deliveryId, the first one's originalDeliveryId, isRedelivery).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { sendWebhook, standinPage, StandinServer, type DeliveredWebhook, type StandinAnswer, type StandinRequest } from './standin-http';

type InvoiceStatus = 'New' | 'Processing' | 'Settled' | 'Expired' | 'Invalid';

interface StandinInvoice {
  id: string;
  storeId: string;
  amountCents: number;
  currency: string;
  metadata: Record<string, unknown>;
  checkout: { redirectURL?: string; redirectAutomatically?: boolean; expirationMinutes?: number };
  createdTime: number;
  expirationTime: number;
  status: InvoiceStatus;
  additionalStatus: 'None' | 'PaidPartial' | 'PaidLate' | 'PaidOver' | 'Marked' | 'Invalid';
  paidCents: number;
}

interface PullPayment {
  id: string;
  name: string;
  description: string;
  currency: string;
  amount: string;
  invoiceId: string;
}

const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const DECIMAL = /^\d{1,10}(\.\d{1,8})?$/;
const newId = (bytes: number) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');

export class LocalBtcPay extends StandinServer {
  readonly storeId = newId(30).slice(0, 40);
  readonly apiKey = randomBytes(20).toString('hex');
  readonly webhookSecret = randomBytes(24).toString('base64url');
  readonly webhookId = newId(16);
  /** Where webhooks are POSTed (the app's /api/wallet/webhooks/btcpay); without it they are only recorded. */
  webhookUrl: string | undefined;
  readonly deliveries: (DeliveredWebhook & { deliveryId: string; event: Record<string, unknown> })[] = [];
  readonly invoices = new Map<string, StandinInvoice>();
  readonly pullPayments: PullPayment[] = [];

  /** The settings that point the app at this server. */
  env(): Record<string, string> {
    return { BTCPAY_URL: this.origin, BTCPAY_API_KEY: this.apiKey, BTCPAY_STORE_ID: this.storeId, BTCPAY_WEBHOOK_SECRET: this.webhookSecret };
  }

  /** The payer sends bitcoin: all that is due, or half of it. */
  async pay(invoiceId: string, how: 'full' | 'partial'): Promise<void> {
    const invoice = this.invoice(invoiceId);
    if (!invoice || invoice.status !== 'New') throw new Error(`invoice ${invoiceId} is not open`);
    const due = invoice.amountCents - invoice.paidCents;
    const amount = how === 'full' ? due : Math.max(1, Math.floor(due / 2));
    invoice.paidCents += amount;
    await this.emit(invoice, 'InvoiceReceivedPayment', { afterExpiration: false, paymentMethodId: 'BTC-CHAIN', payment: { value: decimal(amount), status: 'Settled' } });
    if (invoice.paidCents < invoice.amountCents) {
      invoice.additionalStatus = 'PaidPartial';
      return;
    }
    invoice.additionalStatus = 'None';
    invoice.status = 'Processing';
    await this.emit(invoice, 'InvoiceProcessing', { overPaid: false });
    invoice.status = 'Settled';
    await this.emit(invoice, 'InvoiceSettled', { manuallyMarked: false, overPaid: false });
  }

  /** The invoice's time runs out (whatever its expirationTime). */
  async expire(invoiceId: string): Promise<void> {
    const invoice = this.invoice(invoiceId);
    if (!invoice || invoice.status !== 'New') throw new Error(`invoice ${invoiceId} is not open`);
    invoice.expirationTime = Math.floor(Date.now() / 1000);
    await this.expireIfDue(invoice);
  }

  /** The store owner marks the invoice invalid (a payment that never confirmed). */
  async invalidate(invoiceId: string): Promise<void> {
    const invoice = this.invoice(invoiceId);
    if (!invoice) throw new Error(`no invoice ${invoiceId}`);
    invoice.status = 'Invalid';
    invoice.additionalStatus = 'Marked';
    await this.emit(invoice, 'InvoiceInvalid', { manuallyMarked: true });
  }

  /** The payer claims a refund's pull payment with a bitcoin address, and the store pays the payout. */
  async claimRefund(pullPaymentId: string): Promise<void> {
    if (!this.pullPayments.some((p) => p.id === pullPaymentId)) throw new Error(`no pull payment ${pullPaymentId}`);
    const payoutId = newId(16);
    await this.emitStoreEvent('PayoutCreated', { payoutId, pullPaymentId, payoutState: 'AwaitingApproval' });
    await this.emitStoreEvent('PayoutApproved', { payoutId, pullPaymentId, payoutState: 'AwaitingPayment' });
    await this.emitStoreEvent('PayoutUpdated', { payoutId, pullPaymentId, payoutState: 'Completed' });
  }

  /** The deliveries about one pull payment's payouts, oldest first. */
  payoutDeliveries(pullPaymentId: string): (DeliveredWebhook & { deliveryId: string; event: Record<string, unknown> })[] {
    return this.deliveries.filter((d) => d.event.pullPaymentId === pullPaymentId);
  }

  /** Sends a delivery again as the server's "Redeliver" does. */
  async redeliver(deliveryId: string): Promise<DeliveredWebhook & { deliveryId: string }> {
    const earlier = this.deliveries.find((d) => d.deliveryId === deliveryId);
    if (!earlier) throw new Error(`no delivery ${deliveryId}`);
    const event = { ...earlier.event, deliveryId: newId(16), originalDeliveryId: earlier.event.originalDeliveryId ?? deliveryId, isRedelivery: true };
    return this.deliver(event);
  }

  /** The deliveries of one type for one invoice, oldest first. */
  deliveriesOf(invoiceId: string, type?: string): (DeliveredWebhook & { deliveryId: string; event: Record<string, unknown> })[] {
    return this.deliveries.filter((d) => d.event.invoiceId === invoiceId && (type === undefined || d.event.type === type));
  }

  private invoice(id: string): StandinInvoice | undefined {
    return this.invoices.get(id);
  }

  private async expireIfDue(invoice: StandinInvoice): Promise<void> {
    if (invoice.status !== 'New' || invoice.expirationTime * 1000 > Date.now()) return;
    invoice.status = 'Expired';
    await this.emit(invoice, 'InvoiceExpired', { partiallyPaid: invoice.paidCents > 0 });
  }

  private emit(invoice: StandinInvoice, type: string, extra: Record<string, unknown>): Promise<unknown> {
    return this.emitStoreEvent(type, { invoiceId: invoice.id, metadata: invoice.metadata, ...extra });
  }

  private async emitStoreEvent(type: string, fields: Record<string, unknown>): Promise<void> {
    const deliveryId = newId(16);
    await this.deliver({
      deliveryId,
      webhookId: this.webhookId,
      originalDeliveryId: deliveryId,
      isRedelivery: false,
      type,
      timestamp: Math.floor(Date.now() / 1000),
      storeId: this.storeId,
      ...fields,
    });
  }

  private async deliver(event: Record<string, unknown>): Promise<DeliveredWebhook & { deliveryId: string; event: Record<string, unknown> }> {
    const body = JSON.stringify(event);
    const signature = `sha256=${createHmac('sha256', this.webhookSecret).update(body, 'utf8').digest('hex')}`;
    const delivery = { deliveryId: String(event.deliveryId), event, ...(await sendWebhook(this.webhookUrl, { headers: { 'BTCPay-Sig': signature }, body })) };
    this.deliveries.push(delivery);
    return delivery;
  }

  private invoiceData(invoice: StandinInvoice): Record<string, unknown> {
    return {
      id: invoice.id,
      storeId: invoice.storeId,
      amount: decimal(invoice.amountCents),
      paidAmount: decimal(invoice.paidCents),
      currency: invoice.currency,
      type: 'Standard',
      checkoutLink: `${this.origin}/i/${invoice.id}`,
      createdTime: invoice.createdTime,
      expirationTime: invoice.expirationTime,
      monitoringExpiration: invoice.expirationTime + 86_400,
      status: invoice.status,
      additionalStatus: invoice.additionalStatus,
      availableStatusesForManualMarking: ['Settled', 'Invalid'],
      archived: false,
      metadata: invoice.metadata,
      checkout: invoice.checkout,
    };
  }

  private returnUrl(invoice: StandinInvoice): string | undefined {
    return invoice.checkout.redirectURL?.replace('{InvoiceId}', invoice.id).replace('{OrderId}', String(invoice.metadata.orderId ?? ''));
  }

  protected async handle(request: StandinRequest): Promise<StandinAnswer> {
    const page = /^\/i\/([A-Za-z0-9]+)(?:\/(pay-full|pay-partial|expire))?$/.exec(request.path);
    if (page) return this.checkoutPage(page[1]!, request.method === 'POST' ? page[2] : undefined);
    const api = /^\/api\/v1\/(?:stores\/([^/]+)\/)?(invoices|pull-payments)(?:\/([^/]+))?(?:\/(refund))?$/.exec(request.path);
    if (!api) return { status: 404, json: { code: 'not-found', message: 'Not found' } };
    if (request.headers.authorization !== `token ${this.apiKey}`) return { status: 401, json: { code: 'unauthenticated', message: 'Authentication is required for accessing this endpoint' } };
    const [, storeId, collection, id, action] = api;
    if (storeId !== undefined && storeId !== this.storeId) return { status: 403, json: { code: 'missing-permission', message: 'Insufficient API Permissions' } };
    if (collection === 'pull-payments') {
      const found = id ? this.pullPayments.find((p) => p.id === id) : undefined;
      if (request.method === 'GET' && !id && storeId) return { status: 200, json: this.pullPayments.map((p) => this.pullPaymentData(p)) };
      if (request.method === 'GET' && found && !action) return { status: 200, json: this.pullPaymentData(found) };
      return { status: 404, json: { code: 'pullpayment-not-found', message: 'Pull payment not found' } };
    }
    if (!id) {
      if (request.method === 'POST' && storeId) return this.createInvoice(request);
      if (request.method === 'GET' && storeId) return this.listInvoices(request.query);
      return { status: 405, json: { code: 'method-not-allowed', message: 'Method not allowed' } };
    }
    const invoice = this.invoice(id);
    if (!invoice) return { status: 404, json: { code: 'invoice-not-found', message: 'The invoice could not be found' } };
    await this.expireIfDue(invoice);
    if (action === 'refund' && request.method === 'POST') return this.refund(invoice, request);
    if (!action && request.method === 'GET') return { status: 200, json: this.invoiceData(invoice) };
    return { status: 405, json: { code: 'method-not-allowed', message: 'Method not allowed' } };
  }

  private createInvoice(request: StandinRequest): StandinAnswer {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return { status: 400, json: [{ path: '', message: 'Invalid JSON' }] };
    }
    const amount = body.amount;
    const currency = typeof body.currency === 'string' ? body.currency : 'USD';
    if (typeof amount !== 'string' || !DECIMAL.test(amount) || Number(amount) <= 0) return { status: 400, json: [{ path: 'amount', message: 'Amount should be greater than 0' }] };
    if (!/^[A-Z]{3}$/.test(currency)) return { status: 400, json: [{ path: 'currency', message: 'Invalid currency' }] };
    const checkout = (typeof body.checkout === 'object' && body.checkout !== null ? body.checkout : {}) as StandinInvoice['checkout'];
    const now = Math.floor(Date.now() / 1000);
    const invoice: StandinInvoice = {
      id: newId(16).slice(0, 22),
      storeId: this.storeId,
      amountCents: Math.round(Number(amount) * 100),
      currency,
      metadata: (typeof body.metadata === 'object' && body.metadata !== null ? body.metadata : {}) as Record<string, unknown>,
      checkout,
      createdTime: now,
      expirationTime: now + 60 * (checkout.expirationMinutes ?? 15),
      status: 'New',
      additionalStatus: 'None',
      paidCents: 0,
    };
    this.invoices.set(invoice.id, invoice);
    return { status: 200, json: this.invoiceData(invoice) };
  }

  private async listInvoices(query: URLSearchParams): Promise<StandinAnswer> {
    const orderIds = query.getAll('orderId');
    const statuses = query.getAll('status');
    const found: Record<string, unknown>[] = [];
    for (const invoice of [...this.invoices.values()].reverse()) {
      await this.expireIfDue(invoice);
      if (orderIds.length > 0 && !orderIds.includes(String(invoice.metadata.orderId))) continue;
      if (statuses.length > 0 && !statuses.includes(invoice.status)) continue;
      found.push(this.invoiceData(invoice));
    }
    return { status: 200, json: found };
  }

  private refund(invoice: StandinInvoice, request: StandinRequest): StandinAnswer {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return { status: 400, json: [{ path: '', message: 'Invalid JSON' }] };
    }
    const variant = body.refundVariant;
    if (!['RateThen', 'CurrentRate', 'OverpaidAmount', 'Fiat', 'Custom'].includes(String(variant))) return { status: 400, json: [{ path: 'refundVariant', message: '`refundVariant` is mandatory' }] };
    if (invoice.status !== 'Settled' && invoice.paidCents === 0) return { status: 400, json: { code: 'non-refundable', message: 'Cannot refund this invoice' } };
    if (variant === 'Custom' && (typeof body.customAmount !== 'string' || !DECIMAL.test(body.customAmount) || typeof body.customCurrency !== 'string')) {
      return { status: 400, json: [{ path: 'customAmount', message: 'Amount must be greater than 0' }] };
    }
    if (variant !== 'Custom' && (body.customAmount !== undefined || body.customCurrency !== undefined)) {
      return { status: 400, json: [{ path: 'customAmount', message: 'CustomAmount should only be set if the refundVariant is Custom' }] };
    }
    const pullPayment: PullPayment = {
      id: newId(20).slice(0, 28),
      name: typeof body.name === 'string' ? body.name : `Refund ${invoice.id}`,
      description: typeof body.description === 'string' ? body.description : '',
      currency: variant === 'Custom' ? String(body.customCurrency) : invoice.currency,
      amount: variant === 'Custom' ? String(body.customAmount) : decimal(invoice.paidCents),
      invoiceId: invoice.id,
    };
    this.pullPayments.push(pullPayment);
    return { status: 200, json: this.pullPaymentData(pullPayment) };
  }

  private pullPaymentData(pullPayment: PullPayment): Record<string, unknown> {
    const { invoiceId: _invoiceId, ...data } = pullPayment;
    return { ...data, autoApproveClaims: false, archived: false, viewLink: `${this.origin}/pull-payments/${pullPayment.id}` };
  }

  private async checkoutPage(invoiceId: string, action: string | undefined): Promise<StandinAnswer> {
    const invoice = this.invoice(invoiceId);
    if (!invoice) return { status: 404, html: standinPage('Invoice not found', [], []) };
    if (action === 'pay-full' && invoice.status === 'New') await this.pay(invoice.id, 'full');
    else if (action === 'pay-partial' && invoice.status === 'New') await this.pay(invoice.id, 'partial');
    else if (action === 'expire' && invoice.status === 'New') await this.expire(invoice.id);
    else await this.expireIfDue(invoice);
    const back = this.returnUrl(invoice);
    if (action === 'pay-full' && invoice.status === 'Settled' && back && invoice.checkout.redirectAutomatically) return { status: 303, location: back };
    const title = `Pay ${decimal(invoice.amountCents)} ${invoice.currency} in bitcoin`;
    const links = back ? [{ label: 'Return to the store', href: back }] : [];
    if (invoice.status !== 'New') return { status: 200, html: standinPage(title, [`Invoice ${invoice.id}: ${invoice.status}.`], [], links) };
    return {
      status: 200,
      html: standinPage(
        title,
        [`Invoice ${invoice.id}`, `Paid so far: ${decimal(invoice.paidCents)} ${invoice.currency}.`],
        [
          { label: 'Pay in full', action: `/i/${invoice.id}/pay-full` },
          { label: 'Pay partially', action: `/i/${invoice.id}/pay-partial` },
          { label: 'Let it expire', action: `/i/${invoice.id}/expire` },
        ],
        links,
      ),
    };
  }
}
