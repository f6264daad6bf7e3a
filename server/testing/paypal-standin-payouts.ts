/**
 * The PayPal stand-in's Payouts API (v1), as PayPal documents it: `POST /v1/payments/payouts` makes a
 * batch (201, `batch_header` with `payout_batch_id` and `batch_status: PENDING`; items are processed
 * afterwards), a `sender_batch_id` used before is refused (400 USER_BUSINESS_ERROR, the earlier batch
 * linked), a batch beyond the platform's PayPal balance is refused (422 INSUFFICIENT_FUNDS), and
 * `GET /v1/payments/payouts/{payout_batch_id}` answers the batch with its items. Processing moves each
 * item to the outcome chosen for its receiver and sends `PAYMENT.PAYOUTS-ITEM.<event>` webhooks whose
 * resource is the item (`payout_item_id`, `payout_batch_id`, `transaction_status`, `payout_item`).
 */
import { randomBytes } from 'node:crypto';
import type { StandinAnswer } from './standin-http';

type Json = Record<string, unknown>;

export type PayoutItemStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'DENIED' | 'BLOCKED' | 'RETURNED' | 'UNCLAIMED' | 'ONHOLD' | 'REFUNDED';

/** The webhook each item status is announced with. */
const EVENT_OF: Partial<Record<PayoutItemStatus, string>> = {
  SUCCESS: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', FAILED: 'PAYMENT.PAYOUTS-ITEM.FAILED', DENIED: 'PAYMENT.PAYOUTS-ITEM.DENIED',
  BLOCKED: 'PAYMENT.PAYOUTS-ITEM.BLOCKED', RETURNED: 'PAYMENT.PAYOUTS-ITEM.RETURNED', UNCLAIMED: 'PAYMENT.PAYOUTS-ITEM.UNCLAIMED',
  ONHOLD: 'PAYMENT.PAYOUTS-ITEM.HELD', REFUNDED: 'PAYMENT.PAYOUTS-ITEM.REFUNDED',
};
const ERRORS: Partial<Record<PayoutItemStatus, { name: string; message: string }>> = {
  FAILED: { name: 'RECEIVER_UNREGISTERED', message: 'Receiver is unregistered' },
  DENIED: { name: 'RISK_DECLINE', message: 'Transaction was declined due to risk concerns' },
  BLOCKED: { name: 'RECEIVER_ACCOUNT_LOCKED', message: 'Receiver\'s account is locked or inactive' },
  RETURNED: { name: 'RECEIVER_UNCONFIRMED', message: 'The payout was not claimed within 30 days and was returned' },
};

export interface StandinPayoutItem {
  payout_item_id: string;
  transaction_id?: string;
  transaction_status: PayoutItemStatus;
  payout_batch_id: string;
  payout_item: { recipient_type: string; amount: { value: string; currency: string }; note?: string; receiver: string; sender_item_id?: string };
  time_processed?: string;
  errors?: { name: string; message: string };
}

export interface StandinPayoutBatch {
  id: string;
  senderBatchId: string;
  status: 'PENDING' | 'PROCESSING' | 'SUCCESS';
  items: StandinPayoutItem[];
  cents: number;
  createTime: string;
}

const id = (prefix = '') => `${prefix}${randomBytes(8).toString('hex').toUpperCase().slice(0, 13)}`;
const cents = (value: string) => Math.round(Number(value) * 100);
const problem = (status: number, name: string, message: string, details: Json[] = []): StandinAnswer => ({
  status, json: { name, message, debug_id: randomBytes(6).toString('hex'), details, links: [] },
});

export class StandinPayPalPayouts {
  readonly batches = new Map<string, StandinPayoutBatch>();
  /** The platform's PayPal balance payouts are drawn from, in cents. */
  balanceCents = 10_000_000;
  /** What processing makes of an item, by receiver email (default SUCCESS). */
  readonly outcomes = new Map<string, PayoutItemStatus>();
  /** Batches are made but the answer to the create call is lost (the connection drops), retries too. */
  loseCreateAnswers = false;
  /** Processed at once after the create answer (a browser journey); otherwise a test calls `process`. */
  processAtOnce = false;

  constructor(private readonly origin: () => string, private readonly emit: (eventType: string, summary: string, resource: Json) => Promise<void>) {}

  batchData(batch: StandinPayoutBatch): Json {
    const amount = { currency: 'USD', value: (batch.cents / 100).toFixed(2) };
    return {
      batch_header: {
        payout_batch_id: batch.id,
        batch_status: batch.status,
        time_created: batch.createTime,
        sender_batch_header: { sender_batch_id: batch.senderBatchId },
        amount,
        fees: { currency: 'USD', value: '0.00' },
      },
      items: batch.items.map((item) => this.itemData(item)),
      links: [{ href: `${this.origin()}/v1/payments/payouts/${batch.id}`, rel: 'self', method: 'GET', encType: 'application/json' }],
    };
  }

  private itemData(item: StandinPayoutItem): Json {
    return {
      ...item,
      payout_item_fee: { currency: 'USD', value: '0.00' },
      links: [{ href: `${this.origin()}/v1/payments/payouts-item/${item.payout_item_id}`, rel: 'item', method: 'GET', encType: 'application/json' }],
    };
  }

