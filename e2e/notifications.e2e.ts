/**
 * Journey: notifications. viewer1 follows broadcaster1 (the bell on by default) and keeps a page open;
 * broadcaster1 goes live over RTMP and viewer1's top bar bell counts it within seconds, without a reload;
 * the bell's panel shows "broadcaster1 is live…", which opens the stream page and is then read; the
 * notifications page lists it. A new follower (viewer2) is counted the same way; Mark all as read clears
 * the badge.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { broadcastAs } from './support/live';

// The whole browser: the headless shell has no notifications to show a pushed message with.
const openAppPage = useAppInBrowser({ media: true, fullBrowser: true, env: () => ({ RTMP_GRACE_MS: '1500' }) });
/** One journey: each step builds on the one before (see journeySteps). */
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

/** The top bar's bell, named "Notifications" or "Notifications, N unread". */
const topBell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
const badge = (page: Page) => page.getByRole('banner').getByTestId('notification-badge');
const panel = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });
const badgeText = async (page: Page) => ((await badge(page).count()) === 0 ? '' : ((await badge(page).textContent()) ?? ''));

/** Opens a user's profile from the search's People list and follows them. */
async function follow(page: Page, username: string): Promise<void> {
  await page.goto(`/channel/search?search=${username}`);
  const people = page.getByRole('list', { name: 'People' });
  await people.getByRole('article', { name: username, exact: true }).getByRole('link').click();
  await page.getByRole('heading', { name: `@${username}` }).waitFor();
  const answer = page.waitForResponse((r) => r.url().includes('/api/user/toggle-following') && r.request().method() === 'POST');
  await page.getByRole('main').getByRole('button', { name: 'Follow', exact: true }).click();
  expect((await answer).ok()).toBe(true);
  await page.getByRole('main').getByRole('button', { name: 'Following', exact: true }).waitFor();
}

let viewer: TestPage;
let streamPath = '';

