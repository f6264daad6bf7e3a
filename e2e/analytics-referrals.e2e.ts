/**
 * Journey: a creator's analytics and referrals. broadcaster2 (months of demo history) opens Analytics from
 * the user menu, switches the range preset and a top list's range, and downloads the CSV of the charts;
 * then opens Referrals and takes the influencer link. A new visitor opens that link, signs up, and shows
 * up in broadcaster2's referred people. A viewer outside the programme is told they are not eligible.
 */
import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { DEMO_PASSWORD, expectSystemMessages, logIn, signUpWithInterests, newUser, userMenu } from './support/app';
import { journeySteps, screenshot, useAppInBrowser, type TestPage } from './support/browser';

// The fold runs every second and folds what is a second old, so today's activity shows at once.
const openAppPage = useAppInBrowser({ demoHistory: true, env: () => ({ ANALYTICS_FOLD_SECONDS: '1', ANALYTICS_FOLD_LAG_SECONDS: '1' }) });
const step = journeySteps();

let creator: TestPage;
let influencerLink = '';
const visitor = newUser();

async function signIn(page: TestPage['page'], username: string) {
  await page.goto('/user/login');
  const dismissMessages = expectSystemMessages(page);
  await logIn(page, username, DEMO_PASSWORD);
  await page.waitForURL('**/channel/group');
  await dismissMessages();
  await userMenu(page, username).waitFor();
}

const total = (page: TestPage['page'], label: string) => page.getByRole('region', { name: 'Totals' }).getByRole('listitem', { name: label }).locator('strong').first();

describe('creator analytics and referrals', () => {
  step('broadcaster2 opens Analytics: totals, today, daily charts and top lists of the demo history', async () => {
    creator = await openAppPage({ width: 1400, height: 1000 });
    const { page } = creator;
    await signIn(page, 'broadcaster2');
    await userMenu(page, 'broadcaster2').click();
    await page.getByRole('menuitem', { name: 'Analytics' }).click();
    await page.waitForURL('**/user/analytics');
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await page.getByLabel('Date range preset').selectOption({ label: 'Last 6 month' });
    // The four follows of the history (45 to 120 days ago) are in the six months, not in this month.
    await expect.poll(() => total(page, 'New followers').getAttribute('title'), { timeout: 20_000 }).toBe('4');
    const tipped = Number((await total(page, 'Tips (coins)').getAttribute('title'))?.replace(/,/g, ''));
    expect(tipped).toBeGreaterThan(1000);
    // Earnings are every kind of earning that reached the wallet, after the platform's fee: the demo's tips less theirs at least.
    expect(Number((await total(page, 'Earnings (coins, after fees)').getAttribute('title'))?.replace(/,/g, ''))).toBeGreaterThanOrEqual(Math.floor(tipped * 0.8));
    await page.locator('.uplot').first().waitFor({ timeout: 20_000 });
    const tippers = page.getByRole('list', { name: 'Top tippers' });
    await tippers.getByRole('listitem').first().waitFor();
    expect(await tippers.getByRole('listitem').count()).toBeLessThanOrEqual(5);
    await screenshot(page, 'analytics-dashboard');
  }, 90_000);

  step('switches a top list to All time and downloads the CSV of the charts', async () => {
    const { page } = creator;
    await page.getByLabel('Top tippers range').selectOption({ label: 'All time' });
    await page.getByRole('list', { name: 'Top tippers' }).getByText(/viewer[1-4]/).first().waitFor();
    // Streams: the history's tips came without a stream, so the stream lists say so.
    await page.getByRole('region', { name: 'Top streams by tips' }).getByText(MSG.noStreamsAvailable).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = readFileSync(await download.path(), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('date,totalTip,totalStreamViews,totalFollowers');
    expect(csv.length).toBeGreaterThan(100); // the header and every day from the first tip (120 days ago) to today
    expect(csv.slice(1).reduce((sum, line) => sum + Number(line.split(',')[1]), 0)).toBeGreaterThan(1000);
    expect(download.suggestedFilename()).toMatch(/^analytics-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    await screenshot(page, 'analytics-all-time-tippers');
  }, 60_000);

  step('opens Referrals: the summary of settled commissions, rates and the influencer link', async () => {
    const { page } = creator;
    await userMenu(page, 'broadcaster2').click();
    await page.getByRole('menuitem', { name: 'Referrals' }).click();
    await page.waitForURL('**/user/referral');
    const summary = page.getByRole('region', { name: 'Summary' });
    await summary.getByText('Agent · Earnings 25% of the fee').waitFor();
    await summary.getByText('Influencer · Spending 50% of the fee').waitFor();
    await page.getByLabel('Date range preset').selectOption({ label: 'All time' });
    const referred = page.getByRole('table', { name: 'Referred people' });
    await referred.getByText('broadcaster3').waitFor();
    expect(await referred.getByRole('row').count()).toBe(4); // a header row and three people
    await page.getByLabel('Referral link').selectOption({ label: 'Influencer · main link' });
    influencerLink = await page.getByLabel('Link URL').inputValue();
    expect(influencerLink).toMatch(/\/user\/sign-up\?referralCode=[a-z0-9]{10}$/);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText(MSG.linkCopied).first().waitFor();
    // The summary of the chosen link has arrived (it is dimmed while it loads).
    await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
    await screenshot(page, 'referral-dashboard');
  }, 60_000);

  step('a new visitor signs up through the link and shows up in the referred people', async () => {
    const newcomer = await openAppPage();
    const { page } = newcomer;
    await page.goto(influencerLink.replace(/^https?:\/\/[^/]+/, ''));
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await signUpWithInterests(page, visitor);

    const { page: creatorPage } = creator;
    await creatorPage.reload();
    await creatorPage.getByLabel('Date range preset').selectOption({ label: 'All time' });
    const referred = creatorPage.getByRole('table', { name: 'Referred people' });
    await expect.poll(async () => {
      await creatorPage.getByLabel('Date range preset').selectOption({ label: 'This month' });
      await creatorPage.getByLabel('Date range preset').selectOption({ label: 'All time' });
      return referred.getByText(visitor.username).count();
    }, { timeout: 20_000 }).toBe(1);
    await creatorPage.getByRole('region', { name: 'Summary' }).getByText('4', { exact: true }).first().waitFor();
    await screenshot(creatorPage, 'referral-new-signup');
  }, 90_000);

  step('a viewer outside the programme is told they are not eligible, with a mail link to contact', async () => {
    const viewer = await openAppPage();
    const { page } = viewer;
    await signIn(page, 'viewer1');
    await page.goto('/user/referral');
    await page.getByText('You are not eligible for the Limelight referral program yet, please contact our sales team.').waitFor();
    expect(await page.getByRole('link', { name: 'Contact' }).getAttribute('href')).toMatch(/^mailto:support@/);
    await screenshot(page, 'referral-ineligible');
    // Every skin names itself, never another brand.
    await page.goto('/miitv/user/referral');
    await page.getByText('You are not eligible for the MiiTV referral program yet, please contact our sales team.').waitFor();
    expect(await page.getByText(/Peeks/).count()).toBe(0);
  }, 60_000);
});
