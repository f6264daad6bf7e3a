/**
 * Journey: a viewer buys a coin package with "Renew every month" on a card typed in; the form says how
 * a recurring package is cancelled (an e-mailed request from the Subscriptions page); the confirmation
 * names the next renewal; the card is then offered as a saved card.
 */
import { describe, expect, it } from 'vitest';
import { chooseFiveDollarsByTestCard, signInAt } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';

const openAppPage = useAppInBrowser();

describe('recurring coin packages', () => {
  it('buys a package that renews every month and confirms when it renews next', async () => {
    const { page, errors } = await openAppPage();
    await signInAt(page, 'viewer2', '/user/account/deposit-coins');
    await chooseFiveDollarsByTestCard(page);

    const renew = page.getByRole('checkbox', { name: 'Renew every month' });
    expect(await renew.isChecked()).toBe(false);
    await renew.check();
    const form = page.getByRole('form', { name: 'Buy coins' });
    await form.getByText('send support a cancellation request by e-mail from the').waitFor();
    expect(await form.getByRole('link', { name: 'Subscriptions' }).getAttribute('href')).toBe('/subscription');
    await screenshot(page, 'coin-subscription-renew-choice');

    await page.getByRole('button', { name: 'Buy 100 Coins for $5.00' }).click();
    const success = page.getByRole('status').filter({ hasText: 'added to your wallet' });
    await success.waitFor({ timeout: 15_000 });
    await success.getByText('This package renews every month on your card.', { exact: false }).waitFor();
    const next = new Date();
    next.setUTCMonth(next.getUTCMonth() + 1);
    const month = next.toLocaleDateString('en-US', { month: 'short' });
    expect(await success.getByText(/Next renewal:/).textContent()).toContain(month);
    await success.getByRole('link', { name: 'Subscriptions' }).waitFor();
    await screenshot(page, 'coin-subscription-confirmed');

    // The card was saved for the renewals: buying more offers it.
    await page.getByRole('button', { name: 'Buy More Coins' }).click();
    await page.getByRole('radio', { name: /Wallet/ }).check();
    await page.getByRole('combobox').filter({ hasText: '4242' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Renew every month' }).isChecked()).toBe(false);
    expect(errors).toEqual([]);
  });
});
