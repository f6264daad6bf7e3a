/**
 * PayPal Payouts as a payout method (decision 0064), PayPal's words turned into ours here and nowhere
 * else. A payout is a batch of one item to the creator's PayPal email: `POST /v1/payments/payouts` with
 * `sender_batch_id` and `sender_item_id` `po_<id>` (PayPal refuses a sender_batch_id it has seen, and the
 * call carries the same PayPal-Request-Id), so paying again never pays twice. PayPal answers the batch
 * `PENDING`; the item's outcome comes by webhook (`PAYMENT.PAYOUTS-ITEM.*`) or by reading the batch
 * (`GET /v1/payments/payouts/{payout_batch_id}`). Events are not trusted for state: the batch is read.
 */
import { centsToDecimal, createPayPalClient, field, PAYPAL, paypalIssue, ProcessorUnavailable, text, type PayPalCredentials } from '../wallet';
import type { PayoutAnswer, PayoutProcessor } from './processor-payouts';

export interface PayPalPayoutsOptions extends PayPalCredentials {
  /** The id PayPal gave the webhook registered for /api/payouts/webhooks/paypal. */
  webhookId: string;
}

/** A verified event in our words: a payout to settle from its batch as PayPal has it now, or nothing of ours. */
export type PayPalPayoutEvent = { kind: 'payout'; requestId: number; answer: PayoutAnswer } | { kind: 'ignored'; type: string };
export type PayPalWebhook = { ok: true; event: PayPalPayoutEvent } | { ok: false; reason: 'unsigned' | 'malformed' | 'bad_signature' };

export const payoutKey = (requestId: number) => `po_${requestId}`;
const requestOfKey = (key: unknown) => {
  const match = /^po_(\d{1,15})$/.exec(typeof key === 'string' ? key : '');
  return match ? Number(match[1]) : null;
};
const BATCH_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * An item's status in our words; any other (NEW, PENDING, ONHOLD, UNCLAIMED) is still on its way.
 * UNCLAIMED included: PayPal holds the money for a receiver without an account for 30 days and then
 * returns it (RETURNED: failed here, coins back).
 */
const FAILED: Record<string, string> = {
  FAILED: 'PayPal could not pay the receiver', DENIED: 'PayPal denied the payout', BLOCKED: 'PayPal blocked the payout',
  RETURNED: 'The payout was not claimed within 30 days and PayPal returned it', CANCELED: 'The payout was cancelled',
};
const TAKEN_BACK: Record<string, string> = { REFUNDED: 'PayPal refunded the payout', REVERSED: 'PayPal reversed the payout' };

/** The request a batch belongs to, and what its (single) item says. */
export function answerOfBatch(batch: unknown): { requestId: number | null; answer: PayoutAnswer } | null {
  const header = field(batch, 'batch_header');
  const ref = text(field(header, 'payout_batch_id'), 64);
  if (!ref) return null;
  const requestId = requestOfKey(field(field(header, 'sender_batch_header'), 'sender_batch_id'));
  const item = (field(batch, 'items') as unknown[] | undefined)?.[0];
  const status = String(field(item, 'transaction_status') ?? '');
  const why = (fallback: string) => text(field(field(item, 'errors'), 'message'), 200) ?? fallback;
  if (field(header, 'batch_status') === 'DENIED') return { requestId, answer: { state: 'failed', ref, reason: 'PayPal denied the payout batch' } };
  if (status === 'SUCCESS') return { requestId, answer: { state: 'paid', ref } };
  if (FAILED[status]) return { requestId, answer: { state: 'failed', ref, reason: why(FAILED[status]) } };
  if (TAKEN_BACK[status]) return { requestId, answer: { state: 'reversed', ref, reason: TAKEN_BACK[status] } };
  return { requestId, answer: { state: 'pending', ref } };
}

/** PayPal's refusals of a batch that are final (nothing was paid); anything else is asked again later. */
const REFUSED: Record<string, string> = {
  INSUFFICIENT_FUNDS: 'The platform\'s PayPal balance could not cover the payout',
  VALIDATION_ERROR: 'PayPal refused the payout',
  RECEIVER_UNREGISTERED: 'PayPal could not pay this email',
};

