/** Payout journeys' shared steps (decisions 0061, 0063): the Earnings page's request form and the console's payout queue. */
import type { Page } from 'playwright-core';
import { eventually } from '../../server/testing/eventually';
import { signInAt } from './app';

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
