/**
 * Journey: the video call's background blur segments the person. Chromium's fake camera plays a still
 * portrait (e2e/fixtures/person.jpg); the host opens the demo call and turns the blur on. In the local
 * preview the background (flag, shuttle model) then loses its fine detail while the face keeps it,
 * which only segmentation does (the whole-frame fallback blurs the face too). The model is fetched
 * only then, and from our own origin, under the server's content security policy. Off and on again,
 * the blur starts anew.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { CALENDAR } from './support/meetings';

const PORTRAIT = fileURLToPath(new URL('fixtures/person.jpg', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('screenshots/', import.meta.url));
const camera = path.join(os.tmpdir(), `ll-blur-camera-${process.pid}.y4m`);

// Before the browser starts (hooks run in order): chromium reads the fake camera's file at launch.
beforeAll(() => {
  const made = spawnSync(resolveFfmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', '-loop', '1', '-i', PORTRAIT, '-frames:v', '12', '-r', '24', '-pix_fmt', 'yuv420p', camera]);
  if (made.status !== 0) throw new Error(`ffmpeg could not make the camera file: ${made.stderr.toString()}`);
});
afterAll(() => rmSync(camera, { force: true }));

// The segmentation's WebGL runs on SwiftShader (software) beside --disable-gpu in Debian's chromium.
const openAppPage = useAppInBrowser({ chromiumArgs: [`--use-file-for-fake-video-capture=${camera}`] });
const step = journeySteps();

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
/** Regions of the 640×480 portrait. */
const FACE: Box = { x: 240, y: 60, w: 80, h: 90 };
const BACKGROUND: Box[] = [
  { x: 0, y: 0, w: 90, h: 200 },
  { x: 450, y: 20, w: 130, h: 240 },
];

async function signedInUserId(page: Page): Promise<number> {
  return page.evaluate(async () => ((await (await fetch('/api/user/session-detail')).json()) as { user: { user_id: number } }).user.user_id);
}

/** A POST from the signed-in page, sent as the app sends it: JSON with the session's CSRF token. */
async function post(page: Page, url: string, body: object): Promise<unknown> {
  const answer = await page.evaluate(
    async ([to, input]) => {
      const { token } = (await (await fetch('/api/csrf-token')).json()) as { token: string };
      const res = await fetch(to, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify(input) });
      return { status: res.status, body: (await res.json()) as unknown };
    },
    [url, body] as const,
  );
  expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}

/**
 * The local preview's fine detail per region: the mean absolute difference of each pixel's luma from
 * its right and lower neighbours, which a blur drives toward zero.
 */
function previewDetail(page: Page, boxes: Box[]): Promise<number[]> {
  return page.evaluate((regions) => {
    const video = document.querySelector<HTMLVideoElement>('video[data-local-video]');
    if (!video || video.videoWidth === 0) return regions.map(() => Number.NaN);
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return regions.map(() => Number.NaN);
    context.drawImage(video, 0, 0);
    return regions.map(({ x, y, w, h }) => {
      const { data } = context.getImageData(x, y, w + 1, h + 1);
      const luma = (px: number, py: number) => {
        const i = (py * (w + 1) + px) * 4;
        return 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      };
      let sum = 0;
      for (let py = 0; py < h; py += 1) {
        for (let px = 0; px < w; px += 1) sum += Math.abs(luma(px + 1, py) - luma(px, py)) + Math.abs(luma(px, py + 1) - luma(px, py));
      }
      return sum / (w * h);
    });
  }, boxes);
}

/** The preview's frame as a PNG beside the screenshots, to look at the blur at full size. */
async function savePreviewFrame(page: Page, name: string): Promise<void> {
  const dataUrl = await page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('video[data-local-video]');
    const canvas = document.createElement('canvas');
    canvas.width = video?.videoWidth ?? 0;
    canvas.height = video?.videoHeight ?? 0;
    if (video) canvas.getContext('2d')?.drawImage(video, 0, 0);
    return canvas.toDataURL('image/png');
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(`${SCREENSHOTS}${name}.png`, Buffer.from(dataUrl.split(',')[1] ?? '', 'base64'));
}

