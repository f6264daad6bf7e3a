/**
 * Journey: with cards taken through Stripe Checkout (here the local Stripe stand-in: decision 0055), a
 * viewer picks a coin package, is sent to the processor's page, is declined with one test card, pays
 * with a card that asks for 3-D Secure, authenticates, and comes back to the deposit page, which shows
 * the coins credited (the stand-in's signed webhook reached the server) and the payment's reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../common/messages';
import { startStripeStandin, STANDIN_CARDS, type StripeStandin } from '../server/testing/stripe-standin';
import { signInAt } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';

let stripe: StripeStandin | undefined;
beforeAll(async () => {
  stripe = await startStripeStandin();
});
afterAll(async () => {
  await stripe?.close();
});

const openAppPage = useAppInBrowser({
  env: () => ({
    PAYMENTS: 'stripe',
    STRIPE_SECRET_KEY: stripe!.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe!.webhookSecret,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_standin',
    STRIPE_API_BASE: stripe!.baseUrl,
  }),
});

describe('buying coins through Stripe Checkout', () => {
  it('sends the payer to the payment page and credits the coins when they come back', async () => {
    const { page, errors } = await openAppPage();
    await signInAt(page, 'viewer2', '/user/account/deposit-coins');
    const origin = new URL(page.url()).origin;
    stripe!.webhookUrl = `${origin}/api/wallet/webhooks/stripe`;

    const form = page.getByRole('form', { name: 'Buy coins' });
    await form.getByText(MSG.cardOnProcessorPage).waitFor();
    // No card form here, and no saved cards to pick: the card is typed on the processor's page.
    expect(await form.getByRole('textbox', { name: /Card number/i }).count()).toBe(0);
    expect(await page.getByRole('radio', { name: /Wallet/ }).count()).toBe(0);
    await screenshot(page, 'stripe-deposit-choose');

    await page.getByRole('button', { name: 'Buy 100 Coins for $5.00' }).click();
    await page.waitForURL((url) => url.origin === stripe!.baseUrl);
    await page.getByText('100 Coins').first().waitFor();

    const typeCard = async (number: string) => {
      await page.getByLabel('Card number').fill(number);
      await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
      await page.getByLabel('CVC').fill('123');
      await page.getByLabel('Name on card').fill('Vera Viewer');
      await page.getByRole('button', { name: /^Pay / }).click();
    };
    await typeCard(STANDIN_CARDS.declined);
    await page.getByText('Your card was declined.').waitFor();
    await screenshot(page, 'stripe-deposit-declined', { check: false });

    await typeCard(STANDIN_CARDS.threeDSecure);
    await page.getByRole('button', { name: 'Complete authentication' }).waitFor();
    await screenshot(page, 'stripe-deposit-3ds', { check: false });
    await page.getByRole('button', { name: 'Complete authentication' }).click();

    await page.waitForURL((url) => url.origin === origin && url.searchParams.get('outcome') === 'success');
    const credited = page.getByRole('status').filter({ hasText: 'Payment received: 100 Coins were added to your wallet.' });
    await credited.waitFor({ timeout: 15_000 });
    await page.getByText(/Payment reference: pi_/).waitFor();
    await screenshot(page, 'stripe-deposit-credited');

    // The wallet's history names the deposit.
    await page.getByRole('link', { name: 'Go to Wallet' }).click();
    await page.getByText('Coins bought').first().waitFor();
    expect(errors).toEqual([]);
  });
});
