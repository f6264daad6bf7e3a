/** Coins for a journey's signed-in person, bought as people buy them: the deposit page and the test card. */
import type { Page } from 'playwright-core';
import { choosePackageByTestCard } from './app';

/** Buys the 1,000-coin package ($48.00) and waits for the new balance. */
export async function buyThousandCoins(page: Page): Promise<void> {
  await page.goto('/user/account/deposit-coins');
  await choosePackageByTestCard(page, '$48.00');
  await page.getByRole('button', { name: /Buy 1,?000 Coins for \$48\.00/ }).click();
  await page.getByRole('status').filter({ hasText: 'New balance:' }).waitFor({ timeout: 15_000 });
}
