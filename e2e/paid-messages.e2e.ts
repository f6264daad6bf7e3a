/**
 * Journey: a fan messages a creator and unlocks a paid video (decision 0088). viewer3 writes to
 * broadcaster2; broadcaster2 adds a clip to their vault, attaches it to the reply at 50 coins and sends;
 * viewer3 sees only its blurred tile with "Unlock for 50 coins", buys coins, unlocks it and the video plays
 * in the conversation; broadcaster2 sees "Unlocked" under it and viewer3 in "Unlocked by fans".
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { fill, MSG } from '../common/messages';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { buyThousandCoins } from './support/wallet';

const openAppPage = useAppInBrowser();
const step = journeySteps();

const HELLO = 'Hi! Anything special for your fans this week?';
const REPLY = 'Just for you: backstage from Friday';
const UNLOCK = fill(MSG.messageUnlockFor, { price: 50 });

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('textbox', { name: /^Message to / });

const clips = mkdtempSync(path.join(os.tmpdir(), 'll-paid-clip-'));
const clipFile = path.join(clips, 'backstage.mp4');
execFileSync(resolveFfmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=4', '-f', 'lavfi', '-i', 'sine=frequency=520:duration=4',
  '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clipFile]);
afterAll(() => rmSync(clips, { recursive: true, force: true }));

describe('a fan unlocks a paid video in a conversation', () => {
  let fan: TestPage;
  let creator: TestPage;
  let creatorId = '';
  let fanId = '';

  step('viewer3 writes to broadcaster2 from their profile', async () => {
    fan = await openAppPage();
    const { page } = fan;
    await signInAt(page, 'viewer3', '/channel/search?search=broadcaster2');
    await page.getByRole('list', { name: 'People' }).getByRole('article', { name: 'broadcaster2', exact: true }).getByRole('link').click();
    await page.waitForURL(/\/u\/\d+$/);
    creatorId = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByRole('main').getByRole('link', { name: 'Message', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/messages' && url.searchParams.get('with') === creatorId);
    await composer(page).fill(HELLO);
    await composer(page).press('Enter');
    await messages(page).getByText(HELLO).waitFor();
  });

  step('broadcaster2 keeps a clip in their vault; it is processed there', async () => {
    creator = await openAppPage();
    const { page } = creator;
    await signInAt(page, 'broadcaster2', '/vault');
    await page.getByRole('heading', { name: 'Vault' }).waitFor();
    await page.getByLabel('Add photos or videos').setInputFiles({ name: 'backstage.mp4', mimeType: 'video/mp4', buffer: readFileSync(clipFile) });
    const vault = page.getByRole('list', { name: 'Vault' });
    await vault.getByText('Video processing…').or(vault.getByRole('img', { name: /^Video from/ })).first().waitFor({ timeout: 30_000 });
    await vault.getByRole('img', { name: /^Video from/ }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'vault-with-video');
  });

  step('broadcaster2 attaches it to the reply at 50 coins', async () => {
    const { page } = creator;
    await page.goto('/messages');
    const row = page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /viewer3/ });
    await row.click();
    fanId = new URL(page.url()).searchParams.get('with') ?? '';
    await messages(page).getByText(HELLO).waitFor();
    await page.getByRole('button', { name: 'Attach a photo or video' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose from your vault' });
    await picker.getByRole('button', { pressed: false }).filter({ has: page.getByRole('img', { name: /^Video from/ }) }).first().click();
    await picker.getByRole('button', { name: 'Use', exact: true }).click();
    await picker.waitFor({ state: 'hidden' });
    await page.getByLabel('Price (coins, 0 = free)').fill('50');
    await composer(page).fill(REPLY);
    const sent = page.waitForResponse((r) => r.url().includes('/api/messages/send'));
    await page.getByRole('button', { name: 'Send' }).click();
    expect((await sent).ok()).toBe(true);
    const mine = messages(page).getByRole('listitem').filter({ hasText: REPLY });
    await mine.getByText(`50 Coins · ${MSG.messageNotUnlockedYet}`).waitFor();
    await screenshot(page, 'paid-message-sent');
  });

  step('viewer3 sees only the blurred tile; with coins bought, Unlock opens the video, which plays', async () => {
    const { page } = fan;
    const paid = messages(page).getByRole('listitem').filter({ hasText: REPLY });
    await paid.getByRole('button', { name: UNLOCK }).waitFor({ timeout: 15_000 });
    expect(await paid.locator('video').count()).toBe(0);
    await screenshot(page, 'paid-message-locked');

    await buyThousandCoins(page);
    await page.goto(`/messages?with=${creatorId}`);
    const unlocked = page.waitForResponse((r) => r.url().includes('/api/messages/unlock'));
    await paid.getByRole('button', { name: UNLOCK }).click();
    const answer = await unlocked;
    expect(answer.ok()).toBe(true);
    // The 1,000 coins bought, less the price.
    expect(((await answer.json()) as { balance: number }).balance).toBe(950);
    const video = paid.locator('video');
    await video.waitFor({ timeout: 15_000 });
    await expect.poll(async () => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'paid-message-unlocked');
  });

  step('broadcaster2 sees it unlocked, and viewer3 among those who unlocked', async () => {
    const { page } = creator;
    const mine = messages(page).getByRole('listitem').filter({ hasText: REPLY });
    await page.goto(`/messages?with=${fanId}`);
    await mine.getByText(`50 Coins · ${MSG.messageUnlocked}`).waitFor({ timeout: 15_000 });
    await page.goto('/messages?to=many');
    const unlocks = page.getByRole('region', { name: 'Unlocked by fans' });
    await unlocks.getByText('viewer3').waitFor();
    await unlocks.getByText('1 unlock · 50 Coins').waitFor();
    await screenshot(page, 'paid-message-unlocks');
  });
});
