/** Going live from the dashboard: the broadcaster's steps shared by the live streaming journeys. */
import type { Page } from 'playwright-core';
import { publishTestPattern } from '../../server/testing/rtmp-publisher';
import type { RunningPublisher, TestPatternOptions } from '../../server/testing/rtmp-publisher';
import { expect } from 'vitest';
import { buyFiveDollarsOfCoins, signInAt } from './app';

/** The LIVE / NOT LIVE / REPLAY badge in the page's main region. */
export const badge = (page: Page, text: 'LIVE' | 'NOT LIVE' | 'REPLAY') => page.getByRole('main').getByText(text, { exact: true }).first();

/** The stream page's chat log and its input (the live chat, a replay's, the dashboard's). */
export const chatLog = (page: Page) => page.getByRole('log', { name: 'Chat' });
export const chatInput = (page: Page) => page.getByRole('textbox', { name: 'Chat message' });

/** Types a chat line once the chat has joined (Send turns on only then) and sends it; the server may still refuse it. */
export async function sendChatLine(page: Page, text: string): Promise<void> {
  await chatInput(page).fill(text);
  const send = page.getByRole('button', { name: 'Send' });
  await expect.poll(() => send.isEnabled(), { timeout: 15_000 }).toBe(true);
  await send.click();
}

/** Where the page's video is, in seconds. */
export async function videoTime(page: Page): Promise<number> {
  return page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);
}

/** On /dashboard: Broadcast setup, a title, Save; the header then shows the title. */
export async function saveBroadcastTitle(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Broadcast setup' }).click();
  const setup = page.getByRole('dialog', { name: 'Broadcast setup' });
  await setup.getByLabel('Title').fill(title);
  await setup.getByRole('button', { name: 'Save' }).click();
  await setup.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name: title }).waitFor();
}

export interface OnAir {
  /** `/streams/stream-view?id=…`, from the dashboard's "Open stream page". */
  streamPath: string;
  /** As the dashboard shows them. */
  rtmpUrl: string;
  key: string;
  /** ffmpeg publishing the test pattern with that URL and key; stop() is the encoder's Stop. */
  publisher: RunningPublisher;
}

/**
 * On /dashboard with the broadcast set up: GO LIVE, read the RTMP URL and the key, start the encoder
 * (an ffmpeg test pattern) and wait for the dashboard's LIVE badge.
 */
export async function goLiveAndPublish(page: Page, pattern: Pick<TestPatternOptions, 'fps' | 'gop'> = {}): Promise<OnAir> {
  await page.getByRole('button', { name: 'GO LIVE' }).click();
  const open = page.getByRole('link', { name: 'Open stream page' });
  await open.waitFor();
  const streamPath = (await open.getAttribute('href')) ?? '';

  await page.getByRole('button', { name: 'Show' }).click();
  const key = (await page.getByLabel('Stream key', { exact: true }).textContent()) ?? '';
  const rtmpUrl = (await page.getByLabel('RTMP URL', { exact: true }).textContent()) ?? '';
  // 15 frames a second: moving video for every check, for half the encoding and playing of 30.
  const publisher = publishTestPattern({ url: `${rtmpUrl}/${key}`, width: 640, height: 360, fps: 15, ...pattern });

  try {
    // The owner's channel says STREAM-LIVE; the dashboard's 10 s look-up is the fallback.
    await badge(page, 'LIVE').waitFor({ timeout: 15_000 });
  } catch (error) {
    await publisher.stop();
    throw error;
  }
  return { streamPath, rtmpUrl, key, publisher };
}

/** broadcaster1 signs in on the dashboard, saves a title and goes live with the test pattern. */
export async function broadcastAs(page: Page, title: string): Promise<OnAir> {
  await signInAt(page, 'broadcaster1', '/dashboard');
  await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
  await saveBroadcastTitle(page, title);
  return goLiveAndPublish(page);
}

/** The studio's End stream, confirmed: the dashboard says NOT LIVE once the broadcast ended. */
export async function endStreamFromStudio(studio: Page): Promise<void> {
  await studio.getByRole('button', { name: 'End stream' }).click();
  const confirm = studio.getByRole('dialog', { name: 'End your stream?' });
  await confirm.getByRole('button', { name: 'End stream' }).click();
  await confirm.waitFor({ state: 'detached', timeout: 20_000 });
  await badge(studio, 'NOT LIVE').waitFor({ timeout: 15_000 });
}

/** `username` signs in, buys 100 coins with the test card and opens the live stream at `streamPath` (titled `title`). */
export async function viewerWithCoinsAt(page: Page, username: string, streamPath: string, title: string): Promise<void> {
  await signInAt(page, username, '/');
  await page.goto('/user/account/deposit-coins');
  await buyFiveDollarsOfCoins(page, '100 Coins');
  await page.goto(streamPath);
  await page.getByRole('heading', { name: title }).waitFor();
  await badge(page, 'LIVE').waitFor();
}
