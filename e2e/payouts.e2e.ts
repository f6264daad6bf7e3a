/**
 * Journey (decision 0061): broadcaster1 sells a paid post to viewer1; the earnings wait out the hold
 * (shortened to 15 s for the journey by PAYOUT_HOLD_SECONDS, a server setting, not a fake clock), then
 * broadcaster1 (tax information given) gives a bank account on the Earnings page, asks for a payout, cancels
 * it (the coins come back) and asks again. The administrator finds it in the console's Payouts queue,
 * approves it, exports the bank file and imports the bank's answer; the Earnings page then shows it paid,
 * and this month's statement shows the payout.
 */
import { describe, expect } from 'vitest';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import { paidOnEarnings, payoutInQueue, sellPaidPost, waitForAvailable } from './support/payouts';

const HOLD_SECONDS = 15;
const openAppPage = useAppInBrowser({ env: () => ({ PAYOUT_HOLD_SECONDS: String(HOLD_SECONDS), PAYOUT_MINIMUM_COINS: '50' }) });
const step = journeySteps();
const PRICE = 80;
let requestId = 0;

describe('a creator is paid out', () => {
  step('viewer1 buys broadcaster1\'s paid post', async () => {
    const { page } = await openAppPage();
    await page.goto('/');
    await sellPaidPost(new URL(page.url()).origin, PRICE);
  });

  step('the earnings wait out the hold; broadcaster1 gives a bank account and asks for a payout', async () => {
    const { page, errors } = await openAppPage();
    await signInAt(page, 'broadcaster1', '/user/account');
    await page.getByRole('link', { name: 'Earnings' }).click();
    const figures = page.getByRole('list', { name: 'Earnings' });
    await figures.getByRole('listitem').filter({ hasText: 'Pending' }).getByText(/^[1-9][\d,]* Coins$/).waitFor();
    await screenshot(page, 'payouts-earnings-pending');
    const bank = page.getByRole('form', { name: 'Bank account' });
    await bank.getByLabel('Account holder').fill('Broadcaster One');
    await bank.getByLabel('Account number or IBAN').fill('GB29 NWBK 6016 1331 9268 19');
    await bank.getByLabel('Bank').fill('Northwind Bank');
    await bank.getByLabel('Country').fill('United Kingdom');
    await bank.getByRole('button', { name: 'Save bank account' }).click();
    await page.getByText('account ending in').waitFor();
    // The hold runs out: the page, read again, shows the coins available.
    const ask = await waitForAvailable(page, HOLD_SECONDS);
    await ask();
    expect(await page.getByRole('status', { name: 'Open payout request' }).textContent()).toContain('requested');
    await screenshot(page, 'payouts-requested');
    // Cancelled while it waits for approval: the coins are available again, and asked for once more.
    await page.getByRole('button', { name: 'Cancel payout' }).click();
    await page.getByRole('table', { name: 'Payouts' }).getByRole('row').filter({ hasText: 'Cancelled' }).waitFor();
    await screenshot(page, 'payouts-cancelled');
    await ask();
    expect(errors).toEqual([]);
    await page.close();
  });

  step('the administrator approves it, exports the bank file and imports the bank\'s answer', async () => {
    const { page, errors } = await openAppPage();
    const { row, id } = await payoutInQueue(page, 'broadcaster1');
    requestId = id;
    await screenshot(page, 'payouts-console-queue');
    await row.getByRole('button', { name: `Approve payout ${requestId}` }).click();
    await row.getByText('Approved').waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export approved transfers' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^payouts-batch-\d+\.csv$/);
    await page.getByRole('status').filter({ hasText: 'Batch' }).waitFor();
    await page.getByLabel('The bank\'s answer').fill(`PO-${requestId},paid`);
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText('1 paid, 0 failed, 0 returned, 0 unchanged.').waitFor();
    await screenshot(page, 'payouts-console-imported');
    expect(errors).toEqual([]);
    await page.close();
  });

  step('broadcaster1 sees the payout paid, and in this month\'s statement', async () => {
    const { page, errors } = await openAppPage();
    const paidRow = await paidOnEarnings(page, 'payouts-paid');
    const coins = /([\d,]+) Coins/.exec((await paidRow.textContent()) ?? '')![1]!;

    await page.goto(page.url().replace(/\/account\/earnings.*$/, '/account'));
    await page.getByRole('link', { name: 'Statements' }).click();
    const sheet = page.getByRole('article', { name: /^Statement / });
    await sheet.waitFor();
    // Asked, cancelled (back) and asked again: two requests out, one back; the payout line nets to what was paid.
    const line = sheet.getByRole('row', { name: /^Payout / });
    await line.waitFor();
    expect((await line.textContent())?.replace(/\s+/g, ' ')).toContain(`3 ×−${coins} Coins`);
    await screenshot(page, 'payouts-statement');
    expect(errors).toEqual([]);
  });
});
