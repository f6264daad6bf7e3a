/**
 * Journey: chat on a replay. A viewer writes two chat lines some seconds apart and tips once during a
 * broadcast; on its replay the chat is read-only ("Chat replay", no input) and follows the video: at the
 * start none of the lines shows, playing on shows each as the video reaches the moment it was written,
 * seeking past the last shows both lines and the tip, seeking back to the start hides them again; on a
 * phone the replay's chat fills the screen under the video.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, broadcastAs, chatInput, chatLog, endStreamFromStudio, sendChatLine, videoTime, viewerWithCoinsAt } from './support/live';

const openAppPage = useAppInBrowser({ media: true });
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'E2E replay chat';
const PHONE = { width: 390, height: 844 };
const FIRST = 'First line, early in the show';
const SECOND = 'Second line, some seconds later';
const TIP = 'Sent 10 Coins!!';

const replayChat = (page: Page) => page.getByRole('region', { name: 'Chat replay' });
/** The lines of the chat log, as their texts read. */
const shown = (page: Page, text: string) => chatLog(page).getByText(text, { exact: true }).count();

/** Types a line once the chat has joined and sends it; the input empties when the server took it. */
async function say(page: Page, text: string) {
  await sendChatLine(page, text);
  await expect.poll(() => chatInput(page).inputValue(), { timeout: 10_000 }).toBe('');
}

/** The live video plays `seconds` further on from where it is now. */
async function playOn(page: Page, seconds: number) {
  const from = await videoTime(page);
  await expect.poll(() => videoTime(page), { timeout: 30_000 }).toBeGreaterThan(from + seconds);
}

/** Pauses the replay and moves it to `seconds`; resolves once the seek is done. */
async function seekTo(page: Page, seconds: number) {
  const video = page.locator('video');
  await video.evaluate((v: HTMLVideoElement, to: number) => {
    v.pause();
    v.currentTime = to;
  }, seconds);
  // Done when the element says so: a seek to where it stands fires no 'seeked' in every state of the player.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement, to: number) => !v.seeking && Math.abs(v.currentTime - to) < 0.5, seconds), { timeout: 30_000 }).toBe(true);
}

