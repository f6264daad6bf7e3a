/**
 * Journey: the stream page as viewers meet it. The live player (LIVE badge back to the live edge, sound,
 * no seek bar) and its addresses, refused in another browser; Follow beside the broadcaster, a viewer
 * count that follows the spec as people arrive and leave, likes counted for everyone as they are given,
 * video and chat together on a phone, a watcher given control of the broadcaster's virtual toy until the
 * broadcast ends, and a replay that seeks.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, broadcastAs, videoTime } from './support/live';
import { acceptOffer, connectVirtualToy, nudge, offerAccess, toast, toyShows } from './support/toys';
import { buyThousandCoins } from './support/wallet';

const openAppPage = useAppInBrowser({ media: true, env: () => ({ RTMP_GRACE_MS: '1500' }) });
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'E2E stream page';
const PHONE = { width: 390, height: 844 };

const header = (page: Page) => page.getByRole('region', { name: 'Stream', exact: true });
const controls = (page: Page) => page.getByRole('group', { name: 'Video controls' });
/** The counts as the page reads them out ("3 viewers", "1 likes"). */
const viewersShown = (page: Page) => header(page).getByLabel(/^\d+ viewers$/).getAttribute('aria-label');
const likesShown = (page: Page) => header(page).getByLabel(/^\d+ likes$/).getAttribute('aria-label');

async function watch(page: Page, path: string) {
  await page.goto(path);
  await watching(page);
}

/** The stream page has the stream and its video plays. */
async function watching(page: Page) {
  await header(page).getByRole('heading', { name: TITLE }).waitFor();
  await badge(page, 'LIVE').waitFor();
  await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(0.5);
}

