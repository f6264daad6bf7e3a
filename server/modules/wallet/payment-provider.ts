/**
 * The seam to a payment processor (one provider per payment method). The server never keeps a card
 * number or CVC: a card is handed to the provider, which answers a token and what may be shown.
 *
 * `sandbox` (PAYMENTS=sandbox, the default) is a stand-in processor with the usual test cards:
 *   4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 has
 *   insufficient funds; any other number is declined; an expired card is refused.
 * Its tokens are random and carry only which test outcome they stand for (it is no real processor).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PAYMENT_METHODS } from '../../../common/api/wallet';
import { MSG, type Message } from '../../../common/messages';

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** A card as typed in; passed through, never stored or logged. */
export interface CardDetails {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  name: string;
}

export interface TokenizedCard {
  token: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type ChargeStatus = 'succeeded' | 'declined' | 'insufficient_funds';

export interface ChargeRequest {
  /** A saved card's token, or a card typed in (exactly one). */
  token?: string;
  card?: CardDetails;
  amountCents: number;
  currency: 'USD' | 'CAD';
  /**
   * Our reference for the charge (the payment row), echoed by webhooks. It is the idempotency key:
   * a charge repeated with the same reference (a renewal retried after a crash) answers the charge
   * already made and takes no money again.
   */
  reference: string;
}

export interface ChargeResult {
  status: ChargeStatus;
  /** The processor's id of the charge: settles the payment once, whoever reports it first. */
  providerRef: string;
  /** For the payer: the processor's words when it refused. */
  message: string;
}

/** What a verified webhook reports about one charge. */
export interface WebhookEvent {
  providerRef: string;
  status: ChargeStatus;
  message: string;
}

export type WebhookCheck = { ok: true; event: WebhookEvent } | { ok: false; reason: 'unsigned' | 'bad_signature' | 'malformed' };

export interface PaymentProvider {
  /** Stored with payments and cards (`payments.provider`), and part of the ledger idempotency key. */
  readonly name: string;
  /** False for a method offered by the spec that has no adapter yet: refused before anything is written. */
  readonly available: boolean;
  /** Refuses (CardRefused) an expired card. */
  tokenizeCard(card: CardDetails): Promise<TokenizedCard>;
  /** Idempotent per `reference` (see ChargeRequest). */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Checks the signature of a webhook delivery over its raw body. */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): WebhookCheck;
}

/** The provider will not take this card (expired, unknown): a 400 for the payer. */
export class CardRefused extends Error {
  constructor(readonly reason: Message) {
    super(reason);
  }
}

export class PaymentMethodUnavailable extends Error {
  constructor() {
    super(MSG.paymentMethodUnavailable);
  }
}

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

export const SANDBOX_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

const OUTCOME_BY_NUMBER: Record<string, ChargeStatus> = {
  [SANDBOX_CARDS.succeeds]: 'succeeded',
  [SANDBOX_CARDS.declined]: 'declined',
  [SANDBOX_CARDS.insufficientFunds]: 'insufficient_funds',
};

/** Letters in the token for each outcome: the only thing the sandbox remembers of a card. */
const OUTCOME_CODE: Record<ChargeStatus, string> = { succeeded: 's', declined: 'd', insufficient_funds: 'i' };
const CODE_OUTCOME = Object.fromEntries(Object.entries(OUTCOME_CODE).map(([k, v]) => [v, k as ChargeStatus]));
const TOKEN = /^tok_sbx_([sdi])_[A-Za-z0-9_-]{20,40}$/;

export const SANDBOX_MESSAGES: Record<ChargeStatus, string> = {
  succeeded: 'Payment succeeded.',
  declined: MSG.cardDeclined,
  insufficient_funds: MSG.cardInsufficientFunds,
};

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'Visa';
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return 'Mastercard';
  if (/^3[47]/.test(number)) return 'American Express';
  if (/^6(011|5)/.test(number)) return 'Discover';
  return 'Card';
}

/** Expired when the last day of the expiry month has passed. */
function isExpired(card: Pick<CardDetails, 'exp_month' | 'exp_year'>, now = new Date()): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return card.exp_year < year || (card.exp_year === year && card.exp_month < month);
}