  /** `POST /v1/payments/payouts` (after PayPal-Request-Id idempotency, which the stand-in's handler applies). */
  create(body: Json): StandinAnswer {
    const header = body.sender_batch_header as Json | undefined;
    const items = body.items as Json[] | undefined;
    const senderBatchId = header?.sender_batch_id;
    if (typeof senderBatchId !== 'string' || !Array.isArray(items) || items.length === 0) {
      return problem(400, 'VALIDATION_ERROR', 'Invalid request - see details.', [{ field: 'sender_batch_header', location: 'body', issue: 'Required field is missing.' }]);
    }
    const earlier = [...this.batches.values()].find((b) => b.senderBatchId === senderBatchId);
    if (earlier) {
      return problem(400, 'USER_BUSINESS_ERROR', 'User business error.', [{
        field: 'SENDER_BATCH_ID', location: 'body', issue: `Batch with given sender_batch_id already exists`,
        link: [{ href: `${this.origin()}/v1/payments/payouts/${earlier.id}`, rel: 'self', method: 'GET', encType: 'application/json' }],
      }]);
    }
    const made: StandinPayoutItem[] = [];
    for (const item of items) {
      const amount = item.amount as { value?: unknown; currency?: unknown } | undefined;
      if (item.recipient_type !== 'EMAIL' || typeof item.receiver !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(item.receiver)
        || amount?.currency !== 'USD' || typeof amount.value !== 'string' || !/^\d{1,8}\.\d{2}$/.test(amount.value) || cents(amount.value) <= 0) {
        return problem(400, 'VALIDATION_ERROR', 'Invalid request - see details.', [{ field: 'items[0]', location: 'body', issue: 'Invalid recipient_type, receiver or amount.' }]);
      }
      made.push({
        payout_item_id: id(), transaction_status: 'PENDING', payout_batch_id: '',
        payout_item: { recipient_type: 'EMAIL', amount: { value: amount.value, currency: 'USD' }, note: typeof item.note === 'string' ? item.note : undefined, receiver: item.receiver, sender_item_id: typeof item.sender_item_id === 'string' ? item.sender_item_id : undefined },
      });
    }
    const total = made.reduce((sum, item) => sum + cents(item.payout_item.amount.value), 0);
    if (total > this.balanceCents) return problem(422, 'INSUFFICIENT_FUNDS', 'Sender does not have sufficient funds. Please add funds and retry.');
    this.balanceCents -= total;
    const batch: StandinPayoutBatch = { id: id(), senderBatchId, status: 'PENDING', items: made, cents: total, createTime: new Date().toISOString() };
    for (const item of made) item.payout_batch_id = batch.id;
    this.batches.set(batch.id, batch);
    if (this.processAtOnce) setTimeout(() => void this.process(), 20);
    const { items: _items, ...answer } = this.batchData(batch);
    return { status: 201, json: answer };
  }

  /** `GET /v1/payments/payouts/{id}`. */
  read(batchId: string): StandinAnswer {
    const batch = this.batches.get(batchId);
    if (!batch) return problem(404, 'INVALID_RESOURCE_ID', 'The requested resource ID was not found');
    return { status: 200, json: this.batchData(batch) };
  }

  /** Every pending item becomes its receiver's outcome, each announced by its webhook. */
  async process(): Promise<void> {
    for (const batch of this.batches.values()) {
      for (const item of batch.items) {
        if (item.transaction_status === 'PENDING') await this.settle(item.payout_item_id, this.outcomes.get(item.payout_item.receiver) ?? 'SUCCESS');
      }
    }
  }

  /** An item moves on (an unclaimed payout returned after 30 days, a success refunded...), announced by its webhook. */
  async settle(itemId: string, status: PayoutItemStatus): Promise<void> {
    const batch = [...this.batches.values()].find((b) => b.items.some((i) => i.payout_item_id === itemId));
    const item = batch?.items.find((i) => i.payout_item_id === itemId);
    if (!batch || !item) throw new Error(`no payout item ${itemId}`);
    item.transaction_status = status;
    item.time_processed = new Date().toISOString();
    if (status === 'SUCCESS' || status === 'UNCLAIMED') item.transaction_id ??= id('TX');
    if (ERRORS[status]) item.errors = ERRORS[status];
    // Money that did not reach the receiver is back in the platform's balance.
    if (status === 'FAILED' || status === 'DENIED' || status === 'BLOCKED' || status === 'RETURNED' || status === 'REFUNDED') this.balanceCents += cents(item.payout_item.amount.value);
    batch.status = batch.items.every((i) => i.transaction_status !== 'PENDING') ? 'SUCCESS' : 'PROCESSING';
    const eventType = EVENT_OF[status];
    if (eventType) await this.emit(eventType, `Payout item ${status.toLowerCase()}`, this.itemData(item));
  }

  /** The item of the batch whose sender_batch_id is `senderBatchId`. */
  itemOf(senderBatchId: string): StandinPayoutItem | undefined {
    return [...this.batches.values()].find((b) => b.senderBatchId === senderBatchId)?.items[0];
  }
}
