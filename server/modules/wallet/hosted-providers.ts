/** The processors configured for payment on their own pages, by the method each takes (decision 0055). */
import type { Config } from '../../config';
import type { HostedPaymentProvider } from './hosted-payment';
import type { PaymentMethod } from './payment-provider';
import { createBtcPayProvider } from './providers/btcpay';
import { createPayPalProvider } from './providers/paypal';
import { createStripeProvider } from './providers/stripe';

/** Every processor this code can take payments through: each has its webhook route, configured or not. */
export const HOSTED_PROVIDER_NAMES = ['stripe', 'paypal', 'btcpay'] as const;

export function createHostedProviders(config: Pick<Config, 'stripe' | 'paypal' | 'btcpay'>): Partial<Record<PaymentMethod, HostedPaymentProvider>> {
  return {
    ...(config.stripe ? { card: createStripeProvider({ secretKey: config.stripe.secretKey, webhookSecret: config.stripe.webhookSecret, apiBase: config.stripe.apiBase }) } : {}),
    ...(config.paypal ? { paypal: createPayPalProvider(config.paypal) } : {}),
    ...(config.btcpay ? { bitcoin: createBtcPayProvider(config.btcpay) } : {}),
  };
}
