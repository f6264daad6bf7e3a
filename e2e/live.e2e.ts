/** Journeys: go live from the dashboard over RTMP, watch as a guest (LIVE, then REPLAY), find the stream in a channel. */
import { afterAll, describe, expect } from 'vitest';
import { TITLE_MIN } from '../common/api/streams';
import { fill, MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, goLiveAndPublish, videoTime } from './support/live';

// A short grace window, so the stream turns into a replay soon after the encoder stops.
// Playback addresses live 3 s here: watching for longer proves the player fetches new ones. The 640×360
// source is offered with a 240p rendition beside it (LIVE_RENDITIONS; 480p is never an upscale).
const openAppPage = useAppInBrowser({ media: true, env: () => ({ RTMP_GRACE_MS: '1500', PLAYBACK_TTL_SECONDS: '3', LIVE_RENDITIONS: 'source,480p,240p' }) });
/** One journey: each step builds on the one before (see journeySteps). */
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

let streamPath = '';

describe('live streaming', () => {
  let broadcaster: TestPage;

  step('sets up the broadcast, goes live and starts OBS (ffmpeg) with the key from the dashboard', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/dashboard');
    await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
    await badge(page, 'NOT LIVE').waitFor();

    await page.getByRole('button', { name: 'GO LIVE' }).click();
    await page.getByText(MSG.updateBroadcastInfoFirst).waitFor();

    await page.getByRole('button', { name: 'Broadcast setup' }).click();
    const setup = page.getByRole('dialog', { name: 'Broadcast setup' });
    const save = setup.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    await setup.getByLabel('Title').fill('E');
    await setup.getByLabel('Title').blur();
    await setup.getByText(fill(MSG.titleTooShort, { min: TITLE_MIN })).waitFor();
    await setup.getByLabel('Title').fill('E2E live show');
    expect(await setup.getByLabel('Rating').locator('option').allTextContents()).toEqual(['G (all ages)', '14+']);
    await screenshot(page, 'dashboard-setup');
    await save.click();
    await setup.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: /E2E live show/ }).waitFor();

    const onAir = await goLiveAndPublish(page);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
    expect(streamPath).toMatch(/^\/streams\/stream-view\?id=\d+$/);
    expect(onAir.rtmpUrl).toBe(openAppPage.rtmpUrl());
    expect(onAir.key).toMatch(/\S{8,}/);
    await page.getByLabel('Session time').waitFor();
    await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
    await screenshot(page, 'dashboard-live');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'dashboard-live-narrow');
    await page.setViewportSize({ width: 1366, height: 860 });
  });

  step('plays the live stream to a guest and lists it in the Live channel and on the home page', async () => {
    const viewer = await openAppPage();
    await viewer.page.goto(streamPath);
    await badge(viewer.page, 'LIVE').waitFor();
    await viewer.page.getByRole('heading', { name: /E2E live show/ }).waitFor();
    await expect.poll(() => videoTime(viewer.page), { timeout: 15_000 }).toBeGreaterThan(0.5);
    const before = await videoTime(viewer.page);
    // Past several expiries of the 3 s playback address: the player joins again for a new one.
    await expect.poll(() => videoTime(viewer.page), { timeout: 25_000 }).toBeGreaterThan(before + 9);
    // The quality menu lists the renditions; the one chosen is what plays.
    const box = (await viewer.page.locator('video').boundingBox())!;
    await viewer.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const quality = viewer.page.getByLabel('Quality');
    await expect.poll(() => quality.locator('option').allTextContents()).toEqual(['Auto', '360p', '240p']);
    await quality.selectOption({ label: '240p' });
    await expect.poll(() => viewer.page.locator('video').evaluate((video: HTMLVideoElement) => video.videoHeight), { timeout: 10_000 }).toBe(240);
    const switched = await videoTime(viewer.page);
    await expect.poll(() => videoTime(viewer.page), { timeout: 10_000 }).toBeGreaterThan(switched + 1);
    // Playing, not paused with its time moved by a seek: the controls offer Pause.
    await expect.poll(() => viewer.page.locator('video').evaluate((video: HTMLVideoElement) => video.paused), { timeout: 5_000 }).toBe(false);
    await viewer.page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 5_000 });
    await screenshot(viewer.page, 'stream-view-live');
    await viewer.page.getByRole('button', { name: 'Share' }).click();
    const share = viewer.page.getByRole('dialog', { name: 'Share this stream' });
    // The dialog's code arrives on its first opening.
    await share.getByRole('link', { name: 'Email' }).waitFor();
    expect(await share.getByRole('link').allTextContents()).toEqual(['Facebook', 'X (Twitter)', 'WhatsApp', 'Telegram', 'Reddit', 'Skype', 'Email', 'SMS', 'Pinterest', 'Weibo']);
    await screenshot(viewer.page, 'stream-view-share');
    await viewer.page.keyboard.press('Escape');

    const narrow = await openAppPage({ width: 390, height: 844 });
    await narrow.page.goto(streamPath);
    await badge(narrow.page, 'LIVE').waitFor();
    await expect.poll(() => videoTime(narrow.page), { timeout: 15_000 }).toBeGreaterThan(0.5);
    await screenshot(narrow.page, 'stream-view-live-narrow');

    await narrow.page.goto('/channel/group');
    await narrow.page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'Live', exact: true }).click();
    await narrow.page.waitForURL(/\/channel\/channel\?id=\d+$/);
    await narrow.page.getByRole('list', { name: 'Streams' }).getByRole('article', { name: /E2E live show/ }).waitFor();
    await screenshot(narrow.page, 'channel-live-narrow');

    await viewer.page.goto('/');
    await viewer.page.getByRole('region', { name: /E2E live show/ }).getByRole('link', { name: 'Watch now' }).waitFor();
    await screenshot(viewer.page, 'home-live-now');
    expect([...viewer.errors, ...narrow.errors]).toEqual([]);
    await narrow.context.close();
    await viewer.context.close();
  });

  step('turns into a replay when the encoder stops', async () => {
    const viewer = await openAppPage();
    await viewer.page.goto(streamPath);
    await badge(viewer.page, 'LIVE').waitFor();
    await expect.poll(() => videoTime(viewer.page), { timeout: 15_000 }).toBeGreaterThan(0.5);
    await publisher?.stop();
    publisher = undefined;
    // The player plays out the closed playlist, or the periodic lookup notices the end first.
    await badge(viewer.page, 'REPLAY').waitFor({ timeout: 30_000 });
    await screenshot(viewer.page, 'stream-view-replay');
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();

    await broadcaster.page.goto('/dashboard?layout=old');
    await broadcaster.page.getByText('Broadcast Info').waitFor();
    await broadcaster.page.getByText('Connection details').click();
    await broadcaster.page.getByLabel('RTMP URL', { exact: true }).waitFor();
    await screenshot(broadcaster.page, 'dashboard-old-layout');
    await broadcaster.context.close();
  });

  step('lists the replay in Popular and in search; a guest meets the dashboard gate and the walls', async () => {
    const { page, context, errors } = await openAppPage();
    await page.goto('/channel/group');
    await page.getByRole('list', { name: 'Streams' }).getByRole('article', { name: /E2E live show/ }).waitFor();
    await screenshot(page, 'channel-popular');

    await page.goto('/channel/search?search=live%20show');
    await page.getByRole('list', { name: 'Streams' }).getByRole('article', { name: /E2E live show/ }).waitFor();
    await screenshot(page, 'search-streams');
    await page.getByRole('link', { name: 'See all' }).click();
    await page.waitForURL(/\/channel\/search-all-stream\?search=live%20show$/);
    await page.getByRole('list', { name: 'Streams' }).getByRole('article', { name: /E2E live show/ }).waitFor();

    await page.goto('/streams/stream-view?id=999999');
    await page.getByRole('heading', { name: MSG.streamNotAvailable }).waitFor();
    await screenshot(page, 'stream-view-not-available');

    await page.goto('/afterdark/channel/group');
    const adult = page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: '18+', exact: true });
    await adult.click();
    const confirm = page.getByRole('dialog', { name: 'Adults only' });
    await screenshot(page, 'channel-adult-confirm');
    await confirm.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(/\/afterdark\/channel\/group$/);
    await adult.click();
    await confirm.getByRole('button', { name: 'I am 18 or older' }).click();
    await page.getByText(MSG.noStreamsInChannel).waitFor();
    await page.reload();
    await page.getByText(MSG.noStreamsInChannel).waitFor();
    expect(await confirm.count()).toBe(0);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: MSG.loginRequired }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