describe('notifications', () => {
  step('viewer1 follows broadcaster1 with the bell on; the top bar bell has nothing yet', async () => {
    viewer = await openAppPage();
    const { page } = viewer;
    await signInAt(page, 'viewer1', '/channel/group');
    await follow(page, 'broadcaster1');
    expect(await page.getByRole('main').getByRole('button', { name: 'Notifications', exact: true }).getAttribute('aria-pressed')).toBe('true');

    await topBell(page).waitFor();
    expect(await badge(page).count()).toBe(0);
    expect(await topBell(page).getAttribute('aria-expanded')).toBe('false');
    await topBell(page).click();
    await panel(page).getByText('No notifications yet').waitFor();
    expect(await topBell(page).getAttribute('aria-expanded')).toBe('true');
    expect(await panel(page).getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);
    // Escape closes the panel and gives the focus back to the bell.
    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'detached' });
    expect(await topBell(page).evaluate((bell) => bell === document.activeElement)).toBe(true);
    expect(viewer.errors).toEqual([]);
  });

  step('broadcaster1 goes live over RTMP: the open page of viewer1 counts it within seconds, without a reload', async () => {
    const broadcaster = await openAppPage();
    const onAir = await broadcastAs(broadcaster.page, 'Evening set');
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;

    const { page } = viewer;
    await expect.poll(() => badgeText(page), { timeout: 15_000 }).toBe('1');
    expect(await topBell(page).getAttribute('aria-label')).toBe('Notifications, 1 unread');
    await topBell(page).blur();
    await screenshot(page, 'notifications-bell');
    expect(broadcaster.errors).toEqual([]);
  }, 90_000);

  step('the panel shows "broadcaster1 is live…"; following it opens the stream page and reads it', async () => {
    const { page } = viewer;
    // By keyboard: Enter on the focused bell opens the panel.
    await topBell(page).focus();
    await page.keyboard.press('Enter');
    const live = panel(page).getByRole('link', { name: /broadcaster1 is live/ });
    await live.waitFor();
    expect(await live.getAttribute('href')).toBe(streamPath);
    await live.getByText('Unread').waitFor();
    await screenshot(page, 'notifications-panel');

    const read = page.waitForResponse((r) => r.url().includes('/api/user/notifications-read') && r.request().method() === 'POST');
    await live.click();
    await page.waitForURL((url) => url.pathname + url.search === streamPath);
    expect((await read).ok()).toBe(true);
    await panel(page).waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: /Evening set/ }).waitFor();
    await expect.poll(() => badgeText(page)).toBe('');
    expect(await topBell(page).getAttribute('aria-label')).toBe('Notifications');
  }, 60_000);

  step('See all leads to /user/notifications, which lists it, read', async () => {
    const { page } = viewer;
    await topBell(page).click();
    await panel(page).getByRole('link', { name: 'See all' }).click();
    await page.waitForURL('**/user/notifications');
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'All notifications' });
    const live = list.getByRole('link', { name: /broadcaster1 is live/ });
    await live.waitFor();
    expect(await live.getAttribute('href')).toBe(streamPath);
    expect(await live.getByText('Unread').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await screenshot(page, 'notifications-page');
    expect(viewer.errors).toEqual([]);
  });

  step('a new follower: viewer2 follows viewer1, whose bell counts it; Mark all as read clears it', async () => {
    const follower = await openAppPage();
    await signInAt(follower.page, 'viewer2', '/channel/group');
    await follow(follower.page, 'viewer1');

    const { page } = viewer;
    await expect.poll(() => badgeText(page), { timeout: 15_000 }).toBe('1');
    // The open notifications page takes the new one in at the top, without a reload.
    const list = page.getByRole('list', { name: 'All notifications' });
    await list.getByRole('link', { name: /viewer2/ }).waitFor();
    expect(await list.getByRole('listitem').first().getByRole('link').textContent()).toMatch(/viewer2/);

    await topBell(page).click();
    const newFollower = panel(page).getByRole('link', { name: /viewer2/ });
    await newFollower.waitFor();
    await newFollower.getByText('Unread').waitFor();
    const read = page.waitForResponse((r) => r.url().includes('/api/user/notifications-read') && r.request().method() === 'POST');
    await panel(page).getByRole('button', { name: 'Mark all as read' }).click();
    expect((await read).ok()).toBe(true);
    await expect.poll(() => badgeText(page)).toBe('');
    expect(await newFollower.getByText('Unread').count()).toBe(0);
    await page.keyboard.press('Escape');

    // Read elsewhere, the count follows on reload too.
    const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/notifications');
    await page.reload();
    const { unread } = (await (await listed).json()) as { unread: number };
    expect(unread).toBe(0);
    await topBell(page).waitFor();
    expect(await badge(page).count()).toBe(0);
    expect(viewer.errors).toEqual([]);
    expect(follower.errors).toEqual([]);
  }, 60_000);

  step('the push worker, served from the site root, shows a pushed message with its title, body and link', async () => {
    // A real subscription needs the browser's push service; the DevTools protocol delivers a message to the worker instead.
    const { page, context } = viewer;
    await context.grantPermissions(['notifications']);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.register('/push-sw.js')).scope);
    expect(scope).toBe(new URL('/', page.url()).href);
    const cdp = await context.newCDPSession(page);
    let registrationId = '';
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      registrationId = registrations.find((r) => r.scopeURL === scope && !r.isDeleted)?.registrationId ?? registrationId;
    });
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => registrationId).not.toBe('');
    await page.evaluate(() => navigator.serviceWorker.ready);

    const payload = { title: 'broadcaster1 is live', body: 'Evening set', url: streamPath, tag: 'stream-live' };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(scope).origin, registrationId, data: JSON.stringify(payload) });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url })),
      );
    await expect.poll(shown, { timeout: 10_000 }).toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, url: new URL(streamPath, scope).href }]);
    expect(viewer.errors).toEqual([]);
  });

  step('the settings offer push on this browser; where the browser blocks notifications, a line says so', async () => {
    // A fresh browser context: headless chromium answers the permission question with "denied".
    const other = await openAppPage();
    const { page } = other;
    await signInAt(page, 'viewer2', '/user/settings');
    const push = page.getByRole('switch', { name: 'Push notifications on this browser' });
    await push.waitFor();
    expect(await push.getAttribute('aria-checked')).toBe('false');
    await push.click();
    await page.getByText(/Notifications are blocked for this site in your browser/).waitFor();
    expect(await push.isDisabled()).toBe(true);
    expect(await page.evaluate(() => Notification.permission)).toBe('denied');
    expect(other.errors).toEqual([]);
  });
});
