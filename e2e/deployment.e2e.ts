/**
 * Journey through a whole deployment (scripts/deploy/local-deployment.ts): nginx in front of two API
 * instances, a media instance and a worker, in production mode on PostgreSQL and Redis. A new broadcaster
 * signs up and goes live over RTMP; a new viewer signs up, watches through nginx (segments from its cache), buys coins and tips; the
 * two chat from different instances; one API instance is killed and the sockets carry on through the other
 * with nothing acknowledged lost; the broadcaster uploads a post the viewer then sees.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect } from 'vitest';
import { mustRunEverything } from '../server/testing/services';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { startLocalDeployment, type LocalDeployment } from '../scripts/deploy/local-deployment';
import { NGINX_PATH, NJS_MODULE } from '../server/platform/media/edge-config';
import { buyFiveDollarsOfCoins, newUser, signUpWithInterests, type NewUser } from './support/app';
import { journeySteps, launchBrowser, openPage, screenshot, screenshotFailures, type TestPage } from './support/browser';
import { badge, goLiveAndPublish, saveBroadcastTitle, videoTime } from './support/live';

const postgresUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const missing = [!postgresUrl && 'TEST_DATABASE_URL is not set', !redisUrl && 'TEST_REDIS_URL is not set', !existsSync(NGINX_PATH) && `${NGINX_PATH} is not installed`, !existsSync(NJS_MODULE) && `${NJS_MODULE} is not installed (libnginx-mod-http-js)`].filter(Boolean).join('; ');
const suite = missing && !mustRunEverything() ? describe.skip.bind(describe) : describe;
const suiteName = missing && !mustRunEverything() ? `a deployment behind nginx [skipped: ${missing}]` : 'a deployment behind nginx';

const TITLE = 'Deployment smoke show';
const step = journeySteps();
let deployment: LocalDeployment | undefined;
let browser: Browser | undefined;
let publisher: RunningPublisher | undefined;
let directory = '';

beforeAll(async () => {
  if (missing) {
    if (mustRunEverything()) throw new Error(`the deployment journey cannot run: ${missing}`);
    return;
  }
  directory = mkdtempSync(path.join(os.tmpdir(), 'll-deploy-'));
  [deployment, browser] = await Promise.all([
    startLocalDeployment({
      root: fileURLToPath(new URL('..', import.meta.url)),
      directory,
      postgresUrl: postgresUrl!,
      redisUrl: redisUrl!,
      // What this test deployment asks for: no captcha to solve, and the sandbox's test cards.
      env: { CAPTCHA: 'off', PAYMENTS: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'on', LOG_LEVEL: 'warn', SIGNUPS_PER_ADDRESS: '100' },
    }),
    launchBrowser(),
  ]);
}, 180_000);
/** A failed step leaves the instances' logs: their last lines are printed and the folder is kept. */
let failedSteps = 0;
beforeEach((context) => {
  context.onTestFailed(() => {
    failedSteps += 1;
  });
});
function printLogTails(): void {
  if (!directory) return;
  // The instances' logs and nginx's error log.
  for (const name of readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.log'))) {
    const lines = readFileSync(path.join(directory, name), 'utf8').trimEnd().split('\n');
    console.error(`── ${name}, last ${Math.min(40, lines.length)} of ${lines.length} lines (all in ${directory}):\n${lines.slice(-40).join('\n')}`);
  }
}

