/**
 * Journeys through the processors' own pages (decisions 0055, 0059), here the local stand-ins of Stripe,
 * PayPal and BTCPay Server, all three configured on one server: a viewer buys coins by card (declined
 * once, then through 3-D Secure), by PayPal (approving on PayPal's page) and in bitcoin (paying the
 * invoice on BTCPay's page), each time coming back to the deposit page, which shows the coins credited;
 * then a viewer pays a creator's plan by card from the subscribe modal and comes back subscribed.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../common/messages';
import { LocalBtcPay } from '../server/testing/btcpay-standin';
import { LocalPayPal } from '../server/testing/paypal-standin';
import { startStripeStandin, STANDIN_CARDS, type StripeStandin } from '../server/testing/stripe-standin';
import { signInAt } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';

let stripe: StripeStandin | undefined;
let paypal: LocalPayPal | undefined;
let btcpay: LocalBtcPay | undefined;
beforeAll(async () => {
  [stripe, paypal, btcpay] = await Promise.all([startStripeStandin(), new LocalPayPal().start(), new LocalBtcPay().start()]);
});
afterAll(async () => {
  await Promise.all([stripe?.close(), paypal?.close(), btcpay?.close()]);
});

const openAppPage = useAppInBrowser({
  env: () => ({ ...stripe!.env(), ...paypal!.env(), ...btcpay!.env() }),
});

/** The stand-ins post their events to the server the browser talks to. */
function pointWebhooksAt(page: Page): string {
  const origin = new URL(page.url()).origin;
  stripe!.webhookUrl = `${origin}/api/wallet/webhooks/stripe`;
  paypal!.webhookUrl = `${origin}/api/wallet/webhooks/paypal`;
  btcpay!.webhookUrl = `${origin}/api/wallet/webhooks/btcpay`;
  return origin;
}

/** Types a card on Stripe's (the stand-in's) hosted page and pays. */
async function typeCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Vera Viewer');
  await page.getByRole('button', { name: /^Pay / }).click();
}

/** On the deposit page: picks a method and the first package, buys, and lands on the processor's page. */
async function buyFirstPackageWith(page: Page, method: 'PayPal' | 'Bitcoin', processorOrigin: string) {
  await page.goto('/user/account/deposit-coins');
  const form = page.getByRole('form', { name: 'Buy coins' });
  await form.getByRole('radio', { name: new RegExp(`^${method}`) }).check();
  await page.getByRole('button', { name: 'Buy 100 Coins for $5.00' }).click();
  await page.waitForURL((url) => url.origin === processorOrigin);
}

