/**
 * Cards through Stripe (decision 0055): Checkout Sessions take the card and run 3-D Secure on Stripe's
 * page; a recurring package keeps the PaymentMethod on a Customer and each renewal is an off-session
 * PaymentIntent. Stripe's webhook events are turned into the seam's words here and nowhere else.
 */
import Stripe from 'stripe';
import { RefundInProgress, type CheckoutRequest, type HostedPaymentProvider, type ProviderEvent, type SavedMethod, type StartedCheckout, type VerifiedWebhook } from '../hosted-payment';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API host (a local stand-in): `http://127.0.0.1:12111`. Unset: api.stripe.com. */
  apiBase?: string;
  /** Seconds a signed webhook stays acceptable (Stripe's default: 300). */
  toleranceSeconds?: number;
}

/** How long the payer has on Stripe's page (Stripe's minimum is 30 minutes). */
export const CHECKOUT_TTL_SECONDS = 30 * 60;
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';
/** Set on the PaymentIntents of renewals: their own events settle them (a Checkout's are said by its session). */
const RENEWAL_MARK = 'renewal';

type Charge = NonNullable<HostedPaymentProvider['chargeSaved']>;
type ChargeAnswer = Awaited<ReturnType<Charge>>;

export function stripeClient(options: Pick<StripeOptions, 'secretKey' | 'apiBase'>): Stripe {
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  return new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'https:' ? 'https' : 'http' } : {}),
  });
}

const idOf = (value: string | { id: string } | null | undefined): string | undefined => (typeof value === 'string' ? value : value?.id);
const at = (seconds: number) => new Date(seconds * 1000);

