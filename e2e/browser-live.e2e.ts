/**
 * Journey: going live from the browser, without OBS. broadcaster1 turns on Chromium's fake camera and
 * microphone on the dashboard, picks them, sees the preview and goes live from the page; a guest in
 * another browser watches the stream play; Stop broadcast ends the broadcast after the ingest's grace.
 */
import { afterAll, describe, expect } from 'vitest';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, saveBroadcastTitle, videoTime } from './support/live';

// The journeys' Chromium has fake devices that answer getUserMedia without asking (e2e/support/browser.ts);
// a short grace ends the broadcast soon after Stop.
const openAppPage = useAppInBrowser({ media: true, env: () => ({ RTMP_GRACE_MS: '2000' }) });
const step = journeySteps();

const TITLE = 'E2E from the browser';

describe('going live from the browser', () => {
  let broadcaster: TestPage;
  let viewer: TestPage | undefined;
  let streamPath = '';
  afterAll(async () => {
    await broadcaster?.context.close();
    await viewer?.context.close();
  });

  step('turns the camera on beside the OBS details: the pickers list the devices and the preview plays', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/dashboard');
    await page.getByRole('heading', { name: 'Go live from this browser' }).waitFor();
    await saveBroadcastTitle(page, TITLE);

    await page.getByRole('button', { name: 'Turn on camera' }).click();
    const camera = page.getByLabel('Camera', { exact: true });
    await camera.waitFor();
    expect((await camera.locator('option').allTextContents()).length).toBeGreaterThan(0);
    expect((await page.getByLabel('Microphone', { exact: true }).locator('option').allTextContents()).length).toBeGreaterThan(0);
    const preview = page.getByLabel('Camera preview');
    await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 15_000 }).toBeGreaterThan(0);
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, 'browser-live-preview');
  });

  step('goes live from the page: GO LIVE is pressed for the broadcaster and the dashboard turns LIVE', async () => {
    const { page } = broadcaster;
    await page.getByRole('button', { name: 'Start broadcast' }).click();
    await page.getByText('Sending from this browser').waitFor({ timeout: 15_000 });
    await badge(page, 'LIVE').waitFor({ timeout: 45_000 });
    const open = page.getByRole('link', { name: 'Open stream page' });
    streamPath = (await open.getAttribute('href')) ?? '';
    expect(streamPath).toMatch(/^\/streams\/stream-view\?id=\d+$/);
    // The live view keeps the page's broadcast: it was sending before the layout changed and still is.
    const sending = page.getByText('Sending from this browser');
    await sending.waitFor();
    await sending.scrollIntoViewIfNeeded();
    await screenshot(page, 'browser-live-dashboard');
  }, 90_000);

  step('a guest in another browser watches it play', async () => {
    viewer = await openAppPage();
    const { page } = viewer;
    await page.goto(streamPath);
    await badge(page, 'LIVE').waitFor();
    await page.getByRole('heading', { name: new RegExp(TITLE) }).waitFor();
    await expect.poll(() => videoTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
    const before = await videoTime(page);
    await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(before + 3);
    await screenshot(page, 'browser-live-viewer');
    expect(viewer.errors).toEqual([]);
  }, 90_000);

  step('Stop broadcast ends the broadcast after the ingest\'s grace', async () => {
    const { page } = broadcaster;
    await page.getByRole('button', { name: 'Stop broadcast' }).click();
    await page.getByRole('button', { name: 'Start broadcast' }).waitFor();
    await badge(viewer!.page, 'REPLAY').waitFor({ timeout: 45_000 });
    expect(broadcaster.errors).toEqual([]);
  }, 90_000);
});