describe('buying coins through Stripe Checkout', () => {
  it('sends the payer to the payment page and credits the coins when they come back', async () => {
    const { page, errors } = await openAppPage();
    await signInAt(page, 'viewer2', '/user/account/deposit-coins');
    const origin = pointWebhooksAt(page);

    const form = page.getByRole('form', { name: 'Buy coins' });
    await form.getByText(MSG.cardOnProcessorPage).waitFor();
    // Exactly the configured methods: the card, PayPal and bitcoin, each on its processor's page. No card
    // form here, and no saved cards to pick: the card is typed on the processor's page.
    const methods = form.getByRole('radiogroup', { name: 'Payment method' }).getByRole('radio');
    await expect.poll(async () => (await methods.evaluateAll((radios) => radios.filter((r) => !(r as HTMLInputElement).disabled).length))).toBe(3);
    for (const name of [/^Credit Card/, /^PayPal/, /^Bitcoin/]) expect(await form.getByRole('radio', { name }).isEnabled()).toBe(true);
    expect(await form.getByRole('textbox', { name: /Card number/i }).count()).toBe(0);
    expect(await page.getByRole('radio', { name: /Wallet/ }).count()).toBe(0);
    await screenshot(page, 'stripe-deposit-choose');

    await page.getByRole('button', { name: 'Buy 100 Coins for $5.00' }).click();
    await page.waitForURL((url) => url.origin === stripe!.baseUrl);
    await page.getByText('100 Coins').first().waitFor();

    await typeCard(page, STANDIN_CARDS.declined);
    await page.getByText('Your card was declined.').waitFor();
    await screenshot(page, 'stripe-deposit-declined', { check: false });

    await typeCard(page, STANDIN_CARDS.threeDSecure);
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

    // PayPal: the payer approves on PayPal's page and is sent back; the order is captured then.
    await buyFirstPackageWith(page, 'PayPal', paypal!.url);
    await page.getByText('Total: 5.00 USD').waitFor();
    await screenshot(page, 'paypal-deposit-approve', { check: false });
    await page.getByRole('button', { name: 'Pay with PayPal' }).click();
    await page.waitForURL((url) => url.origin === origin && url.searchParams.get('outcome') === 'success');
    await page.getByRole('status').filter({ hasText: 'Payment received: 100 Coins were added to your wallet.' }).waitFor({ timeout: 15_000 });
    await page.getByText('New balance: 200 Coins').waitFor();
    await screenshot(page, 'paypal-deposit-credited');

    // Bitcoin: the payer pays the invoice on BTCPay's page, whose webhook credits it; BTCPay sends them back.
    await buyFirstPackageWith(page, 'Bitcoin', btcpay!.url);
    await page.getByText('Pay 5.00 USD in bitcoin').first().waitFor();
    await screenshot(page, 'btcpay-deposit-invoice', { check: false });
    await page.getByRole('button', { name: 'Pay in full' }).click();
    await page.waitForURL((url) => url.origin === origin && url.searchParams.has('payment'));
    await page.getByRole('status').filter({ hasText: 'Payment received: 100 Coins were added to your wallet.' }).waitFor({ timeout: 15_000 });
    await page.getByText('New balance: 300 Coins').waitFor();
    await screenshot(page, 'btcpay-deposit-credited');
    expect(errors).toEqual([]);
  });
});

describe('paying a plan by card from the subscribe modal', () => {
  it('sends the payer to the card page for the plan\'s price and brings them back subscribed', async () => {
    const creator = await openAppPage();
    await signInAt(creator.page, 'broadcaster2', '/subscription?tab=offers');
    const fan = creator.page.getByRole('listitem', { name: 'Fan package' });
    await fan.getByLabel('Fan price').selectOption({ label: 'Monthly · 150 coins ($7.50)' });
    await fan.getByRole('button', { name: 'Add' }).click();
    await creator.page.getByText(MSG.planAdded).first().waitFor();
    const creatorId = await creator.page.evaluate(async () => ((await (await fetch('/api/user/session-detail')).json()) as { user: { user_id: number } }).user.user_id);

    const { page, errors } = await openAppPage();
    await signInAt(page, 'viewer1', `/u/${creatorId}`);
    const origin = pointWebhooksAt(page);
    await page.getByRole('button', { name: 'Subscribe' }).first().click();
    const modal = page.getByRole('dialog', { name: MSG.selectSubscription });
    await modal.getByRole('radio', { name: /Fan/ }).check();
    // The wallet (the default) and the methods paid on a processor's page here: card, PayPal, bitcoin.
    const methods = modal.getByRole('radiogroup', { name: 'Payment method' });
    expect(await methods.getByRole('radio').count()).toBe(4);
    expect(await methods.getByRole('radio', { name: /^Wallet/ }).isChecked()).toBe(true);
    await methods.getByRole('radio', { name: /^Credit Card/ }).check();
    await methods.getByText('$7.50 on the payment page').first().waitFor();
    await screenshot(page, 'plan-checkout-choose');
    await modal.getByRole('button', { name: MSG.processMyPayment }).click();

    await page.waitForURL((url) => url.origin === stripe!.baseUrl);
    await page.getByText(/150 Coins/).first().waitFor();
    await typeCard(page, STANDIN_CARDS.succeeds);
    await page.waitForURL((url) => url.origin === origin && url.pathname === '/subscription' && url.searchParams.get('outcome') === 'success');
    const subscribed = page.getByRole('status').filter({ hasText: MSG.subscribedNow });
    await subscribed.waitFor({ timeout: 15_000 });
    await subscribed.getByText(/Payment reference: pi_/).waitFor();
    await page.getByText(/Fan/).first().waitFor();
    await screenshot(page, 'plan-checkout-subscribed');
    expect(errors).toEqual([]);
  });
});
