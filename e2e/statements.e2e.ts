/**
 * Journey: a creator's tax information and statements (decision 0062). broadcaster2 (months of demo
 * history) opens Settings, follows "Tax information", fills the form and sees the tax id masked; then
 * opens Statements: this month's printable statement, whose CSV download sums to the closing balance
 * shown, and the year's summary.
 */
import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser, type TestPage } from './support/browser';

const openAppPage = useAppInBrowser({ demoHistory: true });
const step = journeySteps();
let creator: TestPage;
const month = new Date().toISOString().slice(0, 7);

describe('tax information and statements', () => {
  step('fills the tax form from Settings and sees the tax id masked', async () => {
    creator = await openAppPage({ width: 1280, height: 1000 });
    const { page } = creator;
    await signInAt(page, 'broadcaster2', '/user/settings');
    await page.getByRole('link', { name: 'Tax information' }).click();
    await page.waitForURL('**/user/tax-info');
    const form = page.getByRole('form', { name: 'Tax information' });
    await form.getByLabel('Legal name').fill('Bea Broadcaster');
    await form.getByLabel('Type').selectOption('business');
    await form.getByLabel('Country').selectOption('US');
    await form.getByLabel('Tax id').fill('12-3456789');
    await form.getByLabel('Street address').fill('500 Market Street, Suite 2');
    await form.getByLabel('City').fill('San Francisco');
    await form.getByLabel('State or region (optional)').fill('CA');
    await form.getByLabel('Postal code (optional)').fill('94105');
    await screenshot(creator.page, 'tax-info-form');
    await form.getByRole('button', { name: 'Save' }).click();

    const saved = page.getByLabel('Saved tax information');
    await saved.waitFor();
    expect(await page.getByTestId('tax-id-masked').textContent()).toBe('•••• 6789');
    expect(await page.content()).not.toContain('123456789');
    await saved.getByText('Business').waitFor();
    await screenshot(page, 'tax-info-saved');

    // Changing it asks for the tax id again: the saved one is never sent back.
    await page.getByRole('button', { name: 'Change' }).click();
    expect(await form.getByLabel('Tax id').inputValue()).toBe('');
    await form.getByText('Saved: •••• 6789').waitFor();
  }, 60_000);

  step("opens this month's statement, printable, and downloads its CSV", async () => {
    const { page, errors } = creator;
    await page.getByRole('link', { name: 'statements' }).click();
    await page.waitForURL('**/user/statements');
    const sheet = page.getByRole('article', { name: /^Statement / });
    await sheet.waitFor();
    const closingRow = sheet.getByRole('row', { name: /Closing balance/ });
    const closingText = (await closingRow.textContent()) ?? '';
    const closingCoins = Number(/([\d,]+) Coins?/.exec(closingText)![1]!.replace(/,/g, ''));
    // The demo's history left broadcaster2 coins; each is 5 cents.
    expect(closingCoins).toBeGreaterThan(0);
    expect(closingText).toContain(`$${(closingCoins / 20).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
    await page.getByRole('table', { name: `${month.slice(0, 4)} by month` }).waitFor();
    await screenshot(page, 'statement-month');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`statement-broadcaster2-${month}.csv`);
    const rows = readFileSync(await download.path(), 'utf8').trimEnd().split('\r\n').map((line) => line.split(','));
    expect(rows[0]).toEqual(['section', 'kind', 'description', 'transfers', 'coins', 'usd']);
    const lines = rows.slice(1);
    const closing = lines.find((r) => r[0] === 'closing')!;
    expect(Number(closing[4])).toBe(closingCoins);
    expect(lines.filter((r) => r[0] !== 'closing').reduce((sum, r) => sum + Number(r[4]), 0)).toBe(closingCoins);

    // Printed, the statement is all there is on the page.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await sheet.isVisible()).toBe(true);
    await screenshot(page, 'statement-print', { check: false });
    await page.emulateMedia({ media: 'screen' });
    expect(errors).toEqual([]);
  }, 60_000);
});
