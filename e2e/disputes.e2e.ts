/**
 * Journey (decision 0057): a viewer bought coins twice through Stripe (the local stand-in) and spent
 * them; their bank disputes the first payment. Their wallet page says why it is on hold and what they
 * owe. An administrator finds the account in the console's queue of held accounts, opens its deposits
 * and gives part of the second one back through the processor, with the keyboard.
 */
import { describe, expect } from 'vitest';
import * as walletApi from '../common/api/wallet';
import { fill, MSG } from '../common/messages';
import { eventually } from '../server/testing/eventually';
import { HttpSession } from '../server/testing/http-session';
import { payOnHostedPage, STANDIN_CARDS } from '../server/testing/stripe-standin';
import { DEMO_PASSWORD, signInAt } from './support/app';
import { journeySteps, screenshot } from './support/browser';
import { useStripeAppInBrowser } from './support/stripe';

const { openAppPage, stripe } = useStripeAppInBrowser();
const step = journeySteps();

const VIEWER = 'viewer3';
let secondPayment = 0;

describe('a disputed deposit in the console', () => {
  step('viewer3 buys 200 coins through Stripe, spends them, and the bank disputes the first payment', async () => {
    const { page } = await openAppPage();
    await page.goto('/');
    const origin = new URL(page.url()).origin;
    stripe().webhookUrl = `${origin}/api/wallet/webhooks/stripe`;
    const viewer = await HttpSession.at(origin).signIn(VIEWER, DEMO_PASSWORD);
    const [pkg] = (await viewer.call(walletApi.coinPackages, {})).packages;
    const intents: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { checkout } = await viewer.call(walletApi.depositCoins, { package_id: pkg!.package_id, payment_method: 'card', return_path: '/user/account' });
      expect((await payOnHostedPage(checkout!.redirect_url, STANDIN_CARDS.succeeds)).status).toBe(303);
      intents.push(String(stripe().session(checkout!.redirect_url.split('/').pop()!)!.payment_intent));
      secondPayment = checkout!.payment_id;
    }
    const balance = async () => (await viewer.call(walletApi.walletBalance, {})).balance.CON;
    const coins = await eventually(balance, (n) => n >= 2 * pkg!.coins);
    const [impressions] = (await viewer.call(walletApi.getImpressionPackages, {})).impression_packages.filter((p) => p.price === coins);
    await viewer.call(walletApi.buyImpressionsPackage, { id: impressions!.package_id });
    await stripe().dispute(intents[0]!);
    await eventually(async () => (await viewer.call(walletApi.walletHold, {})).hold, (hold) => hold.on_hold && hold.coins_owed === pkg!.coins);
  });

  step('the wallet page tells viewer3 why their wallet is on hold', async () => {
    const { page, errors } = await openAppPage();
    await signInAt(page, VIEWER, '/user/account');
    const notice = page.getByRole('status', { name: MSG.walletHeldTitle });
    await notice.getByText(fill(MSG.walletOnHoldDebt, { coins: '100 Coins' })).waitFor();
    await notice.getByText(MSG.walletOnHoldDispute).waitFor();
    await screenshot(page, 'wallet-on-hold');
    expect(errors).toEqual([]);
  });

  step('an administrator finds the account in the queue and refunds part of its other deposit', async () => {
    const { page, errors } = await openAppPage();
    await signInAt(page, 'admin', '/admin');
    await page.getByRole('tab', { name: 'Payments' }).click();
    const queue = page.getByRole('table', { name: 'Accounts on hold' });
    const row = queue.getByRole('row').filter({ hasText: `@${VIEWER}` });
    await row.getByText('Dispute open').waitFor();
    await row.getByText('100 Coins').first().waitFor();
    await screenshot(page, 'console-held-accounts');

    // By keyboard: the row's Deposits button, then the refund of the second payment.
    await row.getByRole('button', { name: `Deposits of @${VIEWER}` }).focus();
    await page.keyboard.press('Enter');
    const deposits = page.getByRole('table', { name: `Deposits of @${VIEWER}` });
    await deposits.waitFor();
    await deposits.getByRole('button', { name: `Refund payment #${secondPayment}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Refund deposit' });
    await dialog.getByLabel(/Amount/).fill('2.50');
    await screenshot(page, 'console-refund-deposit');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    // The processor confirmed: half the coins of the second deposit are owed too, and the queue says so.
    const refunded = queue.getByRole('row').filter({ hasText: 'Refunded' });
    await refunded.waitFor();
    await refunded.getByText('150 Coins').waitFor();
    await deposits.getByRole('row').filter({ hasText: `#${secondPayment}` }).getByText('$2.50').waitFor();
    await screenshot(page, 'console-held-accounts-refunded');
    expect(errors).toEqual([]);
  });
});
