/**
 * Journey: the home page leads with what is live; a signed-in viewer finds the channels they follow
 * in the side bar, live ones first; their coin balance sits in the top bar and follows a deposit and
 * a tip; "My profile" and "Saved streams" open their own profile.
 */
import { afterAll, describe, expect } from 'vitest';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { buyFiveDollarsOfCoins, signInAt, userMenu } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { broadcastAs } from './support/live';

const openAppPage = useAppInBrowser({ media: true });
const step = journeySteps();
const PHONE = { width: 390, height: 844 };
const TITLE = 'E2E home show';

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const balance = (t: TestPage) => t.page.getByRole('banner').getByRole('link', { name: /^Your balance: / });

describe('home and side bar', () => {
  let viewer: TestPage;

  step('broadcaster1 goes live', async () => {
    const broadcaster = await openAppPage();
    publisher = (await broadcastAs(broadcaster.page, TITLE)).publisher;
  }, 90_000);

  step('a guest lands on the live stream first, then more streams and the channels', async () => {
    const guest = await openAppPage();
    const { page } = guest;
    await page.goto('/');
    const featured = page.getByRole('region', { name: TITLE });
    await featured.getByText('Live now').waitFor();
    await featured.getByText('broadcaster1').waitFor();
    // Live content comes before the channels, and the welcome band is short.
    const [welcome, live, channels] = await Promise.all([
      page.getByRole('region', { name: 'Limelight' }).boundingBox(),
      featured.boundingBox(),
      page.getByRole('heading', { name: 'Channels', exact: true }).boundingBox(),
    ]);
    expect(welcome!.height).toBeLessThan(120);
    expect(live!.y).toBeLessThan(channels!.y);
    expect(live!.y).toBeLessThan(300);
    expect(await page.getByText('Now streaming on', { exact: false }).count()).toBe(0);
    await screenshot(page, 'home-guest-live');
    await featured.getByRole('link', { name: 'Watch now' }).click();
    await page.waitForURL(/\/streams\/stream-view\?id=\d+$/);

    await page.setViewportSize(PHONE);
    await page.goto('/');
    await featured.getByRole('link', { name: 'Watch now' }).waitFor();
    await screenshot(page, 'home-guest-live-phone');
    expect(guest.errors).toEqual([]);
    await guest.context.close();
  });

  step('a viewer follows a live and an offline broadcaster; the side bar lists the live one first', async () => {
    viewer = await openAppPage();
    const { page } = viewer;
    await signInAt(page, 'viewer1', '/');
    const followed = page.getByRole('navigation', { name: 'Followed channels' });
    await followed.getByText('Channels you follow show here.').waitFor();
    // The signed-in home has no welcome band: the live stream is on top.
    expect(await page.getByRole('link', { name: 'Sign up for Free' }).count()).toBe(0);
    await page.getByRole('region', { name: TITLE }).waitFor();

    for (const name of ['broadcaster3', 'broadcaster1']) {
      await page.goto(`/channel/search?search=${name}`);
      await page.getByRole('list', { name: 'People' }).getByRole('article', { name, exact: true }).getByRole('link').click();
      await page.getByRole('heading', { name: `@${name}` }).waitFor();
      const answer = page.waitForResponse((r) => r.url().includes('/api/user/toggle-following'));
      await page.getByRole('button', { name: 'Follow', exact: true }).click();
      expect((await answer).ok()).toBe(true);
      await followed.getByRole('link', { name: new RegExp(`^${name}`) }).waitFor();
    }
    // broadcaster1 was followed last but is live: first; broadcaster3 opens the profile.
    expect(await followed.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('aria-label')))).toEqual(['broadcaster1, live now', 'broadcaster3']);
    expect(await followed.getByRole('link', { name: 'broadcaster1, live now' }).getAttribute('href')).toMatch(/^\/streams\/stream-view\?id=\d+$/);
    expect(await followed.getByRole('link', { name: 'broadcaster3' }).getAttribute('href')).toMatch(/^\/u\/\d+$/);
    await page.goto('/');
    await page.getByRole('region', { name: TITLE }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Popular' }).waitFor();
    await followed.getByRole('link', { name: 'broadcaster1, live now' }).waitFor();
    // One stream only: no empty "more" row under it.
    expect(await page.getByRole('heading', { name: 'More live and recent' }).count()).toBe(0);
    await screenshot(page, 'home-viewer-followed');

    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Show side bar' }).click();
    await followed.getByRole('link', { name: 'broadcaster1, live now' }).waitFor();
    await screenshot(page, 'home-viewer-followed-phone');
    await followed.getByRole('link', { name: 'broadcaster1, live now' }).click();
    await page.waitForURL(/\/streams\/stream-view\?id=\d+$/);
    await page.setViewportSize({ width: 1366, height: 860 });
  });

  step('the top bar shows the coin balance, after a deposit and after a tip', async () => {
    const { page } = viewer;
    await balance(viewer).waitFor();
    expect(await balance(viewer).getAttribute('aria-label')).toBe('Your balance: 0 Coins');
    await page.getByRole('banner').getByRole('link', { name: 'Get Coins' }).click();
    await buyFiveDollarsOfCoins(page, '100 Coins');
    await expect.poll(() => balance(viewer).getAttribute('aria-label')).toBe('Your balance: 100 Coins');

    await page.getByRole('navigation', { name: 'Followed channels' }).getByRole('link', { name: 'broadcaster1, live now' }).click();
    await page.getByRole('button', { name: 'Tip', exact: true }).hover();
    await page.getByRole('dialog').filter({ hasText: 'Send a tip' }).getByRole('button', { name: '10 Coins' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send a Tip' });
    await confirm.getByRole('button', { name: 'Confirm Tip' }).click();
    await expect.poll(() => balance(viewer).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Your balance: 90 Coins');
    await screenshot(page, 'topbar-balance-after-tip');
  });

  step('My profile and Saved streams open the viewer’s own profile', async () => {
    const { page } = viewer;
    await userMenu(page, 'viewer1').click();
    await page.getByRole('menuitem', { name: 'My profile' }).click();
    await page.getByRole('heading', { name: '@viewer1' }).waitFor();
    await userMenu(page, 'viewer1').click();
    await page.getByRole('menuitem', { name: 'Saved streams' }).click();
    await page.getByRole('tab', { name: 'Saved', selected: true }).waitFor();
    await page.goto('/user/profile');
    await page.waitForURL(/\/u\/\d+$/);
    await page.getByRole('heading', { name: '@viewer1' }).waitFor();
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
  });
});
