/**
 * Journey: deposit limits (decision 0058). A viewer buys coins, then tries a package larger than a single
 * deposit may be here and is told so under the packages; the next purchase is past the day's limit of
 * the account and the page says so, with nothing charged.
 */
import { describe, expect, it } from 'vitest';
import { fill, MSG } from '../common/messages';
import { buyFiveDollarsOfCoins, choosePackageByTestCard, signInAt } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';

const openAppPage = useAppInBrowser({ env: () => ({ DEPOSITS_PER_ACCOUNT_PER_DAY: '2', DEPOSIT_MAX_CENTS: '2500' }) });

describe('deposit limits', () => {
  it('tells a depositor over a limit why the deposit was refused', async () => {
    const { page, errors } = await openAppPage();
    await signInAt(page, 'viewer3', '/user/account/deposit-coins');
    await buyFiveDollarsOfCoins(page, '');
    const paid = (await page.getByText(/^New balance: /).textContent())!.replace('New balance: ', '');
    await page.getByRole('button', { name: 'Buy More Coins' }).click();

    await choosePackageByTestCard(page, '$48.00');
    await page.getByRole('button', { name: 'Buy 1,000 Coins for $48.00' }).click();
    await page.getByRole('alert').filter({ hasText: fill(MSG.depositOverMax, { max: '$25.00' }) }).waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'Choose a package' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'deposit-over-max');

    await page.getByRole('radiogroup', { name: 'Coin packages' }).locator('label').filter({ hasText: '$5.00' }).click();
    await page.getByRole('button', { name: 'Buy 100 Coins for $5.00' }).click();
    await page.getByText(MSG.depositAccountDailyCount).waitFor({ timeout: 15_000 });
    await screenshot(page, 'deposit-daily-limit');
    // Only the first purchase was charged.
    await page.reload();
    expect(await page.getByText(/^Balance: /).textContent()).toBe(`Balance: ${paid}`);
    expect(errors).toEqual([]);
  });
});
