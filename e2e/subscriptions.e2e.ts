/**
 * Journey: a creator adds a VIP package (priority chat, no pay wall) on the subscription dashboard and
 * puts a price on the stream; a viewer meets the pay wall, buys coins, subscribes from the creator's
 * profile (plan selector, Process My Payment), comes back to find no wall, writes in the priority
 * chat, and cancels from the dashboard, keeping the benefits to the end date. A pictures post for
 * subscribers shows the viewer its teaser (creator, blurred preview, counts, Subscribe) until they subscribe.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { signInAt } from './support/app';
import { buyThousandCoins } from './support/wallet';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { saveBroadcastTitle } from './support/live';

const openAppPage = useAppInBrowser();
const step = journeySteps();

const TITLE = 'E2E members show';
const PRICE = 50;
const PHONE = { width: 390, height: 844 };
const MEMBERS_POST = 'E2E backstage, members only';

const picture = (r: number, g: number, b: number) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r, g, b } } }).jpeg({ quality: 90 }).toBuffer();

const payWall = (page: Page) => page.getByRole('region', { name: 'Pay wall' });

describe('subscriptions', () => {
  let creator: TestPage;
  let viewer: TestPage;
  let streamPath = '';
  let postPath = '';

  step('the creator adds a VIP package from the dashboard, after being told to pick a price', async () => {
    creator = await openAppPage();
    const { page } = creator;
    await signInAt(page, 'broadcaster1', '/subscription');
    await page.getByRole('tab', { name: 'My Offers' }).click();
    await page.getByText(MSG.noOwnPackages, { exact: true }).waitFor();
    await page.getByText('The platform keeps 20 % of each payment; you receive 80 %.').waitFor();
    const vip = page.getByRole('listitem', { name: 'VIP package' });
    await vip.getByText('No pay wall on paid streams').waitFor();
    await vip.getByRole('button', { name: 'Add' }).click();
    await vip.getByRole('alert').filter({ hasText: MSG.planPriceInvalid }).waitFor();
    await vip.getByLabel('VIP price').selectOption({ label: 'Monthly · 600 coins ($30.00)' });
    await vip.getByRole('button', { name: 'Add' }).click();
    await page.getByText(MSG.planAdded).first().waitFor();
    const mine = page.getByRole('list').filter({ hasText: 'VIP · Monthly · 600 coins' });
    await mine.waitFor();
    // The price just added is no longer offered.
    await expect.poll(() => vip.getByLabel('VIP price').locator('option', { hasText: 'Monthly · 600 coins' }).count()).toBe(0);
    await screenshot(page, 'subscriptions-offers');
  });

  step('the creator posts pictures for subscribers only', async () => {
    const { page } = creator;
    await page.goto('/user/upload');
    const form = page.getByRole('form', { name: 'Upload image' });
    await form.getByLabel('Choose images').setInputFiles([
      { name: 'backstage.jpg', mimeType: 'image/jpeg', buffer: await picture(200, 90, 160) },
      { name: 'rehearsal.jpg', mimeType: 'image/jpeg', buffer: await picture(60, 160, 200) },
    ]);
    await form.getByLabel('Title').fill(MEMBERS_POST);
    await form.getByLabel('Audience').selectOption('subscribers');
    await form.getByLabel('Rating').selectOption('G');
    await form.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/\/post\/post-view\?id=\d+/, { timeout: 30_000 });
    postPath = new URL(page.url()).pathname + new URL(page.url()).search;
    await page.getByLabel('Image 1 of 2').waitFor();
  });

  step('the creator puts a price on the stream and shows it', async () => {
    const { page } = creator;
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
    await saveBroadcastTitle(page, TITLE);
    await page.getByRole('button', { name: 'Get Paid' }).click();
    const getPaid = page.getByRole('dialog', { name: 'Set Stream Payment' });
    await getPaid.getByLabel('Price (coins)').fill(String(PRICE));
    await getPaid.getByRole('button', { name: 'Save' }).click();
    await getPaid.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'GO LIVE' }).click();
    const open = page.getByRole('link', { name: 'Open stream page' });
    await open.waitFor();
    streamPath = (await open.getAttribute('href')) ?? '';
    expect(streamPath).toMatch(/stream-view\?id=\d+/);
  });

  step('a viewer meets the pay wall, buys coins and subscribes from the profile', async () => {
    viewer = await openAppPage();
    const { page } = viewer;
    await signInAt(page, 'viewer1', streamPath);
    await payWall(page).waitFor();
    await payWall(page).getByText(`Tip ${PRICE} Coins`).first().waitFor();

    await buyThousandCoins(page);
    await page.getByRole('status').filter({ hasText: 'New balance: 1,000 Coins' }).waitFor();

    // The subscribers-only post: its teaser, not a dead end — the creator, a blurred preview, the counts, Subscribe.
    await page.goto(postPath);
    const teaser = page.getByRole('region', { name: MSG.subscribersOnlyTitle });
    await teaser.getByText('@broadcaster1').waitFor();
    await teaser.getByText('2 images').waitFor();
    await teaser.getByText('0 likes · 0 comments').waitFor();
    await teaser.getByRole('button', { name: 'Subscribe' }).waitFor();
    const preview = await teaser.locator('img').first().evaluate((img: HTMLImageElement) => ({ src: img.src, width: img.naturalWidth }));
    expect(preview.src).toContain('locked.webp');
    expect(preview.width).toBeLessThanOrEqual(640);
    expect(await page.getByLabel('Image 1 of 2').count()).toBe(0);
    await screenshot(page, 'subscriptions-post-teaser');
    await page.setViewportSize(PHONE);
    await teaser.getByRole('button', { name: 'Subscribe' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'subscriptions-post-teaser-phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    await page.goto(streamPath);
    await page.getByRole('link', { name: 'broadcaster1' }).first().click();
    await page.waitForURL(/\/u\/\d+/);
    // The address changes before the profile's code arrives: until then the stream page, with its own
    // Follow and Subscribe, is still shown.
    await page.getByRole('heading', { name: '@broadcaster1' }).waitFor();
    await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const modal = page.getByRole('dialog', { name: MSG.selectSubscription });
    const pay = modal.getByRole('button', { name: MSG.processMyPayment });
    await modal.getByText('No pay wall on paid streams').waitFor();
    expect(await pay.isDisabled()).toBe(true);
    await modal.getByRole('radio').first().check();
    await screenshot(page, 'subscriptions-plan-selector');
    await pay.click();
    await modal.getByText(MSG.subscribedNow).waitFor({ timeout: 15_000 });
    await screenshot(page, 'subscriptions-subscribed');
    await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
    // A subscriber sees Subscribed, and no Follow.
    await page.getByRole('button', { name: 'Subscribed' }).waitFor();
    expect(await page.getByRole('button', { name: 'Follow', exact: true }).count()).toBe(0);
    // The subscribers-only post now opens.
    await page.goto(postPath);
    await page.getByLabel('Image 1 of 2').waitFor();
    expect(await page.getByRole('region', { name: MSG.subscribersOnlyTitle }).count()).toBe(0);
  });

  step('the paid stream opens without a wall, and the viewer writes in the priority chat', async () => {
    const { page } = viewer;
    await page.goto(streamPath);
    await page.getByRole('heading', { name: TITLE }).waitFor();
    await page.getByText('The stream has not started yet.').waitFor();
    expect(await payWall(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Subscribed' }).waitFor();
    expect(await page.getByRole('button', { name: 'Follow', exact: true }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Priority' }).click();
    await page.getByRole('log', { name: 'Priority chat' }).waitFor();
    await page.getByLabel('Chat message').fill('VIP here, hello!');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('log', { name: 'Priority chat' }).getByText('VIP here, hello!').waitFor();
    await screenshot(page, 'subscriptions-priority-chat');
  });

  step('the viewer cancels from the dashboard and keeps the benefits to the end date', async () => {
    const { page } = viewer;
    await page.goto('/subscription');
    const table = page.getByRole('table', { name: 'My subscriptions' });
    const row = table.getByRole('row').filter({ hasText: 'VIP' });
    await row.getByText('Active').waitFor();
    await row.getByText('600 Coins').waitFor();
    // Auto-renewing and active: no Renew to press, the day it renews instead.
    await row.getByText(/^Renews automatically on /).waitFor();
    expect(await row.getByRole('button', { name: 'Renew' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Cancel' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel subscription' });
    await confirm.getByText(/Your benefits last until/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText(MSG.subscriptionCancelled).first().waitFor();
    await row.getByText('Cancelled').waitFor();
    expect(await row.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    await screenshot(page, 'subscriptions-cancelled');

    // Still paid up: the stream stays open until the end date.
    await page.goto(streamPath);
    await page.getByRole('heading', { name: TITLE }).waitFor();
    expect(await payWall(page).count()).toBe(0);
  });

  step('the creator sees the subscriber and the figures; the dashboard fits a phone', async () => {
    const { page } = creator;
    await page.goto('/subscription?tab=offers');
    const subscribers = page.getByRole('table', { name: 'My subscribers' });
    await subscribers.getByText('@viewer1').waitFor();
    await page.getByRole('list', { name: 'Subscriber stats' }).getByText('$30.00').waitFor();
    await screenshot(page, 'subscriptions-subscribers');
    await page.setViewportSize(PHONE);
    await page.goto('/subscription');
    await page.getByRole('tab', { name: 'My Subscriptions' }).waitFor();
    await page.getByText(MSG.noSubscriptions).first().waitFor();
    await screenshot(page, 'subscriptions-phone');
  });
});
