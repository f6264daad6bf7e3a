/**
 * What the renewal job charges a saved card with, whichever processor is configured: the sandbox's
 * direct charge, or a hosted provider's off-session charge (Stripe: a PaymentIntent with
 * `off_session: true, confirm: true`). Both are idempotent per payment.
 */
import type { HostedPaymentProvider } from './hosted-payment';
import type { PaymentProvider } from './payment-provider';

export interface RenewalCharge {
  paymentId: number;
  token: string;
  customer: string | null;
  amountCents: number;
  currency: 'USD' | 'CAD';
}

export interface RenewalCharger {
  /** The processor's name, as stored with the saved cards it can charge. */
  readonly name: string;
  readonly available: boolean;
  /** Throws CardRefused for a card the processor will not take; any other throw means "no answer, try again later". */
  charge(request: RenewalCharge): Promise<{
    /** `authentication_required`: the bank wants the cardholder present, so the renewal is refused like a decline. */
    status: 'succeeded' | 'declined' | 'insufficient_funds' | 'authentication_required';
    providerRef: string;
    message: string;
  }>;
}

export function directCharger(provider: PaymentProvider): RenewalCharger {
  return {
    name: provider.name,
    available: provider.available,
    charge: (r) => provider.charge({ token: r.token, amountCents: r.amountCents, currency: r.currency, reference: `payment:${r.paymentId}` }),
  };
}

/** Our reference of a payment at a hosted provider: its idempotency key and what its events echo. */
export const hostedReference = (paymentId: number) => `pay_${paymentId}`;
export const paymentIdOfReference = (reference: string | undefined): number | null => {
  const match = /^pay_([1-9][0-9]{0,15})$/.exec(reference ?? '');
  return match ? Number(match[1]) : null;
};

export function offSessionCharger(provider: HostedPaymentProvider): RenewalCharger {
  const chargeSaved = provider.chargeSaved;
  return {
    name: provider.name,
    available: chargeSaved !== undefined,
    async charge(r) {
      if (!chargeSaved) throw new Error(`${provider.name} cannot charge a saved method`);
      return chargeSaved.call(provider, { token: r.token, customer: r.customer ?? undefined, amountCents: r.amountCents, currency: r.currency, reference: hostedReference(r.paymentId) });
    },
  };
}