/** References the sandbox remembers, as a processor keeps idempotency keys for a while (oldest forgotten first). */
const SANDBOX_REMEMBERED_CHARGES = 10_000;

export function createSandboxProvider(options: { webhookSecret: string }): PaymentProvider {
  const sign = (raw: Buffer | string) => createHmac('sha256', options.webhookSecret).update(raw).digest('hex');
  const answered = new Map<string, ChargeResult>();
  const outcomeOfCard = (card: CardDetails): ChargeStatus => OUTCOME_BY_NUMBER[card.number] ?? 'declined';

  return {
    name: 'sandbox',
    available: true,

    async tokenizeCard(card) {
      if (isExpired(card)) throw new CardRefused(MSG.cardExpired);
      return {
        token: `tok_sbx_${OUTCOME_CODE[outcomeOfCard(card)]}_${randomBytes(18).toString('base64url')}`,
        brand: brandOf(card.number),
        last4: card.number.slice(-4),
        expMonth: card.exp_month,
        expYear: card.exp_year,
      };
    },

    async charge(request) {
      const earlier = answered.get(request.reference);
      if (earlier) return earlier;
      let status: ChargeStatus;
      if (request.card) {
        if (isExpired(request.card)) throw new CardRefused(MSG.cardExpired);
        status = outcomeOfCard(request.card);
      } else {
        const match = TOKEN.exec(request.token ?? '');
        if (!match) throw new CardRefused(MSG.cardInvalid);
        status = CODE_OUTCOME[match[1]!]!;
      }
      const result = { status, providerRef: `ch_sbx_${randomBytes(16).toString('hex')}`, message: SANDBOX_MESSAGES[status] };
      answered.set(request.reference, result);
      if (answered.size > SANDBOX_REMEMBERED_CHARGES) answered.delete(answered.keys().next().value!);
      return result;
    },

    verifyWebhook(rawBody, headers) {
      const given = headers[SANDBOX_SIGNATURE_HEADER];
      if (typeof given !== 'string' || given === '') return { ok: false, reason: 'unsigned' };
      const expected = Buffer.from(sign(rawBody));
      const actual = Buffer.from(given.trim().toLowerCase());
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { ok: false, reason: 'bad_signature' };
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      const event = body as { type?: unknown; provider_ref?: unknown; message?: unknown };
      const status = ({ 'charge.succeeded': 'succeeded', 'charge.declined': 'declined', 'charge.insufficient_funds': 'insufficient_funds' } as const)[
        String(event.type) as 'charge.succeeded'
      ];
      if (!status || typeof event.provider_ref !== 'string' || event.provider_ref.length === 0 || event.provider_ref.length > 200) {
        return { ok: false, reason: 'malformed' };
      }
      const message = typeof event.message === 'string' && event.message.length <= 300 ? event.message : SANDBOX_MESSAGES[status];
      return { ok: true, event: { providerRef: event.provider_ref, status, message } };
    },
  };
}

/** Signs a sandbox webhook body as the sandbox would (tests, local tools). */
export function signSandboxWebhook(webhookSecret: string, rawBody: string): string {
  return createHmac('sha256', webhookSecret).update(rawBody).digest('hex');
}

/** A method the spec lists (paypal, bitcoin) with no processor yet: a real adapter replaces it. */
export function createUnavailableProvider(name: string): PaymentProvider {
  const refuse = async (): Promise<never> => {
    throw new PaymentMethodUnavailable();
  };
  return {
    name,
    available: false,
    tokenizeCard: refuse,
    charge: refuse,
    verifyWebhook: () => ({ ok: false, reason: 'unsigned' }),
  };
}

/** One provider per payment method, by configuration: PAYMENTS names the card processor (`none`: deposits are not available). */
export function createPaymentProviders(kind: 'sandbox' | 'none', options: { webhookSecret: string }): Record<PaymentMethod, PaymentProvider> {
  const card = kind === 'sandbox' ? createSandboxProvider(options) : createUnavailableProvider('card');
  return { card, paypal: createUnavailableProvider('paypal'), bitcoin: createUnavailableProvider('bitcoin') };
}
