/**
 * Journey: a broadcaster schedules a picture post half a minute ahead. Their post page says when it
 * appears and their profile shows it as Scheduled; a viewer finds neither the post in the profile nor
 * the post at its address until its time, then finds it first in the profile.
 */
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';

const openAppPage = useAppInBrowser();
const step = journeySteps();

const TITLE = 'E2E first light';
const AHEAD_MS = 30_000;
const picture = () => sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 240, g: 170, b: 80 } } }).jpeg({ quality: 90 }).toBuffer();

/** `at` as a datetime-local field's value (local time, to the second). */
const localValue = (at: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
};

describe('a scheduled post', () => {
  let creator: TestPage;
  let viewer: TestPage;
  let postPath = '';
  let profilePath = '';
  let publishAt = 0;

  step('the broadcaster schedules a picture post; its page says when it appears', async () => {
    creator = await openAppPage();
    const { page } = creator;
    await signInAt(page, 'broadcaster3', '/user/upload');
    const form = page.getByRole('form', { name: 'Upload image' });
    await form.getByLabel('Choose images').setInputFiles([{ name: 'first-light.jpg', mimeType: 'image/jpeg', buffer: await picture() }]);
    await form.getByLabel('Title').fill(TITLE);
    await form.getByLabel('Audience').selectOption('public');
    publishAt = Date.now() + AHEAD_MS;
    await form.getByLabel('Publish at (optional)').fill(localValue(new Date(publishAt)));
    await screenshot(page, 'scheduled-post-form');
    await form.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/\/post\/post-view\?id=\d+/, { timeout: 30_000 });
    postPath = new URL(page.url()).pathname + new URL(page.url()).search;
    await page.getByRole('heading', { name: TITLE }).waitFor();
    await page.getByText(/^Scheduled for /).waitFor();
    await screenshot(page, 'scheduled-post-own');
    profilePath = `${(await page.getByRole('link', { name: 'broadcaster3' }).first().getAttribute('href'))!.split('?')[0]}?type=post`;
    await page.goto(profilePath);
    await page.getByRole('article', { name: TITLE }).getByText('Scheduled', { exact: true }).waitFor();
  });

  step('a viewer finds it neither in the profile nor at its address before its time', async () => {
    viewer = await openAppPage();
    const { page } = viewer;
    await signInAt(page, 'viewer2', profilePath);
    await page.getByRole('heading', { name: 'broadcaster3' }).first().waitFor();
    expect(await page.getByRole('article', { name: TITLE }).count()).toBe(0);
    await page.goto(postPath);
    await page.getByText(MSG.postNotAvailable).waitFor();
    await screenshot(page, 'scheduled-post-not-yet');
  });

  step('at its time the viewer finds it, first in the profile', async () => {
    const { page } = viewer;
    await page.waitForTimeout(Math.max(0, publishAt - Date.now() + 1_000));
    await page.goto(profilePath);
    const tile = page.getByRole('article', { name: TITLE });
    await tile.waitFor();
    expect(await tile.getByText('Scheduled', { exact: true }).count()).toBe(0);
    await tile.click();
    await page.getByRole('heading', { name: TITLE }).waitFor();
    await screenshot(page, 'scheduled-post-published');
    expect(viewer.errors).toEqual([]);
    expect(creator.errors).toEqual([]);
  });
});
