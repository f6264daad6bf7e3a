/** Journeys that take cards through Stripe Checkout: a stand-in for Stripe beside the journey's server (decision 0055). */
import { afterAll, beforeAll } from 'vitest';
import { startStripeStandin, type StripeStandin } from '../../server/testing/stripe-standin';
import { useAppInBrowser } from './browser';

/** The app in a browser with `PAYMENTS=stripe`, and the stand-in (set its `webhookUrl` once the app's origin is known). */
export function useStripeAppInBrowser(env: Record<string, string> = {}) {
  let stripe: StripeStandin | undefined;
  beforeAll(async () => {
    stripe = await startStripeStandin();
  });
  afterAll(async () => {
    await stripe?.close();
  });
  const openAppPage = useAppInBrowser({ env: () => ({ ...stripe!.env(), ...env }) });
  return {
    openAppPage,
    stripe: () => {
      if (!stripe) throw new Error('the Stripe stand-in is not running: call inside a test');
      return stripe;
    },
  };
}