export function createPayPalPayouts(options: PayPalPayoutsOptions) {
  const client = createPayPalClient(options);

  /** The batch as PayPal has it now; null when PayPal has none by that id. */
  async function readBatch(batchId: string): Promise<ReturnType<typeof answerOfBatch>> {
    if (!BATCH_ID.test(batchId)) return null;
    const answer = await client.api('GET', `/v1/payments/payouts/${batchId}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw new ProcessorUnavailable(PAYPAL, `reading a payout batch: ${paypalIssue(answer).issue}`);
    return answerOfBatch(answer.body);
  }
  const read = async (batchId: string) => (await readBatch(batchId))?.answer ?? null;

  /** The batch PayPal links when it refuses a sender_batch_id it has seen (the first payout). */
  const earlierBatch = (body: unknown): string | null => {
    const detail = (field(body, 'details') as unknown[] | undefined)?.find((d) => field(d, 'field') === 'SENDER_BATCH_ID');
    const href = text(field((field(detail, 'link') as unknown[] | undefined)?.[0], 'href'), 2000);
    return href?.split('/').pop() ?? null;
  };

  const processor: PayoutProcessor = {
    async pay(p) {
      const key = payoutKey(p.requestId);
      const body = {
        sender_batch_header: { sender_batch_id: key, email_subject: 'You have a payout', email_message: `Your payout #${p.requestId} has been sent.` },
        items: [{ recipient_type: 'EMAIL', amount: { value: centsToDecimal(p.usdCents), currency: 'USD' }, receiver: p.destination, sender_item_id: key, note: `Payout #${p.requestId}` }],
      };
      const answer = await client.api('POST', '/v1/payments/payouts', JSON.stringify(body), key);
      if (answer.status === 200 || answer.status === 201) {
        const ref = text(field(field(answer.body, 'batch_header'), 'payout_batch_id'), 64);
        if (!ref) throw new ProcessorUnavailable(PAYPAL, 'a payout batch without id');
        return answerOfBatch(answer.body)?.answer ?? { state: 'pending', ref };
      }
      const earlier = answer.status === 400 ? earlierBatch(answer.body) : null;
      if (earlier) {
        // Paid before, its answer lost and the PayPal-Request-Id forgotten: the first batch is the payout.
        const first = await read(earlier);
        if (first) return first;
      }
      const { issue, description } = paypalIssue(answer);
      const refused = REFUSED[String(field(answer.body, 'name'))] ?? REFUSED[issue];
      if ((answer.status === 400 || answer.status === 422) && refused) return { state: 'failed', ref: null, reason: answer.status === 422 ? refused : `${refused}: ${description}` };
      throw new ProcessorUnavailable(PAYPAL, `creating a payout batch: ${issue}`);
    },

    /** Only a batch PayPal named can be read: without one, the job pays again under the same sender_batch_id. */
    find: async (request) => (request.ref ? read(request.ref) : null),
  };

  return {
    processor,

    /** A delivery to the payouts webhook, checked by PayPal; a payout event answers its batch as PayPal has it now. */
    async verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<PayPalWebhook> {
      const delivery = await client.verifiedEvent(rawBody, headers, options.webhookId);
      if (!delivery.ok) return delivery;
      const { type, event } = delivery;
      const resource = field(event, 'resource');
      const batchId = type.startsWith('PAYMENT.PAYOUTS-ITEM.') ? text(field(resource, 'payout_batch_id'), 64)
        : type.startsWith('PAYMENT.PAYOUTSBATCH.') ? text(field(field(resource, 'batch_header'), 'payout_batch_id'), 64) : undefined;
      const batch = batchId ? await readBatch(batchId) : null;
      if (!batch || batch.requestId === null) return { ok: true, event: { kind: 'ignored', type } };
      return { ok: true, event: { kind: 'payout', requestId: batch.requestId, answer: batch.answer } };
    },
  };
}

export type PayPalPayouts = ReturnType<typeof createPayPalPayouts>;
