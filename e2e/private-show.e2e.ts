/**
 * Journey: a private show billed for two minutes, then ended by the balance running out. The broadcaster
 * sets a private show at 40 coins a minute on the dashboard and goes live; a viewer with 100 coins asks for
 * one; the broadcaster accepts in the live panel; another viewer sees the notice where the video was; the
 * viewer's page counts the minutes paid (40, then 80 coins) and the third minute, which the 20 coins left
 * cannot pay, ends the show: the viewer is told why, the other viewer gets the video back, and the
 * broadcaster's panel is free again. Once the broadcast ends, its replay plays on past where the show was,
 * whose minutes it no longer has. A minute is five seconds here (SHOW_MINUTE_MS).
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, endStreamFromStudio, goLiveAndPublish, saveBroadcastTitle, viewerWithCoinsAt } from './support/live';

const MINUTE_MS = 5000;
const openAppPage = useAppInBrowser({ media: true, env: () => ({ SHOW_MINUTE_MS: String(MINUTE_MS) }) });
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'E2E private show';
const prices = (page: Page) => page.getByRole('form', { name: 'Show prices' });
const showsBox = (page: Page) => page.getByRole('region', { name: 'Shows' });
const requests = (page: Page) => page.getByRole('list', { name: 'Private show requests' });
const seated = (page: Page) => page.getByRole('list', { name: 'In the show' });

describe('a private show', () => {
  let broadcaster: TestPage;
  let viewer: TestPage;
  let other: TestPage;
  let streamPath = '';

  step('the broadcaster sets a private show at 40 coins a minute and goes live', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/dashboard');
    const form = prices(page);
    await form.waitFor();
    await form.getByLabel('Private show', { exact: true }).fill('40');
    await form.getByLabel('Group show', { exact: true }).fill('0');
    await form.getByRole('button', { name: 'Save prices' }).click();
    await page.getByText(MSG.showOfferSaved).first().waitFor();
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'show-prices');
    await saveBroadcastTitle(page, TITLE);
    const onAir = await goLiveAndPublish(page);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
  });

  step('a viewer with 100 coins asks for a private show; the broadcaster accepts it in the live panel', async () => {
    viewer = await openAppPage();
    const { page } = viewer;
    await viewerWithCoinsAt(page, 'viewer1', streamPath, TITLE);
    await showsBox(page).getByText('40 Coins a minute').waitFor();
    await showsBox(page).getByRole('button', { name: 'Request a private show' }).click();
    await showsBox(page).getByText('Waiting for the broadcaster to accept your private show…').waitFor();
    await showsBox(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'show-requested');

    const owner = broadcaster.page;
    const asked = requests(owner).getByRole('listitem').filter({ hasText: 'asks for a private show' });
    await asked.waitFor({ timeout: 15_000 });
    expect(await asked.textContent()).toContain('viewer1');
    await asked.scrollIntoViewIfNeeded();
    await screenshot(owner, 'show-request-panel');
    // Every line the viewer's page shows of the seat from now on, however long the next steps take on a busy machine.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seatLines: string[] }).seatLines = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[aria-label="Shows"]')?.textContent ?? '';
        if (text && !seen.includes(text)) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await asked.getByRole('button', { name: 'Accept' }).click();
    await seated(owner).getByText('1 min · 40 Coins').waitFor({ timeout: 15_000 });
  });

  step('another viewer sees that a private show is on, where the video was', async () => {
    other = await openAppPage();
    const { page } = other;
    await signInAt(page, 'viewer2', streamPath);
    await page.getByText(MSG.privateShowInProgress).waitFor({ timeout: 15_000 });
    expect(await page.locator('video').count()).toBe(0);
    await screenshot(page, 'show-curtain');
  });

  step('the second minute is paid at its start; the third, which 20 coins cannot pay, ends the show', async () => {
    const { page } = viewer;
    await showsBox(page).getByText(MSG.showEndedBalance).waitFor({ timeout: 6 * MINUTE_MS });
    expect(await showsBox(page).getByText('Your private show').count()).toBe(0);
    const seen = await page.evaluate(() => (window as unknown as { seatLines: string[] }).seatLines);
    expect(seen.some((text) => text.includes('Your private show · 1 min · 40 Coins'))).toBe(true);
    expect(seen.some((text) => text.includes('Your private show · 2 min · 80 Coins'))).toBe(true);
    expect(seen.some((text) => text.includes('3 min'))).toBe(false);
    // What the wallet holds now: 100 less the two minutes.
    const coinsLeft = await page.evaluate(async () => ((await (await fetch('/api/wallet/balance')).json()) as { balance: { CON: number } }).balance.CON);
    expect(coinsLeft).toBe(20);
    // The top bar's balance followed each minute.
    await page.getByRole('banner').getByText('20', { exact: true }).waitFor({ timeout: 10_000 });
    await showsBox(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'show-ended-balance');
  });

  step('the stream is everyone’s again: the other viewer gets the video back, the broadcaster’s panel is free', async () => {
    const video = other.page.locator('video');
    await video.waitFor({ timeout: 30_000 });
    expect(await other.page.getByText(MSG.privateShowInProgress).count()).toBe(0);
    // Watched for a while, so the broadcast has several segments after the show for the replay's step: the
    // player starts behind the live edge, so its own clock alone would not say how much was broadcast since.
    const from = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    const shownAgain = Date.now();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(from + 4);
    await other.page.waitForTimeout(Math.max(0, 8_000 - (Date.now() - shownAgain)));
    const owner = broadcaster.page;
    await owner.getByRole('button', { name: 'Start a group show' }).waitFor({ timeout: 15_000 });
    await screenshot(owner, 'show-panel-after');
  });

  // Ending, the replay's closing and the page's load each wait on the ingest.
  step('ended, the broadcast’s replay plays on past where the show was, without its minutes', async () => {
    const studio = broadcaster.page;
    await endStreamFromStudio(studio);
    await publisher?.stop();
    publisher = undefined;

    const { page } = other;
    await page.goto(streamPath);
    await badge(page, 'REPLAY').waitFor({ timeout: 30_000 });
    const video = page.locator('video');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.duration || 0), { timeout: 20_000 }).toBeGreaterThan(0);
    const playlist = await page.evaluate(async () => {
      const address = performance.getEntriesByType('resource').map((e) => e.name).find((name) => name.includes('/media/hls/') && name.endsWith('index.m3u8'));
      return address ? (await fetch(address)).text() : '';
    });
    const [before] = playlist.split('#EXT-X-DISCONTINUITY');
    expect(before!.length).toBeLessThan(playlist.length);
    const cutAt = [...before!.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    // Played across the cut: a second and a half before it to a second and a half after.
    await video.evaluate((v: HTMLVideoElement, to: number) => {
      v.currentTime = to;
      void v.play();
    }, Math.max(0, cutAt - 1.5));
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 }).toBeGreaterThan(cutAt + 1.5);
    await screenshot(page, 'show-replay');
  }, 120_000);
});
