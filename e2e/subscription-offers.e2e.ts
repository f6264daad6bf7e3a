/**
 * Journey: a fan takes a free trial that renews at full price (decision 0089). A creator adds a monthly
 * Fan package and a 7-day free trial on it, and copies the offer's link; a fan with coins opens the link,
 * lands on the creator's profile with the offer open (the full price struck through, "Free for 7 days,
 * then 150 Coins a month"), starts the trial and keeps every coin. Time passes (the renewal job is run at
 * the trial's end) and the subscription renews at the package's full price, as the fan's balance and the
 * subscription's history show; the creator sees the offer taken once.
 */
import { describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { buyThousandCoins } from './support/wallet';

const openAppPage = useAppInBrowser();
const step = journeySteps();

const TERMS = 'Free for 7 days, then 150 Coins a month';
const DAY = 24 * 3600_000;

describe('subscription offers', () => {
  let creator: TestPage;
  let fan: TestPage;
  let offerUrl = '';

  step('the creator adds a Fan package and a 7-day free trial on it, and copies its link', async () => {
    creator = await openAppPage();
    const { page } = creator;
    await signInAt(page, 'broadcaster1', '/subscription');
    await page.getByRole('tab', { name: 'My Offers' }).click();
    await page.getByText(MSG.offerNeedsPackage).waitFor();
    const fanPackage = page.getByRole('listitem', { name: 'Fan package' });
    await fanPackage.getByLabel('Fan price').selectOption({ label: 'Monthly · 150 coins ($7.50)' });
    await fanPackage.getByRole('button', { name: 'Add' }).click();
    await page.getByText(MSG.planAdded).first().waitFor();

    const form = page.getByRole('form', { name: 'New offer' });
    await form.getByLabel('Kind of offer').selectOption({ label: 'Free trial' });
    // Days out of range are refused in words, beside the field.
    await form.getByLabel('Free days').fill('45');
    await form.getByRole('button', { name: 'Add offer' }).click();
    await form.getByText('A free trial lasts from 1 to 30 days.').waitFor();
    await form.getByLabel('Free days').fill('7');
    await form.getByLabel('Limit of fans (optional)').fill('100');
    await form.getByRole('button', { name: 'Add offer' }).click();
    await page.getByText(MSG.offerAdded).first().waitFor();

    const offer = page.getByRole('listitem', { name: '7-day free trial on Fan' });
    await offer.getByText(TERMS).waitFor();
    await offer.getByText('0 of 100 taken').waitFor();
    offerUrl = await offer.getByRole('textbox', { name: 'Link of the 7-day free trial' }).inputValue();
    expect(offerUrl).toMatch(/\/offer\/[a-z0-9]{10}$/);
    await offer.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText(MSG.linkCopied).first().waitFor();
    await offer.scrollIntoViewIfNeeded();
    await screenshot(page, 'subscription-offers-creator');
  });

  step('a fan opens the link, sees the offer on the creator\'s profile and starts the trial for free', async () => {
    fan = await openAppPage();
    const { page } = fan;
    await signInAt(page, 'viewer1', '/');
    await buyThousandCoins(page);
    await page.getByRole('banner').getByLabel('Your balance: 1,000 Coins').waitFor();

    await page.goto(new URL(offerUrl).pathname);
    await page.waitForURL(/\/u\/\d+\?offer=[a-z0-9]{10}$/);
    await page.getByRole('heading', { name: '@broadcaster1' }).waitFor();
    const dialog = page.getByRole('dialog', { name: MSG.offerDialogTitle });
    await dialog.getByText('From @broadcaster1').waitFor();
    await dialog.getByText(TERMS).waitFor();
    await dialog.getByLabel('Full price 150 Coins').waitFor();
    await dialog.getByText('Free', { exact: true }).waitFor();
    await dialog.getByText(MSG.offerWalletOnly, { exact: false }).waitFor();
    expect(await dialog.getByRole('checkbox', { name: MSG.offerRenewsAtFullPrice }).isChecked()).toBe(true);
    await screenshot(page, 'subscription-offers-dialog');

    await dialog.getByRole('button', { name: MSG.offerStartTrial }).click();
    const done = dialog.getByRole('status');
    await done.getByText(MSG.subscribedNow).waitFor({ timeout: 15_000 });
    await done.getByText(`Your offer is on. ${TERMS}.`).waitFor();
    await done.getByText('Your balance: 1,000 Coins').waitFor();
    await screenshot(page, 'subscription-offers-taken');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await page.getByRole('button', { name: 'Subscribed' }).waitFor();
    await page.getByRole('banner').getByLabel('Your balance: 1,000 Coins').waitFor();
  });

  step('a week later the trial renews at the package\'s full price', async () => {
    const { page } = fan;
    // The renewal job, run at the moment the trial has ended (an hour after its seven days).
    const outcome = await openAppPage.services().renewals.renewDue(new Date(Date.now() + 7 * DAY + 3600_000));
    expect(outcome.renewed).toBeGreaterThanOrEqual(1);

    await page.goto('/subscription');
    const row = page.getByRole('table', { name: 'My subscriptions' }).getByRole('row').filter({ hasText: 'broadcaster1' });
    await row.getByText('150 Coins').waitFor();
    await row.getByText(/^Renews automatically on /).waitFor();
    await page.getByRole('banner').getByLabel('Your balance: 850 Coins').waitFor();
    await row.getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('dialog', { name: 'Fan · @broadcaster1' });
    await history.getByText('Fan, Monthly: 150 Coins').waitFor();
    await history.getByText('Fan (7-day free trial): free').waitFor();
    await screenshot(page, 'subscription-offers-renewed');
  });

  step('the creator sees the offer taken once', async () => {
    const { page } = creator;
    await page.reload();
    await page.getByRole('listitem', { name: '7-day free trial on Fan' }).getByText('1 of 100 taken').waitFor();
  });
});