export function createStripeProvider(options: StripeOptions): HostedPaymentProvider {
  const stripe = stripeClient(options);
  const tolerance = options.toleranceSeconds ?? 300;

  async function savedMethodOf(paymentIntentId: string | undefined): Promise<SavedMethod | undefined> {
    if (!paymentIntentId) return undefined;
    const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['payment_method'] });
    const method = intent.payment_method;
    const customer = idOf(intent.customer);
    if (!method || typeof method === 'string' || !method.card || !customer || intent.setup_future_usage !== 'off_session') return undefined;
    return { token: method.id, customer, brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year };
  }

  /** What a session says now, in our words; null while nothing is final. */
  async function sessionEvent(session: Stripe.Checkout.Session, eventId: string, occurredAt: Date, kind?: ProviderEvent['kind']): Promise<ProviderEvent | null> {
    const base = { eventId, providerRef: session.id, reference: session.client_reference_id ?? undefined, occurredAt, amountCents: session.amount_total ?? undefined };
    const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
    const decided = kind ?? (paid ? 'payment.succeeded' : session.status === 'expired' ? 'payment.expired' : null);
    if (decided === null) return null;
    if (decided !== 'payment.succeeded') return { ...base, kind: decided, message: decided === 'payment.expired' ? 'The checkout expired.' : 'The payment failed.' };
    const paymentIntent = idOf(session.payment_intent);
    return { ...base, kind: 'payment.succeeded', paymentRef: paymentIntent, savedMethod: await savedMethodOf(paymentIntent) };
  }

  /** The reference we gave a PaymentIntent (and so its charge, refunds and disputes). */
  async function referenceOfIntent(id: string | undefined): Promise<{ reference?: string; renewal: boolean }> {
    if (!id) return { renewal: false };
    const intent = await stripe.paymentIntents.retrieve(id);
    return { reference: intent.metadata?.reference, renewal: intent.metadata?.[RENEWAL_MARK] === '1' };
  }

  async function eventsOf(event: Stripe.Event): Promise<ProviderEvent[]> {
    const occurredAt = at(event.created);
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const found = await sessionEvent(event.data.object, event.id, occurredAt);
        return found?.kind === 'payment.succeeded' ? [found] : [];
      }
      case 'checkout.session.async_payment_failed':
        return [(await sessionEvent(event.data.object, event.id, occurredAt, 'payment.failed'))!];
      case 'checkout.session.expired':
        return [(await sessionEvent(event.data.object, event.id, occurredAt, 'payment.expired'))!];
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        if (intent.metadata?.[RENEWAL_MARK] !== '1') return [];
        const succeeded = event.type === 'payment_intent.succeeded';
        return [{
          eventId: event.id,
          kind: succeeded ? 'payment.succeeded' : 'payment.failed',
          providerRef: intent.id,
          paymentRef: intent.id,
          reference: intent.metadata.reference,
          amountCents: intent.amount,
          occurredAt,
          ...(succeeded ? {} : { message: intent.last_payment_error?.message ?? 'The payment failed.' }),
        }];
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const paymentIntent = idOf(charge.payment_intent);
        const { reference } = await referenceOfIntent(paymentIntent);
        // Each refund of the charge once, by its own id: a replayed or later event names the earlier ones again.
        const refunds = await stripe.refunds.list({ charge: charge.id, limit: 100 });
        return refunds.data.filter((refund) => refund.status === 'succeeded').map((refund) => ({
          eventId: event.id,
          kind: 'refund.succeeded' as const,
          providerRef: paymentIntent ?? charge.id,
          paymentRef: paymentIntent,
          reference,
          subjectRef: refund.id,
          amountCents: refund.amount,
          occurredAt: at(refund.created),
        }));
      }
      case 'charge.dispute.created':
      case 'charge.dispute.closed': {
        const dispute = event.data.object;
        const paymentIntent = idOf(dispute.payment_intent);
        const { reference } = await referenceOfIntent(paymentIntent);
        const opened = event.type === 'charge.dispute.created';
        return [{
          eventId: event.id,
          kind: opened ? 'dispute.opened' : 'dispute.closed',
          providerRef: paymentIntent ?? idOf(dispute.charge) ?? dispute.id,
          paymentRef: paymentIntent,
          reference,
          subjectRef: dispute.id,
          amountCents: dispute.amount,
          occurredAt,
          message: dispute.reason,
          ...(opened ? {} : { won: dispute.status === 'won' }),
        }];
      }
      default:
        return [];
    }
  }

  function declined(error: unknown, fallbackRef: string): ChargeAnswer | null {
    if (!(error instanceof Stripe.errors.StripeCardError)) return null;
    const providerRef = error.payment_intent?.id ?? fallbackRef;
    const code = error.code === 'authentication_required' || error.decline_code === 'authentication_required' ? 'authentication_required'
      : error.decline_code === 'insufficient_funds' ? 'insufficient_funds' : 'declined';
    return { status: code, providerRef, message: error.message };
  }

  return {
    name: 'stripe',
    method: 'card',

    async startCheckout(request: CheckoutRequest): Promise<StartedCheckout> {
      const idempotencyKey = request.reference;
      const customer = request.saveForRecurring
        ? (await stripe.customers.create({ email: request.payer.email, metadata: { user_id: String(request.payer.userId) } }, { idempotencyKey: `${idempotencyKey}:customer` })).id
        : undefined;
      const expiresAt = Math.floor(Date.now() / 1000) + CHECKOUT_TTL_SECONDS;
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        client_reference_id: request.reference,
        success_url: request.returnUrl,
        cancel_url: request.cancelUrl,
        expires_at: expiresAt,
        line_items: [{ quantity: 1, price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amountCents, product_data: { name: request.description } } }],
        metadata: { reference: request.reference },
        payment_intent_data: { metadata: { reference: request.reference }, ...(customer ? { setup_future_usage: 'off_session' as const } : {}) },
        ...(customer ? { customer } : { customer_email: request.payer.email }),
      }, { idempotencyKey });
      if (!session.url) throw new Error('Stripe answered a checkout session without a page');
      return { providerRef: session.id, redirectUrl: session.url, expiresAt: at(session.expires_at) };
    },

    async completeReturn(providerRef) {
      const session = await stripe.checkout.sessions.retrieve(providerRef);
      return sessionEvent(session, `return:${providerRef}`, new Date());
    },

    async lookup(providerRef) {
      const session = await stripe.checkout.sessions.retrieve(providerRef);
      return sessionEvent(session, `lookup:${providerRef}:${Date.now()}`, new Date());
    },

    async verifyWebhook(rawBody, headers): Promise<VerifiedWebhook> {
      const signature = headers[STRIPE_SIGNATURE_HEADER];
      if (typeof signature !== 'string' || signature === '') return { ok: false, reason: 'unsigned' };
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret, tolerance);
      } catch (error) {
        return { ok: false, reason: error instanceof Stripe.errors.StripeSignatureVerificationError ? 'bad_signature' : 'malformed' };
      }
      return { ok: true, events: await eventsOf(event) };
    },

    async refund(paymentRef, amountCents, reference) {
      let refund: Stripe.Refund;
      try {
        refund = await stripe.refunds.create({ payment_intent: paymentRef, amount: amountCents, metadata: { reference } }, { idempotencyKey: reference });
      } catch (error) {
        if (error instanceof Stripe.errors.StripeIdempotencyError) throw new RefundInProgress(error.message);
        throw error;
      }
      const status = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending';
      return { refundRef: refund.id, status, ...(refund.failure_reason ? { message: refund.failure_reason } : {}) };
    },

    async chargeSaved(request) {
      try {
        const intent = await stripe.paymentIntents.create({
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          customer: request.customer,
          payment_method: request.token,
          off_session: true,
          confirm: true,
          metadata: { reference: request.reference, [RENEWAL_MARK]: '1' },
        }, { idempotencyKey: request.reference });
        if (intent.status === 'succeeded') return { status: 'succeeded', providerRef: intent.id, message: 'Payment succeeded.' };
        if (intent.status === 'requires_action') return { status: 'authentication_required', providerRef: intent.id, message: 'The bank asks the cardholder to authenticate this payment.' };
        return { status: 'declined', providerRef: intent.id, message: intent.last_payment_error?.message ?? 'The payment failed.' };
      } catch (error) {
        const answer = declined(error, request.reference);
        if (answer) return answer;
        throw error;
      }
    },
  };
}
