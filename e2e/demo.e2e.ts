/**
 * Journey: the first minutes of a fresh demo install, as the README starts it (`server/main.ts`, a
 * fresh data dir, captcha on, any port): the listings show the seeded replays with their pictures,
 * one plays, and `npm run demo:live` goes live in the Live channel and plays.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { DEMO_REPLAYS } from '../server/demo/demo-replays';
import { solvedCaptcha } from '../server/testing/captcha';
import { HttpSession } from '../server/testing/http-session';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import { journeySteps, launchBrowser, openPage, screenshot } from './support/browser';
import { badge, videoTime } from './support/live';

let server: ServerProcess;
let browser: Browser;
let demoLive: ChildProcess | undefined;
let demoLiveOutput = '';

beforeAll(async () => {
  [server, browser] = await Promise.all([
    // A first start seeds the whole demo: given as long as a first start may take beside another journey.
    startServerProcess({ SEED_DEMO: 'on', CAPTCHA: 'altcha' }, { readyMs: 110_000 }),
    launchBrowser(),
  ]);
}, 120_000);
afterAll(async () => {
  if (demoLive?.pid && demoLive.exitCode === null) process.kill(-demoLive.pid, 'SIGINT');
  await browser?.close();
  await server?.stop();
});

const step = journeySteps();
/** Uncaught errors and console errors of every page the journey opened. */
const pageErrors: string[] = [];
const open = async () => {
  const opened = await openPage(browser, server.url);
  opened.page.on('close', () => pageErrors.push(...opened.errors));
  return opened.page;
};

/** Every tile picture on the page has loaded (a broken image has no natural width). */
async function tilePicturesLoaded(page: Page): Promise<number> {
  return page.locator('main img').evaluateAll((images: HTMLImageElement[]) => images.filter((img) => img.complete && img.naturalWidth > 0).length);
}

async function openChannel(page: Page, name: string): Promise<void> {
  await page.goto('/channel/group');
  await page.getByRole('main').getByRole('navigation', { name: 'Channels' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, exact: true }).waitFor();
}

describe('a fresh demo install', () => {
  step('lists the seeded replays with their pictures in Discover', async () => {
    const page = await open();
    await openChannel(page, 'Discover');
    for (const replay of DEMO_REPLAYS) await page.getByRole('link', { name: new RegExp(replay.title) }).waitFor();
    await page.locator('main img').first().scrollIntoViewIfNeeded();
    await expect.poll(() => tilePicturesLoaded(page), { timeout: 15_000 }).toBe(DEMO_REPLAYS.length);
    await screenshot(page, 'demo-discover-replays');
  });

  step('plays a seeded replay', async () => {
    const page = await open();
    await openChannel(page, 'Popular');
    await page.getByRole('link', { name: new RegExp(DEMO_REPLAYS[0]!.title) }).click();
    await badge(page, 'REPLAY').waitFor();
    await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(1);
    await screenshot(page, 'demo-replay-playing');
  });

  step('`npm run demo:live` goes live on this port with the captcha on, listed in Live and playing', async () => {
    const port = new URL(server.url).port;
    const { BASE_URL: _elsewhere, ...env } = process.env;
    startDemoLive(port, env);
    await expect.poll(() => demoLiveOutput, { timeout: 30_000 }).toContain('Publishing');

    // A fresh install's broadcaster1 carries the setup of their seeded replay over; the script keeps it and says so.
    const kept = /Keeping the saved broadcast setup \("(.+)"\)/.exec(demoLiveOutput)?.[1];
    const title = kept ?? 'Demo live: test pattern';
    const page = await open();
    await expect.poll(async () => {
      await openChannel(page, 'Live');
      return page.getByRole('link', { name: title }).count();
    }, { timeout: 30_000, interval: 2_000 }).toBe(1);
    await screenshot(page, 'demo-live-listed');
    await page.getByRole('link', { name: title }).click();
    await badge(page, 'LIVE').waitFor();
    await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(1);
    await screenshot(page, 'demo-live-playing');
    expect(demoLive?.exitCode, demoLiveOutput).toBeNull();
    await Promise.all(browser.contexts().map((context) => context.close()));
    expect(pageErrors).toEqual([]);
  });

  step('Ctrl-C ends `npm run demo:live` quietly; run again, it keeps the title the broadcaster saved', async () => {
    await interruptDemoLive();
    expect(demoLiveOutput.trimEnd()).toMatch(/Stopped: the stream ends after the grace window and stays as a replay\.$/);
    expect(demoLiveOutput).not.toMatch(/ffmpeg|error/i);

    // The broadcaster saves their own setup (the captcha is on: signed in with a solved proof).
    const api = await signInWithProof();
    await expect.poll(async () => ((await api.api<{ stream: { live: string } }>('/api/streams/get-live-stream', {})).stream.live), { timeout: 30_000 }).toBe('N');
    const { stream } = await api.api<{ stream: { stream_id: number } }>('/api/streams/get-live-stream', {});
    await api.api('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'My own evening show', audience: 'PUBLIC', rating: 'G' } });
    startDemoLive(new URL(server.url).port, process.env);
    await expect.poll(() => demoLiveOutput, { timeout: 30_000 }).toContain('Publishing');
    expect(demoLiveOutput).toContain('Keeping the saved broadcast setup ("My own evening show").');
    const { stream: after } = await api.api<{ stream: { title: string } }>('/api/streams/get-live-stream', {});
    expect(after.title).toMatch(/^My own evening show/);
    await interruptDemoLive();
    expect(demoLiveOutput).not.toMatch(/ffmpeg|error/i);
  }, 120_000);
});

/** `npm run demo:live` on the server's port, in a process group of its own as in a terminal. */
function startDemoLive(port: string, given: NodeJS.ProcessEnv) {
  const { BASE_URL: _elsewhere, ...env } = given;
  demoLiveOutput = '';
  demoLive = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo-live.ts'], { env: { ...env, PORT: port }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  demoLive.stdout?.on('data', (chunk: Buffer) => (demoLiveOutput += chunk.toString()));
  demoLive.stderr?.on('data', (chunk: Buffer) => (demoLiveOutput += chunk.toString()));
}

/** Ctrl-C as a terminal sends it: to the whole process group. */
async function interruptDemoLive() {
  const running = demoLive;
  if (!running?.pid) return;
  const ended = new Promise((resolve) => running.once('exit', resolve));
  process.kill(-running.pid, 'SIGINT');
  await ended;
  demoLive = undefined;
}

async function signInWithProof(): Promise<HttpSession> {
  const api = HttpSession.at(server.url);
  const altcha = await solvedCaptcha(api);
  const res = await api.post('/api/user/user-login', { username: 'broadcaster1', password: DEMO_PASSWORD, altcha });
  if (res.status !== 200) throw new Error(`sign-in refused: ${res.status}`);
  return api;
}
