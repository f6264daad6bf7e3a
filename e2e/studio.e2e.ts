/**
 * Journey: the broadcaster's live view. Broadcast setup fits the screen and clears the "set up first"
 * banner; the broadcaster goes live with an encoder sending a 4 s keyframe interval (ffmpeg's test
 * pattern, -g 120 at 30 fps) and the ingest health shows the measured feed with a warning; a viewer
 * in another browser tips and the live panel shows the tip and the session's earnings without a
 * reload; the broadcaster bans a viewer from the live panel's chat; End stream ends the broadcast
 * and disconnects the encoder.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { buyFiveDollarsOfCoins, signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, goLiveAndPublish } from './support/live';

const openAppPage = useAppInBrowser({ media: true });
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'E2E studio show';

const section = (page: Page, title: string) => page.getByRole('main').locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const figure = (page: Page, label: string) => page.getByRole('main').locator('dl[aria-label="This session"] > div').filter({ hasText: label });

/** Buys 100 coins with the test card. */
async function buyCoins(page: Page) {
  await page.goto('/user/account/deposit-coins');
  await buyFiveDollarsOfCoins(page, '100 Coins');
}

describe("the broadcaster's live view", () => {
  let broadcaster: TestPage;
  let viewer: TestPage;
  let streamPath = '';

  step('Broadcast setup shows Save fully, and saving it clears the GO LIVE before setup banner', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/dashboard');
    await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();

    await page.getByRole('button', { name: 'GO LIVE' }).click();
    const banner = page.getByRole('main').getByText(MSG.updateBroadcastInfoFirst);
    await banner.waitFor();

    await page.getByRole('button', { name: 'Broadcast setup' }).click();
    const setup = page.getByRole('dialog', { name: 'Broadcast setup' });
    await setup.getByLabel('Title').fill(TITLE);
    const save = setup.getByRole('button', { name: 'Save' });
    // Save is wholly inside the window without scrolling the dialog.
    const box = await save.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    expect(await save.evaluate((button) => {
      const { x, y, width, height } = button.getBoundingClientRect();
      return document.elementFromPoint(x + width / 2, y + height - 2) === button || button.contains(document.elementFromPoint(x + width / 2, y + height - 2));
    })).toBe(true);
    await screenshot(page, 'studio-setup-modal');

    await save.click();
    await setup.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: TITLE }).waitFor();
    await banner.waitFor({ state: 'detached' });
  });

  step('goes live; the ingest health shows the measured feed and warns about the 4 s keyframe interval', async () => {
    const { page } = broadcaster;
    const onAir = await goLiveAndPublish(page, { fps: 30, gop: 120 });
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;

    const health = section(page, 'Ingest health');
    await health.getByText('640×360', { exact: true }).waitFor({ timeout: 20_000 });
    await health.getByText('4 s', { exact: true }).waitFor({ timeout: 20_000 });
    await health.getByText(/^(29\.\d|30(\.\d)?) fps$/).waitFor();
    await health.getByText(/^[\d,]+ kb\/s$/).waitFor();
    await health.getByText('H.264 / AAC', { exact: true }).waitFor();
    await health.getByRole('alert').filter({ hasText: 'Keyframe interval is 4 s: set it to 2 s or less' }).waitFor();
    await health.scrollIntoViewIfNeeded();
    await screenshot(page, 'studio-ingest-health');
    await section(page, 'Tips').getByText('No tips yet this session.').waitFor();
    await figure(page, 'Session earnings').getByText('0 Coins', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Live chat' }).waitFor();
  });

  step('a viewer tips from another browser: the panel shows the tip and the earnings without a reload', async () => {
    viewer = await openAppPage();
    const { page } = viewer;
    await signInAt(page, 'viewer1', '/');
    await buyCoins(page);
    await page.goto(streamPath);
    await page.getByRole('heading', { name: TITLE }).waitFor();

    // A reload would lose this mark.
    await broadcaster.page.evaluate(() => Object.assign(window, { studioMark: 'still here' }));
    const balanceLink = broadcaster.page.getByRole('link', { name: /^Your balance: / });
    const coinsHeld = async () => Number(((await balanceLink.getAttribute('aria-label')) ?? '').replace(/\D/g, ''));
    const before = await coinsHeld();

    const tip = page.getByRole('button', { name: 'Tip', exact: true });
    await tip.hover();
    const amounts = page.getByRole('dialog').filter({ hasText: 'Send a tip' });
    await amounts.waitFor();
    await amounts.getByRole('button', { name: '20 Coins' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send a Tip' });
    await confirm.getByRole('button', { name: 'Confirm Tip' }).click();
    await confirm.waitFor({ state: 'detached', timeout: 15_000 });

    const studio = broadcaster.page;
    const tipRow = section(studio, 'Tips').getByRole('listitem').filter({ hasText: 'viewer1' });
    await tipRow.getByText('20 Coins', { exact: true }).waitFor({ timeout: 15_000 });
    await figure(studio, 'Session earnings').getByText('20 Coins', { exact: true }).waitFor();
    await figure(studio, 'Session earnings').getByText('16 Coins after fees').waitFor();
    await figure(studio, 'Tips').getByText('1', { exact: true }).waitFor();
    await section(studio, 'Top supporters').getByRole('listitem').filter({ hasText: 'viewer1' }).getByText('20', { exact: true }).waitFor();
    // The top bar's coins follow the tip received, without a reload.
    await expect.poll(coinsHeld, { timeout: 15_000 }).toBe(before + 16);
    // One viewer on the stream page: the dashboard counts them (not the broadcaster) and says what viewers see.
    await figure(studio, 'Viewers').getByText('Watching now, not counting you; viewers see 0').waitFor({ timeout: 20_000 });
    await figure(studio, 'Viewers').getByText('1', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await studio.evaluate(() => (window as unknown as { studioMark?: string }).studioMark)).toBe('still here');
    await studio.getByRole('heading', { name: TITLE }).scrollIntoViewIfNeeded();
    await screenshot(studio, 'studio-live-panel');
    // On a phone the panel stacks: figures, preview, tips first.
    const desktop = studio.viewportSize()!;
    await studio.setViewportSize({ width: 390, height: 844 });
    await studio.getByRole('heading', { name: TITLE }).scrollIntoViewIfNeeded();
    await screenshot(studio, 'studio-live-panel-phone');
    await studio.setViewportSize(desktop);
  });

  step("moderates the chat from the live panel: a viewer's line, then a ban", async () => {
    const { page } = viewer;
    const input = page.getByRole('textbox', { name: 'Chat message' });
    await input.fill('Hello from the audience');
    const send = page.getByRole('button', { name: 'Send' });
    await expect.poll(() => send.isEnabled(), { timeout: 15_000 }).toBe(true);
    await send.click();

    const studio = broadcaster.page;
    const chat = studio.getByRole('region', { name: 'Live chat' });
    await chat.getByText('Hello from the audience').waitFor({ timeout: 15_000 });
    await chat.getByRole('button', { name: 'Actions for viewer1' }).click();
    await studio.getByRole('menuitem', { name: 'Ban from this stream' }).click();
    const dialog = studio.getByRole('dialog', { name: 'Ban from this stream' });
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await studio.getByText('viewer1 has been banned from this stream.').first().waitFor();
  });

  step('End stream ends the broadcast and disconnects the encoder', async () => {
    const { page } = broadcaster;
    await page.getByRole('button', { name: 'End stream' }).click();
    const confirm = page.getByRole('dialog', { name: 'End your stream?' });
    await confirm.getByRole('button', { name: 'End stream' }).click();
    await confirm.waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByText('Your stream has ended. Its replay is on your profile.').first().waitFor();
    await badge(page, 'NOT LIVE').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'GO LIVE' }).waitFor();
    expect(await page.getByRole('button', { name: 'End stream' }).count()).toBe(0);
    // The encoder's connection was closed: ffmpeg stops by itself.
    expect(await publisher!.exited).not.toBe(0);
    await screenshot(page, 'studio-ended');
    expect([...broadcaster.errors, ...viewer.errors]).toEqual([]);
  });
});