describe('meeting background blur', () => {
  let host: TestPage;
  let sharp: { face: number; background: number[] };
  const segmentationFiles: string[] = [];
  const warnings: string[] = [];

  const measure = async () => {
    const [face = Number.NaN, ...background] = await previewDetail(host.page, [FACE, ...BACKGROUND]);
    return { face, background };
  };
  const backgroundBlurred = async () => {
    const now = await measure();
    return now.background.every((detail, i) => detail < 0.6 * sharp.background[i]!);
  };

  step('viewer1 follows broadcaster1, who starts a call with them: the camera shows sharp, no model is loaded yet', async () => {
    const viewer = await openAppPage();
    host = await openAppPage();
    const { page } = host;
    page.on('request', (request) => {
      if (request.url().includes('selfie_segmentation')) segmentationFiles.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await signInAt(viewer.page, 'viewer1', CALENDAR);
    await signInAt(page, 'broadcaster1', CALENDAR);
    const hostId = await signedInUserId(page);
    await post(viewer.page, '/api/user/toggle-following', { id: hostId, isFollowing: true });
    const created = await post(page, '/api/user/create-meeting', {
      title: 'E2E blur call', audience_ids: [await signedInUserId(viewer.page)], start_time: new Date().toISOString(),
    });
    await viewer.context.close();
    const room = await page.goto(`/streams/meeting-view?id=${(created as { data: { meeting_id: number } }).data.meeting_id}`);
    // The policy the blur must run under: WebAssembly may compile, nothing may be evaluated.
    expect(room?.headers()['content-security-policy']).toMatch(/script-src 'self' 'wasm-unsafe-eval';/);
    await page.getByRole('button', { name: 'Blur background' }).waitFor();
    await expect.poll(async () => (await measure()).face, { timeout: 15_000 }).toBeGreaterThan(0);
    sharp = await measure();
    expect(segmentationFiles).toEqual([]);
  });

  step('blur on: the background loses its detail, the face keeps it; the model came from our origin', async () => {
    const { page } = host;
    await page.getByRole('button', { name: 'Blur background' }).click();
    await page.getByRole('button', { name: 'Background: blur' }).waitFor();
    await expect.poll(backgroundBlurred, { timeout: 20_000, interval: 500 }).toBe(true);
    const blurred = await measure();
    expect(blurred.face).toBeGreaterThan(0.8 * sharp.face);
    await screenshot(page, 'meeting-blur-on');
    await savePreviewFrame(page, 'meeting-blur-frame');

    const origin = new URL(page.url()).origin;
    expect(segmentationFiles.some((url) => url.endsWith('.tflite'))).toBe(true);
    expect(segmentationFiles.some((url) => url.endsWith('.wasm'))).toBe(true);
    expect(segmentationFiles.every((url) => url.startsWith(`${origin}/assets/`))).toBe(true);
    expect(warnings.filter((w) => w.includes('Background blur'))).toEqual([]);
  }, 40_000);

  step('blur off and on again: the camera comes back sharp, then the new blur segments again', async () => {
    const { page } = host;
    const off = page.getByRole('button', { name: 'Background: blur' });
    await expect.poll(() => off.isEnabled(), { timeout: 10_000 }).toBe(true);
    await off.click();
    await expect.poll(backgroundBlurred, { timeout: 5_000 }).toBe(false);
    const on = page.getByRole('button', { name: 'Blur background' });
    await expect.poll(() => on.isEnabled(), { timeout: 10_000 }).toBe(true);
    await on.click();
    await expect.poll(backgroundBlurred, { timeout: 20_000, interval: 500 }).toBe(true);
    expect((await measure()).face).toBeGreaterThan(0.8 * sharp.face);
    expect(host.errors).toEqual([]);
  }, 45_000);
});
