/**
 * Journey (decision 0064): with PayPal configured (the local stand-in, processing payouts as soon as it
 * takes them), viewer1 buys broadcaster1's paid post. broadcaster1 gives their PayPal email on the
 * Earnings page and, once the hold (15 s) is over, asks for a payout; the administrator approves it in
 * the console, it is sent to PayPal as a batch, and PayPal's webhook pays it: the Earnings page shows it paid.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { PAYPAL_PAYOUTS_WEBHOOK_PATH } from '../server/modules/payouts';
import { LocalPayPal } from '../server/testing/paypal-standin';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import { paidOnEarnings, payoutInQueue, sellPaidPost, waitForAvailable } from './support/payouts';

const HOLD_SECONDS = 15;
let paypal: LocalPayPal | undefined;
beforeAll(async () => {
  paypal = await new LocalPayPal().start();
  paypal.payouts.processAtOnce = true;
});
afterAll(() => paypal?.close());
const openAppPage = useAppInBrowser({ env: () => ({ ...paypal!.env(), PAYOUT_HOLD_SECONDS: String(HOLD_SECONDS), PAYOUT_MINIMUM_COINS: '50' }) });
const step = journeySteps();

describe('a creator is paid out through PayPal', () => {
  step('viewer1 buys broadcaster1\'s paid post', async () => {
    const { page } = await openAppPage();
    await page.goto('/');
    const origin = new URL(page.url()).origin;
    paypal!.payoutsWebhookUrl = `${origin}${PAYPAL_PAYOUTS_WEBHOOK_PATH}`;
    await sellPaidPost(origin, 80);
  });

  step('broadcaster1 gives their PayPal email and asks for a payout after the hold', async () => {
    const { page, errors } = await openAppPage();
    await signInAt(page, 'broadcaster1', '/user/account/earnings');
    const section = page.getByRole('form', { name: 'PayPal payouts' });
    await section.getByLabel('PayPal email').fill('not an email');
    await section.getByRole('button', { name: 'Get paid with PayPal' }).click();
    await page.getByText('This Email Address is not valid').waitFor();
    await section.getByLabel('PayPal email').fill('broadcaster1@example.com');
    await section.getByRole('button', { name: 'Get paid with PayPal' }).click();
    const chosen = page.getByLabel('PayPal payouts').getByRole('status');
    await chosen.getByText('broadcaster1@example.com').waitFor();
    await chosen.scrollIntoViewIfNeeded();
    await screenshot(page, 'paypal-payouts-chosen');
    await (await waitForAvailable(page, HOLD_SECONDS))();
    expect(errors).toEqual([]);
    await page.close();
  });

  step('the administrator approves it: sent to PayPal, paid by its webhook', async () => {
    const { page, errors } = await openAppPage();
    const { row, id } = await payoutInQueue(page, 'broadcaster1');
    await row.getByText('PayPal broadcaster1@example.com').waitFor();
    await screenshot(page, 'paypal-payouts-console');
    await row.getByRole('button', { name: `Approve payout ${id}` }).click();
    await expect.poll(() => paypal!.payouts.itemOf(`po_${id}`)?.transaction_status, { timeout: 10_000 }).toBe('SUCCESS');
    expect(paypal!.payouts.itemOf(`po_${id}`)?.payout_item).toMatchObject({ receiver: 'broadcaster1@example.com', recipient_type: 'EMAIL' });
    expect(errors).toEqual([]);
    await page.close();
  });

  step('broadcaster1 sees the payout paid', async () => {
    const { page, errors } = await openAppPage();
    await paidOnEarnings(page, 'paypal-payouts-paid');
    expect(errors).toEqual([]);
  });
});
