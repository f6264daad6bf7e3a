/**
 * The seam to a processor that takes the payment on its own pages (Stripe Checkout, PayPal's approval,
 * a BTCPay invoice): we never see a card number or a wallet. A deposit starts a checkout at the
 * provider and sends the payer there; the provider's webhook (or, failing it, the reconcile job asking
 * the provider) says what became of it. Every provider answers in the same few words, so the deposit
 * flow, the webhook store and the ledger do not know which one they talk to.
 */
import type { PaymentMethod } from './payment-provider';

export interface CheckoutRequest {
  /** Our payment's reference (`pay_<id>`): the provider's idempotency key and the id its events carry back. */
  reference: string;
  amountCents: number;
  currency: 'USD' | 'CAD';
  /** What the payer sees on the provider's page (the package's name). */
  description: string;
  /** Where the provider sends the payer back, absolute; `{ref}` is replaced by nothing: our reference is in it. */
  returnUrl: string;
  cancelUrl: string;
  payer: { userId: number; email: string };
  /** Card only: keep the payment method for a recurring package, to be charged off-session later. */
  saveForRecurring: boolean;
}

export interface StartedCheckout {
  /** The provider's id of the checkout (session, order, invoice): unique per provider, stored on the payment. */
  providerRef: string;
  /** The provider's page the payer is sent to. */
  redirectUrl: string;
  /** After this the provider will not take the payment (the reconcile job asks then). */
  expiresAt: Date;
}

/** A method a provider kept for later charges (Stripe's PaymentMethod on a Customer); only what may be shown. */
export interface SavedMethod {
  token: string;
  /** The provider's customer the method is kept on (Stripe's `cus_…`), when it needs one to charge it. */
  customer?: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type ProviderEventKind =
  /** Paid in full: the coins are credited. */
  | 'payment.succeeded'
  /** Declined, failed or cancelled at the provider: nothing is credited. */
  | 'payment.failed'
  /** The checkout or invoice ran out before being paid. */
  | 'payment.expired'
  /** Bitcoin paid below the invoice's amount: held for the operator, nothing is credited. */
  | 'payment.underpaid'
  /** Money given back (by us through the console or by the provider): the coins are taken back. */
  | 'refund.succeeded'
  /** A dispute or chargeback opened: the coins are taken back as far as the wallet holds them. */
  | 'dispute.opened'
  /** A dispute closed; `won` says whether the money stays with us. */
  | 'dispute.closed';

/** One thing a provider reports, in our words. */
export interface ProviderEvent {
  /** The provider's id of the event: stored once, so a replayed delivery moves nothing. */
  eventId: string;
  kind: ProviderEventKind;
  /** The checkout's id as `StartedCheckout.providerRef`, or, for a renewal charge, the charge's id. */
  providerRef: string;
  /** Our reference when the provider echoes it. */
  reference?: string;
  /**
   * The provider's id of the money actually taken, when it differs from the checkout's (Stripe's
   * PaymentIntent, PayPal's capture): stored on the payment, and what `refund` is given.
   */
  paymentRef?: string;
  /** refund.* and dispute.*: the refund's or the dispute's own id; its movement of coins is keyed by it, once. */
  subjectRef?: string;
  /** The amount the event is about, in cents of the payment's currency (a partial refund, an underpayment). */
  amountCents?: number;
  /** For the payer or the operator: the provider's words when it refused. */
  message?: string;
  /** When the provider says it happened: events that arrive out of order are applied in this order. */
  occurredAt: Date;
  savedMethod?: SavedMethod;
  /** dispute.closed only. */
  won?: boolean;
}

export type VerifiedWebhook = { ok: true; events: ProviderEvent[] } | { ok: false; reason: 'unsigned' | 'bad_signature' | 'malformed' };

export interface HostedPaymentProvider {
  /** `stripe`, `paypal`, `btcpay`: stored with payments and part of the ledger key `payment:<name>:<providerRef>`. */
  readonly name: string;
  readonly method: PaymentMethod;
  startCheckout(request: CheckoutRequest): Promise<StartedCheckout>;
  /**
   * The payer came back from the provider's page: PayPal captures the approved order here; the others
   * answer the checkout's state. Null while the provider has nothing final to say.
   */
  completeReturn(providerRef: string): Promise<ProviderEvent | null>;
  /** The checkout's state asked of the provider (the reconcile job, after a missing webhook). */
  lookup(providerRef: string): Promise<ProviderEvent | null>;
  /** Checks a webhook delivery over its raw body (PayPal's check is a call to PayPal, hence async). */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<VerifiedWebhook>;
  /**
   * Gives money back (`providerRef`: the payment's `paymentRef` when the provider gave one, else its
   * checkout's); idempotent per `reference`. The coins leave when its `refund.succeeded` arrives.
   */
  refund(providerRef: string, amountCents: number, reference: string): Promise<{ refundRef: string; status: 'succeeded' | 'pending' | 'failed'; message?: string }>;
  /** Card only: charges a saved method off-session (a recurring package); idempotent per `reference`. */
  chargeSaved?(request: { token: string; customer?: string; amountCents: number; currency: 'USD' | 'CAD'; reference: string }): Promise<{
    status: 'succeeded' | 'declined' | 'insufficient_funds' | 'authentication_required';
    providerRef: string;
    message: string;
  }>;
}

/** Thrown by `refund` when the same reference was used for another amount and that refund is not settled yet. */
export class RefundInProgress extends Error {}