describe('the stream page', () => {
  let broadcaster: TestPage;
  let viewer1: TestPage;
  let viewer2: TestPage;
  let streamPath = '';

  step('goes live; the broadcaster leaves the dashboard, so only viewers are on the stream', async () => {
    broadcaster = await openAppPage();
    const onAir = await broadcastAs(broadcaster.page, TITLE);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
    await broadcaster.page.goto('/');
  });

  step('plays live with its own controls: LIVE, sound, fullscreen, no seek bar; the title without #live; Follow beside the name', async () => {
    viewer1 = await openAppPage();
    const { page } = viewer1;
    const segments: string[] = [];
    page.on('request', (request) => {
      if (/\/media\/hls\/\d+\/[^/]+\/seg_/.test(request.url())) segments.push(request.url());
    });
    await signInAt(page, 'viewer1', streamPath);
    await watch(page, streamPath);
    // The server tags the title for search; people read it without the tag.
    expect(await header(page).getByRole('heading').textContent()).toBe(TITLE);

    const bar = controls(page);
    await bar.getByRole('button', { name: 'LIVE' }).waitFor();
    await bar.getByRole('button', { name: 'Fullscreen' }).waitFor();
    expect(await bar.getByRole('slider', { name: 'Seek' }).count()).toBe(0);
    // One rendition (the test pattern): no quality menu offering what does not exist.
    expect(await bar.getByRole('combobox', { name: 'Quality' }).count()).toBe(0);
    expect(await page.locator('video').evaluate((v: HTMLVideoElement) => v.controls)).toBe(false);

    // Autoplay starts muted and says so.
    await page.getByRole('button', { name: 'Click to unmute' }).click();
    expect(await page.locator('video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
    await expect.poll(() => page.getByRole('button', { name: 'Click to unmute' }).count()).toBe(0);
    await bar.getByRole('button', { name: 'Mute' }).waitFor();

    // Follow sits beside the broadcaster's name and sticks.
    const follow = header(page).getByRole('button', { name: 'Follow' });
    await header(page).getByRole('link', { name: 'broadcaster1' }).waitFor();
    await follow.click();
    await header(page).getByRole('button', { name: 'Following' }).waitFor();
    await page.reload();
    await header(page).getByRole('button', { name: 'Following' }).waitFor();
    await badge(page, 'LIVE').waitFor();
    await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(0.5);

    // What the player fetches is this session's: the same segment address in another browser is refused.
    const segment = segments.at(-1)!;
    expect((await viewer1.context.request.get(segment)).status()).toBe(200);
    const elsewhere = await openAppPage();
    expect((await elsewhere.context.request.get(segment)).status()).toBe(403);
    await elsewhere.context.close();

    // The owner's Delete is nowhere near a viewer, and no Subscribe leads nowhere.
    expect(await page.getByRole('button', { name: /Delete|Subscribe/ }).count()).toBe(0);
  });

  // Three more browsers sign in and play the stream: it may take longer than a step's minute beside another journey.
  step('shows live viewers minus 2 (never below 0), updated as viewers arrive and leave', async () => {
    const { page } = viewer1;
    // viewer1 alone: 1 − 2 → 0.
    await expect.poll(() => viewersShown(page)).toBe('0 viewers');
    viewer2 = await openAppPage();
    await signInAt(viewer2.page, 'viewer2', streamPath);
    await watch(viewer2.page, streamPath);
    expect(await viewersShown(page)).toBe('0 viewers');

    const viewer3 = await openAppPage();
    await signInAt(viewer3.page, 'viewer3', streamPath);
    await watch(viewer3.page, streamPath);
    // Three viewers: 1, on viewer1's page without reloading it.
    await expect.poll(() => viewersShown(page), { timeout: 15_000 }).toBe('1 viewers');
    const guest = await openAppPage();
    await watch(guest.page, streamPath);
    await expect.poll(() => viewersShown(page), { timeout: 15_000 }).toBe('2 viewers');
    await expect.poll(() => viewersShown(viewer2.page), { timeout: 15_000 }).toBe('2 viewers');
    // The pointer over the video brings its controls back.
    const video = await page.locator('video').boundingBox();
    if (video) await page.mouse.move(video.x + video.width / 2, video.y + video.height / 2);
    await controls(page).getByRole('button', { name: 'LIVE' }).waitFor();
    await screenshot(page, 'stream-page-desktop');

    await viewer3.context.close();
    await expect.poll(() => viewersShown(page), { timeout: 15_000 }).toBe('1 viewers');
    await guest.context.close();
    await expect.poll(() => viewersShown(page), { timeout: 15_000 }).toBe('0 viewers');
  }, 120_000);

  step('counts a like for another viewer as it is given', async () => {
    const before = Number((await likesShown(viewer1.page))?.split(' ')[0]);
    await viewer2.page.getByRole('button', { name: 'Send' }).waitFor();
    await viewer2.page.getByRole('button', { name: 'Like' }).click();
    await viewer2.page.getByRole('button', { name: 'Like' }).click();
    await expect.poll(() => likesShown(viewer1.page), { timeout: 15_000 }).toBe(`${before + 2} likes`);
    await expect.poll(() => likesShown(viewer2.page), { timeout: 15_000 }).toBe(`${before + 2} likes`);
    // A new page reads them from the stream's info (realtime likes included).
    await viewer2.page.reload();
    await expect.poll(() => likesShown(viewer2.page), { timeout: 15_000 }).toBe(`${before + 2} likes`);
  });

  step('takes a viewer who fell behind back to the live edge with the LIVE badge', async () => {
    const { page } = viewer1;
    await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(8);
    await page.locator('video').evaluate((v: HTMLVideoElement) => {
      v.currentTime = v.seekable.start(0) + 0.5;
    });
    const behind = controls(page).getByRole('button', { name: 'Behind live: jump to live' });
    await behind.waitFor();
    const back = await videoTime(page);
    await behind.click();
    await controls(page).getByRole('button', { name: 'LIVE' }).waitFor();
    expect(await videoTime(page)).toBeGreaterThan(back + 5);
  });

  step('keeps the video and the chat input on the first screen of a phone, typing included', async () => {
    const phone = await openAppPage(PHONE);
    const { page } = phone;
    await signInAt(page, 'viewer4', streamPath);
    // While the stream is looked up, the page already has its shape.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/streams/stream-lookup*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(streamPath);
    await page.locator('[aria-busy="true"][aria-label="Loading the stream"]').waitFor();
    await screenshot(page, 'stream-page-loading-phone');
    release();
    await watching(page);
    await page.unroute('**/api/streams/stream-lookup*');
    const input = page.getByRole('textbox', { name: 'Chat message' });
    const inView = async () => {
      const [video, box] = await Promise.all([page.locator('video').boundingBox(), input.boundingBox()]);
      return Boolean(video && box && video.y >= 0 && video.y + video.height <= PHONE.height && box.y >= 0 && box.y + box.height <= PHONE.height);
    };
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await inView()).toBe(true);
    await header(page).getByRole('button', { name: 'Follow' }).waitFor();
    await input.fill('Hello from my phone');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('log', { name: 'Chat' }).getByText('Hello from my phone').waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await inView()).toBe(true);
    await screenshot(page, 'stream-page-phone');
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  step('lets the broadcaster give a watcher control of the virtual toy from the dashboard', async () => {
    const { page } = broadcaster;
    await page.goto('/dashboard');
    await connectVirtualToy(page);
    // viewer2 comes back while the dashboard is open: the broadcaster sees them arrive.
    await watch(viewer2.page, streamPath);
    await offerAccess(page, 'viewer2');
    // viewer2 has no coins yet: the tip is refused, they buy some and come back to the offer.
    const offer = viewer2.page.getByRole('dialog', { name: MSG.toyOfferTitle });
    await offer.getByRole('button', { name: 'Get Access' }).click();
    await viewer2.page.getByRole('dialog', { name: 'Tip Sending Failure' }).getByRole('button', { name: 'Cancel' }).click();
    await buyThousandCoins(viewer2.page);
    await viewer2.page.goto(streamPath);
    await acceptOffer(viewer2.page, 10);
    await toast(page, MSG.toyViewerTipped).waitFor();
    await page.getByRole('dialog', { name: MSG.toyManageTitle }).getByRole('button', { name: 'Close' }).first().click();
    await nudge(viewer2.page, 'Vibrate', 7);
    await toyShows(page, 'Vibrate', 7);
    await screenshot(viewer2.page, 'stream-page-toy-controls');
    await screenshot(page, 'stream-page-toy-dashboard');
  }, 120_000);

  step('turns into a replay that seeks, with no LIVE badge in the player', async () => {
    const { page } = viewer1;
    await publisher?.stop();
    publisher = undefined;
    await badge(page, 'REPLAY').waitFor({ timeout: 30_000 });
    // The broadcast's end takes the toy's control with it (the server revokes the access).
    await viewer2.page.getByRole('region', { name: 'Device control' }).waitFor({ state: 'detached' });
    await page.reload();
    await badge(page, 'REPLAY').waitFor();
    // A replay's chat is not called live.
    await page.getByRole('region', { name: 'Chat replay' }).waitFor();
    expect(await page.getByRole('region', { name: 'Live chat' }).count()).toBe(0);
    const seek = controls(page).getByRole('slider', { name: 'Seek' });
    await seek.waitFor({ timeout: 20_000 });
    expect(await controls(page).getByRole('button', { name: /LIVE/ }).count()).toBe(0);
    await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.duration), { timeout: 15_000 }).toBeGreaterThan(5);
    const duration = await page.locator('video').evaluate((v: HTMLVideoElement) => v.duration);
    await page.locator('video').evaluate((v: HTMLVideoElement) => v.pause());
    // A click three quarters along the bar goes there.
    const box = await seek.boundingBox();
    if (!box) throw new Error('the seek bar has no box');
    await seek.click({ position: { x: box.width * 0.75, y: box.height / 2 } });
    await expect.poll(() => videoTime(page), { timeout: 10_000 }).toBeGreaterThan(duration * 0.6);
    await screenshot(page, 'stream-page-replay');
    expect([...viewer1.errors, ...viewer2.errors]).toEqual([]);
  });

  step('keeps the owner’s Delete behind More options, away from Edit, and offers the owner no Follow', async () => {
    const { page } = broadcaster;
    await page.goto(streamPath);
    await badge(page, 'REPLAY').waitFor();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await header(page).getByRole('button', { name: /Follow/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'More options' }).click();
    await page.getByRole('menuitem', { name: 'Delete stream' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this stream?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(broadcaster.errors).toEqual([]);
  });
});
