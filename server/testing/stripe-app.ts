/** A test app taking cards through Stripe, pointed at a stand-in whose events reach the app's webhook (decision 0055). */
import { STRIPE_PAYOUTS_WEBHOOK_PATH } from '../modules/payouts';
import { hostedWebhookPath } from '../modules/wallet';
import { startTestApp, type TestApp } from './harness';
import { closeCheckingLedger } from './ledger-invariants';
import { startStripeStandin, type StripeStandin } from './stripe-standin';

export async function startStripeTestApp(env: Record<string, string> = {}): Promise<{ t: TestApp; stripe: StripeStandin; close(): Promise<void> }> {
  const stripe = await startStripeStandin();
  const t = await startTestApp({ ...stripe.env(), ...env });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  stripe.webhookUrl = `${base}${hostedWebhookPath('stripe')}`;
  stripe.connectWebhookUrl = `${base}${STRIPE_PAYOUTS_WEBHOOK_PATH}`;
  return {
    t,
    stripe,
    /** Closes both, failing on any broken ledger invariant or conservation. */
    async close() {
      await closeCheckingLedger(t);
      await stripe.close();
    },
  };
}
