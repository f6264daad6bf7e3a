/** Journeys: search → profile → follow and the bell; the follow notification landing page for a guest. */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';

const openAppPage = useAppInBrowser();
/** One journey: each step builds on the one before (see journeySteps). */
const step = journeySteps();

const statButton = (page: Page, label: 'Followers' | 'Following') => page.getByRole('main').getByRole('button', { name: new RegExp(` ${label}$`) });
/** The profile's bell (the top bar has a bell of its own, for the notification list). */
const bell = (page: Page) => page.getByRole('main').getByRole('button', { name: 'Notifications', exact: true });

/** Clicks and waits for the call it causes, so the next step sees the server's state. */
async function clickAndWait(page: Page, target: ReturnType<Page['getByRole']>, path: string): Promise<void> {
  const answer = page.waitForResponse((r) => r.url().includes(path) && r.request().method() === 'POST');
  await target.click();
  expect((await answer).ok()).toBe(true);
}

let broadcasterPath = '';
let viewer1Path = '';

describe('follow', () => {
  step('finds a broadcaster, follows them, turns the bell off and on, and keeps it after a reload', async () => {
    const { page, context, errors } = await openAppPage();
    await signInAt(page, 'viewer1', '/channel/search?search=broadcaster1');
    const people = page.getByRole('list', { name: 'People' });
    await people.getByRole('article', { name: 'broadcaster1', exact: true }).waitFor();
    await screenshot(page, 'search-people');
    await people.getByRole('article', { name: 'broadcaster1', exact: true }).getByRole('link').click();

    await page.waitForURL(/\/u\/\d+$/);
    broadcasterPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: '@broadcaster1' }).waitFor();
    expect(await statButton(page, 'Followers').textContent()).toContain('0');
    expect(await bell(page).count()).toBe(0);

    await clickAndWait(page, page.getByRole('button', { name: 'Follow', exact: true }), '/api/user/toggle-following');
    await page.getByRole('button', { name: 'Following', exact: true }).waitFor();
    expect((await statButton(page, 'Followers').textContent())?.replace(/\s+/g, ' ').trim()).toBe('1 Followers');
    expect(await bell(page).getAttribute('aria-pressed')).toBe('true');

    await clickAndWait(page, bell(page), '/api/user/toggle-notification');
    expect(await bell(page).getAttribute('aria-pressed')).toBe('false');
    await clickAndWait(page, bell(page), '/api/user/toggle-notification');
    expect(await bell(page).getAttribute('aria-pressed')).toBe('true');

    await page.reload();
    await page.getByRole('button', { name: 'Following', exact: true }).waitFor();
    expect((await statButton(page, 'Followers').textContent())?.replace(/\s+/g, ' ').trim()).toBe('1 Followers');
    expect(await bell(page).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('tab', { name: 'Saved' }).count()).toBe(0);
    await page.getByText(MSG.noStreamsFound).waitFor();
    await screenshot(page, 'profile');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Share profile' }).click();
    await page.getByText(MSG.linkCopied, { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${new URL(page.url()).origin}${broadcasterPath}`);

    await statButton(page, 'Followers').click();
    const dialog = page.getByRole('dialog', { name: 'Followers (1)' });
    await dialog.getByRole('article', { name: 'viewer1' }).waitFor();
    // No Follow button on yourself.
    expect(await dialog.getByRole('article', { name: 'viewer1' }).getByRole('button').count()).toBe(0);
    viewer1Path = (await dialog.getByRole('article', { name: 'viewer1' }).getByRole('link').getAttribute('href')) ?? '';
    await dialog.getByLabel('Search followers').fill('nobody-like-this');
    await dialog.getByText(MSG.noFollowers).waitFor();
    await screenshot(page, 'profile-followers');
    await page.keyboard.press('Escape');

    await page.goto(`${broadcasterPath}?type=post`);
    await page.getByText(MSG.noImagesInChannel).waitFor();
    expect(await page.getByRole('tab', { name: 'Photos' }).getAttribute('aria-selected')).toBe('true');

    // A signed-in visitor of the follow notification link goes to the profile.
    await page.goto(`/user/notifications/follow?id=${broadcasterPath.split('/').pop()}`);
    await page.waitForURL((url) => url.pathname === broadcasterPath);

    // The outbox is for administrators only.
    await page.goto('/dev/outbox');
    await page.getByRole('heading', { name: MSG.notAllowed }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  step('shows a guest the follow landing page and asks them to log in when they act', async () => {
    const { page, context, errors } = await openAppPage();
    const id = broadcasterPath.split('/').pop();
    await page.goto(`/user/notifications/follow?id=${id}`);
    await page.getByRole('heading', { name: '@broadcaster1' }).waitFor();
    await page.getByText('Followers').waitFor();
    await screenshot(page, 'follow-landing-guest');
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    const prompt = page.getByRole('dialog', { name: 'Need Full Access?' });
    await prompt.waitFor();
    expect(await prompt.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe(
      `/user/login?redirect=${encodeURIComponent(`/user/notifications/follow?id=${id}`)}`,
    );
    await screenshot(page, 'login-prompt');

    await page.goto('/user/notifications/follow?id=999999999');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/u/999999999');
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto(`/user/notifications/email?id=${id}&token=not-a-real-token`);
    await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  step("shows the viewer's own follow state on the tiles of another user's lists", async () => {
    const { page, context, errors } = await openAppPage();
    await signInAt(page, 'viewer2', viewer1Path);
    await page.getByRole('heading', { name: '@viewer1' }).waitFor();

    await statButton(page, 'Following').click();
    let dialog = page.getByRole('dialog', { name: 'Following (1)' });
    const broadcaster = dialog.getByRole('article', { name: 'broadcaster1', exact: true });
    await clickAndWait(page, broadcaster.getByRole('button', { name: 'Follow', exact: true }), '/api/user/toggle-following');
    await broadcaster.getByRole('button', { name: 'Following', exact: true }).waitFor();

    // After a reload the state comes from the server, not from the click.
    await page.reload();
    await statButton(page, 'Following').click();
    dialog = page.getByRole('dialog', { name: 'Following (1)' });
    await dialog.getByRole('article', { name: 'broadcaster1', exact: true }).getByRole('button', { name: 'Following', exact: true }).waitFor();
    await page.keyboard.press('Escape');

    await page.goto(broadcasterPath);
    await statButton(page, 'Followers').click();
    dialog = page.getByRole('dialog', { name: 'Followers (2)' });
    await dialog.getByRole('article', { name: 'viewer1' }).getByRole('button', { name: 'Follow', exact: true }).waitFor();
    await dialog.getByRole('article', { name: 'viewer2' }).waitFor();
    expect(await dialog.getByRole('article', { name: 'viewer2' }).getByRole('button').count()).toBe(0);
    await screenshot(page, 'profile-followers-follow-state');
    expect(errors).toEqual([]);
    await context.close();
  });
});
