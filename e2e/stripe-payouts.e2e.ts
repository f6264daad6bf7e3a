/**
 * Journey (decision 0063): with Stripe configured (the local stand-in), viewer1 buys coins through Stripe
 * Checkout and buys broadcaster1's paid post. broadcaster1 chooses Stripe on the Earnings page, fills in
 * Stripe's (the stand-in's) Express onboarding page and comes back onboarded; once the hold (15 s) is
 * over they ask for a payout, the administrator approves it in the console, and it is paid at once by a
 * transfer to the Express account: the Earnings page shows it paid.
 */
import { describe, expect } from 'vitest';
import * as postsApi from '../common/api/posts';
import { saveTaxInfo } from '../common/api/statements';
import * as walletApi from '../common/api/wallet';
import { HttpSession } from '../server/testing/http-session';
import { TEST_TAX_FORM } from '../server/testing/payouts';
import { payOnHostedPage, STANDIN_CARDS } from '../server/testing/stripe-standin';
import { publishImagePost } from '../server/testing/uploads';
import { DEMO_PASSWORD, signInAt } from './support/app';
import { journeySteps, screenshot } from './support/browser';
import { paidOnEarnings, payoutInQueue, waitForAvailable } from './support/payouts';
import { useStripeAppInBrowser } from './support/stripe';

const HOLD_SECONDS = 15;
const { openAppPage, stripe } = useStripeAppInBrowser({ PAYOUT_HOLD_SECONDS: String(HOLD_SECONDS), PAYOUT_MINIMUM_COINS: '50' });
const step = journeySteps();

describe('a creator is paid out through Stripe Connect', () => {
  step('viewer1 buys coins through Stripe and buys broadcaster1\'s paid post', async () => {
    const { page } = await openAppPage();
    await page.goto('/');
    const origin = new URL(page.url()).origin;
    stripe().webhookUrl = `${origin}/api/wallet/webhooks/stripe`;
    stripe().connectWebhookUrl = `${origin}/api/payouts/webhooks/stripe`;
    const creator = await HttpSession.at(origin).signIn('broadcaster1', DEMO_PASSWORD);
    const postId = await publishImagePost(creator, { title: 'Paid backstage', tip: 80 });
    await creator.call(saveTaxInfo, TEST_TAX_FORM);
    const viewer = await HttpSession.at(origin).signIn('viewer1', DEMO_PASSWORD);
    const [pkg] = (await viewer.call(walletApi.coinPackages, {})).packages;
    const started = await viewer.call(walletApi.depositCoins, { package_id: pkg!.package_id, payment_method: 'card', return_path: '/user/account/deposit-coins' });
    expect((await payOnHostedPage(started.checkout!.redirect_url, STANDIN_CARDS.succeeds)).status).toBe(303);
    await viewer.call(postsApi.purchasePost, { post_id: postId });
  });

  step('broadcaster1 chooses Stripe, onboards on Stripe\'s page and comes back onboarded', async () => {
    const { page, errors } = await openAppPage();
    await signInAt(page, 'broadcaster1', '/user/account/earnings');
    const stripeSection = page.getByLabel('Stripe payouts');
    await stripeSection.getByRole('button', { name: 'Get paid with Stripe' }).click();
    await page.waitForURL((url) => url.origin === stripe().baseUrl);
    await page.getByRole('heading', { name: 'Get paid with Stripe' }).waitFor();
    await page.getByLabel('Legal name').fill('Broadcaster One');
    await page.getByLabel('Date of birth').fill('1990-12-10');
    await screenshot(page, 'stripe-payouts-onboarding');
    await page.getByRole('button', { name: 'Agree and submit' }).click();
    await page.waitForURL(/\/user\/account\/earnings/);
    await stripeSection.getByText('Payouts go to your Stripe account').waitFor();
    await expect.poll(() => page.url()).not.toContain('stripe=');
    await stripeSection.scrollIntoViewIfNeeded();
    await screenshot(page, 'stripe-payouts-onboarded');

    await (await waitForAvailable(page, HOLD_SECONDS))();
    expect(errors).toEqual([]);
    await page.close();
  });

  step('the administrator approves it: paid at once by a transfer to the Express account', async () => {
    const { page, errors } = await openAppPage();
    const { row, id } = await payoutInQueue(page, 'broadcaster1');
    await row.getByText(/^Stripe ····/).waitFor();
    await screenshot(page, 'stripe-payouts-console');
    await row.getByRole('button', { name: `Approve payout ${id}` }).click();
    // Paid, it leaves the queue of open requests.
    await expect.poll(() => row.count()).toBe(0);
    const transfers = [...stripe().connect.transfers.values()].filter((t) => t.transfer_group === `po_${id}`);
    expect(transfers).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  step('broadcaster1 sees the payout paid', async () => {
    const { page, errors } = await openAppPage();
    await paidOnEarnings(page, 'stripe-payouts-paid');
    expect(errors).toEqual([]);
  });
});