afterAll(async () => {
  if (failedSteps > 0) printLogTails();
  await publisher?.stop();
  await browser?.close();
  await deployment?.stop();
  if (deployment) {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${new URL(deployment.databaseUrl).pathname.slice(1)} WITH (FORCE)`);
    await client.end();
  }
  if (directory && failedSteps === 0) rmSync(directory, { recursive: true, force: true });
});

const open = () => openPage(browser!, deployment!.url);
screenshotFailures();

async function signUp(page: Page, user: NewUser): Promise<void> {
  await page.goto('/user/sign-up');
  await signUpWithInterests(page, user);
}

const chatInput = (page: Page) => page.getByRole('textbox', { name: 'Chat message' });
const chatLine = (page: Page, text: string) => page.getByRole('log', { name: 'Chat' }).getByText(text, { exact: true }).last();

async function say(page: Page, text: string): Promise<void> {
  await chatInput(page).fill(text);
  const send = page.getByRole('button', { name: 'Send' });
  await expect.poll(() => send.isEnabled(), { timeout: 20_000 }).toBe(true);
  await chatInput(page).press('Enter');
  // The server took it: the input empties.
  await expect.poll(() => chatInput(page).inputValue(), { timeout: 15_000 }).toBe('');
}

/** The instance whose socket holds each signed-in viewer of the stream (their presence rows: the instances' own record). */
async function instancesOfViewers(streamId: number): Promise<Map<number, string>> {
  const client = new pg.Client({ connectionString: deployment!.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ instance_id: string; user_ids: number[] }>(
      `select instance_id, user_ids from realtime_presence where channel = $1 and members > 0`, [`stream:${streamId}`]);
    return new Map(rows.flatMap((row) => row.user_ids.map((user) => [user, row.instance_id] as const)));
  } finally {
    await client.end();
  }
}

const userIdOf = (page: Page) => page.evaluate(async () => ((await (await fetch('/api/user/session-detail')).json()) as { user: { user_id: number } }).user.user_id);

suite(suiteName, () => {
  let broadcaster: TestPage;
  let viewer: TestPage;
  let second: TestPage;
  let streamPath = '';
  let streamId = 0;

  step('a new broadcaster signs up through nginx and goes live over RTMP to the media instance', async () => {
    broadcaster = await open();
    const { page } = broadcaster;
    await signUp(page, newUser());
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
    await saveBroadcastTitle(page, TITLE);
    const onAir = await goLiveAndPublish(page);
    publisher = onAir.publisher;
    expect(onAir.rtmpUrl).toBe(deployment!.rtmpUrl);
    streamPath = onAir.streamPath;
    streamId = Number(new URLSearchParams(streamPath.split('?')[1]).get('id'));
    await screenshot(page, 'deployment-broadcaster-live');
  }, 120_000);

  step('a new viewer signs up, watches through nginx, buys coins and tips', async () => {
    viewer = await open();
    const { page } = viewer;
    await signUp(page, newUser());
    await page.getByRole('banner').getByRole('link', { name: 'Get Coins' }).click();
    await buyFiveDollarsOfCoins(page, '100');
    await page.goto(streamPath);
    await badge(page, 'LIVE').waitFor();
    await expect.poll(() => videoTime(page), { timeout: 30_000 }).toBeGreaterThan(1);
    const tip = page.getByRole('button', { name: 'Tip', exact: true });
    await tip.hover();
    await page.getByRole('dialog').filter({ hasText: 'Send a tip' }).getByRole('button', { name: '10 Coins' }).click();
    // A viewer's first tip is confirmed.
    await page.getByRole('dialog', { name: 'Send a Tip' }).getByRole('button', { name: 'Confirm Tip' }).click();
    await page.getByText('You tipped 10 Coins!').first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'deployment-viewer-watching');
  }, 120_000);

  step('two viewers chat from different API instances, and the broadcaster reads along', async () => {
    second = await open();
    await signUp(second.page, newUser());
    // What the edge answered for each segment the second viewer's player fetched.
    const edgeAnswers: string[] = [];
    second.page.on('response', (response) => {
      if (/\/media\/hls\/.*\.ts$/.test(new URL(response.url()).pathname)) edgeAnswers.push(response.headers()['x-cache-status'] ?? 'none');
    });
    await second.page.goto(streamPath);
    await badge(second.page, 'LIVE').waitFor();
    await broadcaster.page.goto(streamPath);
    await badge(broadcaster.page, 'LIVE').waitFor();
    const [first, other] = await Promise.all([userIdOf(viewer.page), userIdOf(second.page)]);
    // A page's socket lands on whichever instance nginx picks: reopen the second viewer's page until the two differ.
    for (let attempt = 0; ; attempt++) {
      const where = await instancesOfViewers(streamId);
      if (where.get(first) && where.get(other) && where.get(first) !== where.get(other)) break;
      if (attempt >= 20) throw new Error(`the two viewers' sockets never landed on two instances: ${JSON.stringify([...where])}`);
      if (where.get(first) && where.get(other)) await second.page.reload();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    await say(viewer.page, 'Hello from the other instance');
    await chatLine(second.page, 'Hello from the other instance').waitFor({ timeout: 15_000 });
    await chatLine(broadcaster.page, 'Hello from the other instance').waitFor({ timeout: 15_000 });
    await say(second.page, 'Heard you across instances');
    await chatLine(viewer.page, 'Heard you across instances').waitFor({ timeout: 15_000 });
    // Counted across the instances: both viewers (the broadcaster is never among them); the page shows
    // live viewers minus 2, so 0 here (spec part 1 §2).
    const liveViewers = () => viewer.page.evaluate(async (id) => ((await (await fetch(`/api/streams/stream-lookup?id=${id}`)).json()) as { stream: { viewers: number } }).stream.viewers, streamId);
    await expect.poll(liveViewers, { timeout: 15_000 }).toBe(2);
    expect(await viewer.page.getByLabel(/^\d+ viewers$/).first().getAttribute('aria-label')).toBe('0 viewers');
    await screenshot(viewer.page, 'deployment-chat-across-instances');
    // Both viewers play the same segments: the edge served the second one some from its cache. Each new
    // segment goes first to whichever player asks first, so the second viewer keeps playing until one was a HIT.
    await expect.poll(() => edgeAnswers.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => edgeAnswers.includes('HIT'), { timeout: 30_000 }).toBe(true);
  }, 150_000);

  step('one API instance is killed: the sockets reconnect to the other and nothing acknowledged is lost', async () => {
    const secondWasAt = await videoTime(second.page);
    await deployment!.instance('api-1').kill();
    await say(viewer.page, 'Still here after an instance died');
    await chatLine(broadcaster.page, 'Still here after an instance died').waitFor({ timeout: 30_000 });
    await say(second.page, 'So am I');
    await chatLine(viewer.page, 'So am I').waitFor({ timeout: 30_000 });
    // What was acknowledged before the kill is still there: the earlier lines and the tip's coins.
    await viewer.page.reload();
    await chatLine(viewer.page, 'Hello from the other instance').waitFor({ timeout: 20_000 });
    await expect.poll(() => viewer.page.getByRole('banner').getByLabel(/Your balance/).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Your balance: 90 Coins');
    await expect.poll(() => videoTime(viewer.page), { timeout: 30_000 }).toBeGreaterThan(1);
    // The page that was not reloaded plays on through the kill (decision 0077).
    await expect.poll(() => videoTime(second.page), { timeout: 45_000 }).toBeGreaterThan(secondWasAt + 2);
    await screenshot(viewer.page, 'deployment-after-instance-killed');
  }, 120_000);

  step('the broadcaster uploads a picture post, and the viewer sees it', async () => {
    const { page } = broadcaster;
    await page.goto('/user/upload');
    const form = page.getByRole('form', { name: 'Upload image' });
    const picture = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 40, g: 140, b: 200 } } }).jpeg().toBuffer();
    await form.getByLabel('Choose images').setInputFiles([{ name: 'backstage.jpg', mimeType: 'image/jpeg', buffer: picture }]);
    await form.getByLabel('Title').fill('Backstage');
    await form.getByLabel('Audience').selectOption('public');
    await form.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/\/post\/post-view\?id=\d+/, { timeout: 60_000 });
    const postPath = new URL(page.url()).pathname + new URL(page.url()).search;
    // Stored in the bucket, not on an instance's disk.
    expect((await deployment!.store.keys('posts/')).length).toBeGreaterThan(0);
    await viewer.page.goto(postPath);
    await viewer.page.getByRole('heading', { name: 'Backstage' }).waitFor();
    // The picture itself arrived (the signed address fetched through nginx), not only its tile.
    await expect.poll(() => viewer.page.getByRole('main').locator('img').evaluateAll((images) => images.some((image) => (image as HTMLImageElement).naturalWidth >= 320)), { timeout: 20_000 }).toBe(true);
    await screenshot(viewer.page, 'deployment-post-seen');
  }, 120_000);
});
