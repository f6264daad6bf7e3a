/** Payout journeys' shared steps (decisions 0061, 0063, 0064): a sale to pay out, the Earnings page's request form and payouts, and the console's payout queue. */
import type { Page } from 'playwright-core';
import * as postsApi from '../../common/api/posts';
import { saveTaxInfo } from '../../common/api/statements';
import * as walletApi from '../../common/api/wallet';
import { SANDBOX_CARDS } from '../../server/modules/wallet';
import { eventually } from '../../server/testing/eventually';
import { HttpSession } from '../../server/testing/http-session';
import { TEST_TAX_FORM } from '../../server/testing/payouts';
import { publishImagePost } from '../../server/testing/uploads';
import { DEMO_PASSWORD, signInAt } from './app';
import { screenshot } from './browser';

/** broadcaster1 (tax information given) sells a paid post to viewer1, who pays with a sandbox card. */
export async function sellPaidPost(origin: string, price: number) {
  const creator = await HttpSession.at(origin).signIn('broadcaster1', DEMO_PASSWORD);
  const postId = await publishImagePost(creator, { title: 'Paid backstage', tip: price });
  await creator.call(saveTaxInfo, TEST_TAX_FORM);
  const viewer = await HttpSession.at(origin).signIn('viewer1', DEMO_PASSWORD);
  const [pkg] = (await viewer.call(walletApi.coinPackages, {})).packages;
  await viewer.call(walletApi.depositCoins, { package_id: pkg!.package_id, payment_method: 'card', card: { number: SANDBOX_CARDS.succeeds, exp_month: 12, exp_year: 2040, cvc: '123', name: 'Viewer One' } });
  await viewer.call(postsApi.purchasePost, { post_id: postId });
}

/** broadcaster1's Earnings page shows a payout paid (screenshot `name`); answers its row. */
export async function paidOnEarnings(page: Page, name: string) {
  await signInAt(page, 'broadcaster1', '/user/account/earnings');
  const paid = page.getByRole('table', { name: 'Payouts' }).getByRole('row').filter({ hasText: 'Paid' });
  await paid.waitFor({ timeout: 15_000 });
  await paid.scrollIntoViewIfNeeded();
  await screenshot(page, name);
  return paid;
}

/** On the Earnings page: reads it again until the hold is over, then asks for everything available. */
export async function waitForAvailable(page: Page, holdSeconds: number) {
  const form = page.getByRole('form', { name: 'Request a payout' });
  await eventually(async () => {
    await page.reload();
    await form.waitFor();
    return form.getByRole('button', { name: 'All available' }).isEnabled();
  }, (available) => available, (holdSeconds + 30) * 1000, 2000);
  return async function askForAll() {
    await form.getByRole('button', { name: 'All available' }).click();
    await form.getByRole('button', { name: 'Request payout' }).click();
    await page.getByRole('status', { name: 'Open payout request' }).waitFor();
  };
}

/** The administrator's Payouts tab: the creator's open request and its id. */
export async function payoutInQueue(page: Page, username: string) {
  await signInAt(page, 'admin', '/admin');
  await page.getByRole('tab', { name: 'Payouts' }).click();
  const row = page.getByRole('table', { name: 'Payout requests' }).getByRole('row').filter({ hasText: `@${username}` });
  await row.waitFor();
  const id = Number((await row.getByRole('button', { name: /^Approve payout/ }).getAttribute('aria-label'))!.split(' ').pop());
  return { row, id };
}