describe('chat on a replay', () => {
  let broadcaster: TestPage;
  let viewer: TestPage;
  let streamPath = '';
  /** Where each line is in the video, in seconds, as the server places them. */
  const offsets: Record<string, number> = {};

  step('a viewer writes two lines some seconds apart and tips once during the broadcast', async () => {
    broadcaster = await openAppPage();
    const onAir = await broadcastAs(broadcaster.page, TITLE);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;

    viewer = await openAppPage();
    const { page } = viewer;
    await viewerWithCoinsAt(page, 'viewer1', streamPath, TITLE);
    await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(0.5);
    await playOn(page, 2);

    await say(page, FIRST);
    await playOn(page, 6);
    await say(page, SECOND);
    await page.mouse.move(0, 0);
    await page.getByRole('button', { name: 'Tip', exact: true }).hover();
    const amounts = page.getByRole('dialog').filter({ hasText: 'Send a tip' });
    await amounts.waitFor();
    await amounts.getByRole('button', { name: '10 Coins' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send a Tip' });
    await confirm.getByRole('button', { name: 'Confirm Tip' }).click();
    await confirm.waitFor({ state: 'detached', timeout: 15_000 });
    await chatLog(page).getByText(TIP, { exact: true }).waitFor();
    // Some video after the tip, so the replay goes on past it.
    await playOn(page, 4);
  });

  // Ending, the replay's closing and the page's load each wait on the ingest: more than a step's minute on a busy machine.
  step('the broadcast ends; its replay has a read-only chat that starts empty', async () => {
    const studio = broadcaster.page;
    await endStreamFromStudio(studio);
    await publisher?.stop();
    publisher = undefined;

    const { page } = viewer;
    await page.goto(streamPath);
    await badge(page, 'REPLAY').waitFor({ timeout: 30_000 });
    await replayChat(page).getByRole('heading', { name: 'Chat replay' }).waitFor();
    expect(await chatInput(page).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Live chat' }).count()).toBe(0);

    // Where the server places the lines, for the seeks below.
    const id = new URL(streamPath, 'http://x').searchParams.get('id');
    const answer = await page.evaluate(async (path) => (await fetch(path)).json(), `/api/streams/replay-chat?id=${id}`);
    for (const { offset_ms, message } of answer.lines as Array<{ offset_ms: number; message: { type: string; text: string } }>) {
      offsets[message.type === 'TIP' ? TIP : message.text] = offset_ms / 1000;
    }
    expect(Object.keys(offsets).sort()).toEqual([FIRST, SECOND, TIP].sort());
    expect(offsets[FIRST]).toBeGreaterThan(1);
    expect(offsets[SECOND]! - offsets[FIRST]!).toBeGreaterThan(4);

    await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.duration), { timeout: 20_000 }).toBeGreaterThan(offsets[TIP]!);
    await seekTo(page, 0);
    await chatLog(page).getByText('Nothing was said yet at this point of the broadcast.').waitFor();
    for (const text of [FIRST, SECOND, TIP]) expect(await shown(page, text)).toBe(0);
  }, 150_000);

  step('playing on shows each line as the video reaches the moment it was written', async () => {
    const { page } = viewer;
    await seekTo(page, Math.max(0, offsets[FIRST]! - 1.5));
    expect(await shown(page, FIRST)).toBe(0);
    await page.locator('video').evaluate((v: HTMLVideoElement) => v.play());
    await chatLog(page).getByText(FIRST, { exact: true }).waitFor({ timeout: 10_000 });
    // The second line was written seconds later: it is not there yet.
    expect(await videoTime(page)).toBeLessThan(offsets[SECOND]!);
    expect(await shown(page, SECOND)).toBe(0);
  });

  step('seeking past the last line shows both lines and the tip; seeking back to the start hides them', async () => {
    const { page } = viewer;
    await seekTo(page, offsets[TIP]! + 1);
    for (const text of [FIRST, SECOND, TIP]) await chatLog(page).getByText(text, { exact: true }).waitFor({ timeout: 10_000 });
    // Oldest first, each once.
    const texts = await chatLog(page).evaluate((log) => log.textContent ?? '');
    expect(texts.indexOf(FIRST)).toBeLessThan(texts.indexOf(SECOND));
    expect(texts.indexOf(SECOND)).toBeLessThan(texts.indexOf(TIP));
    for (const text of [FIRST, SECOND, TIP]) expect(await shown(page, text)).toBe(1);
    await screenshot(page, 'replay-chat');

    await seekTo(page, 0);
    await expect.poll(() => shown(page, FIRST), { timeout: 10_000 }).toBe(0);
    for (const text of [SECOND, TIP]) expect(await shown(page, text)).toBe(0);

    // Between the two lines: only the first.
    await seekTo(page, (offsets[FIRST]! + offsets[SECOND]!) / 2);
    await chatLog(page).getByText(FIRST, { exact: true }).waitFor({ timeout: 10_000 });
    expect(await shown(page, SECOND)).toBe(0);
  });

  step('on a phone the replay chat sits under the video', async () => {
    const { page } = viewer;
    const desktop = page.viewportSize()!;
    await page.setViewportSize(PHONE);
    await seekTo(page, offsets[TIP]! + 1);
    await chatLog(page).getByText(TIP, { exact: true }).waitFor({ timeout: 10_000 });
    const [video, chat] = await Promise.all([page.locator('video').boundingBox(), replayChat(page).boundingBox()]);
    expect(video && chat).toBeTruthy();
    expect(chat!.y).toBeGreaterThanOrEqual(video!.y + video!.height);
    expect(chat!.x + chat!.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'replay-chat-phone');
    await page.setViewportSize(desktop);
    expect([...broadcaster.errors, ...viewer.errors]).toEqual([]);
  });
});
