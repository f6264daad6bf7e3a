/**
 * Journey: a broadcaster publishes three pictures as a paid post (the upload's progress bar in view)
 * and a .mov video; the video is processed and plays. A viewer buys coins, meets the Purchase
 * Confirmation, buys the post, sees the pictures, comments, replies, likes and saves it, and finds
 * it in the Saved tab — on a phone.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { choosePackageByTestCard, signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';

const openAppPage = useAppInBrowser();
const step = journeySteps();

const TITLE = 'E2E evening light';
const PHONE = { width: 390, height: 844 };
const work = mkdtempSync(path.join(os.tmpdir(), 'll-e2e-posts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const picture = (r: number, g: number, b: number) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r, g, b } } }).jpeg({ quality: 90 }).toBuffer();

function clip(): Buffer {
  const file = path.join(work, 'evening.mov');
  execFileSync(resolveFfmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=6', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=6',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file]);
  return readFileSync(file);
}

describe('posts', () => {
  let creator: TestPage;
  let viewer: TestPage;
  let postPath = '';

  step('a broadcaster uploads three pictures as a paid post, watching the progress bar', async () => {
    creator = await openAppPage();
    const { page } = creator;
    await signInAt(page, 'broadcaster2', '/user/upload');
    const form = page.getByRole('form', { name: 'Upload image' });
    await form.getByRole('button', { name: 'Publish' }).click();
    await form.getByText(MSG.selectImages).waitFor();
    await form.getByLabel('Choose images').setInputFiles([
      { name: 'dusk.jpg', mimeType: 'image/jpeg', buffer: await picture(230, 120, 60) },
      { name: 'night.jpg', mimeType: 'image/jpeg', buffer: await picture(40, 50, 120) },
      { name: 'dawn.jpg', mimeType: 'image/jpeg', buffer: await picture(250, 200, 120) },
    ]);
    await form.getByLabel('Title').fill(TITLE);
    await form.getByLabel('Audience').selectOption('public');
    const price = form.getByLabel('Price (coins)');
    await price.fill('45');
    await price.blur();
    await expect.poll(() => price.inputValue()).toBe('50');
    // Rounded visibly, with the rule said.
    await form.getByRole('status').filter({ hasText: '45 coins became 50: a paid post costs 10 to 1,000 coins, in steps of 10.' }).waitFor();
    await screenshot(page, 'posts-price-rounded');
    await form.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await screenshot(page, 'posts-upload-progress');
    await page.waitForURL(/\/post\/post-view\?id=\d+/, { timeout: 30_000 });
    postPath = new URL(page.url()).pathname + new URL(page.url()).search;
    await page.getByRole('heading', { name: TITLE }).waitFor();
    await page.getByText('50 Coins', { exact: true }).waitFor();
    await page.getByLabel('Image 1 of 3').waitFor();
    await page.getByRole('button', { name: 'Next image' }).click();
    await page.getByLabel('Image 2 of 3').waitFor();
    await screenshot(page, 'posts-own-paid-post');
  });

  step('the broadcaster posts a .mov video, which is processed and then plays', async () => {
    const { page } = creator;
    await page.goto('/user/upload');
    await page.getByRole('tab', { name: 'Video' }).click();
    const form = page.getByRole('form', { name: 'Upload video' });
    await form.getByLabel('Choose a video').setInputFiles({ name: 'evening.mov', mimeType: 'video/quicktime', buffer: clip() });
    await form.getByLabel('Title').fill('E2E evening film');
    await form.getByLabel('Audience').selectOption('public');
    await form.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/\/post\/post-view\?id=\d+/, { timeout: 30_000 });
    const video = page.locator('video');
    await video.waitFor({ timeout: 60_000 });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => { void v.play().catch(() => undefined); return v.currentTime; }), { timeout: 30_000 }).toBeGreaterThan(0.5);
    // The way back names the profile, not photos, under a video.
    await page.getByRole('link', { name: MSG.backToProfile }).waitFor();
    expect(await page.getByRole('link', { name: MSG.backToPhotos }).count()).toBe(0);
    await screenshot(page, 'posts-video-playing');
    // The Photos tab: each tile its own picture, the video's with its play badge and length.
    await page.goto(`/u/${await page.evaluate(async () => ((await (await fetch('/api/user/session-detail')).json()) as { user: { user_id: number } }).user.user_id)}?type=post`);
    const film = page.getByRole('article', { name: 'E2E evening film' });
    await film.getByLabel(/^Video, 0:0\d$/).waitFor({ timeout: 15_000 });
    const pictures = (await page.getByRole('article').locator('img').evaluateAll((images) => images.map((i) => (i as HTMLImageElement).src)))
      .filter((src) => src.includes('/media/posts/')).map((src) => src.replace(/\/[^/?]*(\?.*)?$/, ''));
    expect(pictures.length).toBeGreaterThanOrEqual(2);
    expect(new Set(pictures).size).toBe(pictures.length);
    await screenshot(page, 'posts-profile-tiles');
  });

  step('a viewer buys coins, then the post from its Purchase Confirmation', async () => {
    viewer = await openAppPage(PHONE);
    const { page } = viewer;
    await signInAt(page, 'viewer2', '/user/account/deposit-coins');
    await choosePackageByTestCard(page, '$5.00');
    await page.getByRole('button', { name: /Buy 100 Coins for \$5\.00/ }).click();
    await page.getByRole('status').filter({ hasText: 'New balance: 100 Coins' }).waitFor({ timeout: 15_000 });
    await page.goto(postPath);
    const purchase = page.getByRole('region', { name: MSG.purchaseConfirmation });
    await purchase.waitFor();
    await purchase.getByText('broadcaster2').waitFor();
    await purchase.getByText('50', { exact: false }).first().waitFor();
    await screenshot(page, 'posts-purchase-confirmation-phone');
    await purchase.getByRole('button', { name: MSG.confirmPurchase }).click();
    await page.getByLabel('Image 1 of 3').waitFor({ timeout: 15_000 });
    await page.getByRole('img').first().waitFor();
  });

  step('the viewer comments, replies, likes and saves, and finds the post under Saved', async () => {
    const { page } = viewer;
    const comment = page.getByLabel('Add a comment');
    await comment.fill('ok');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.getByText(MSG.leaveMessage).waitFor();
    await comment.fill('What a view!');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const mine = page.getByRole('article', { name: 'Comment by viewer2' }).first();
    await mine.getByText('What a view!').waitFor();
    await mine.getByRole('button', { name: 'Reply', exact: true }).click();
    await mine.getByLabel('Reply to viewer2').fill('The second one especially.');
    await mine.locator('form').getByRole('button', { name: 'Reply', exact: true }).click();
    await page.getByText('The second one especially.').waitFor();
    await page.getByRole('button', { name: /^Like/ }).click();
    await page.getByRole('button', { name: /^Liked/ }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Saved', exact: true }).waitFor();
    await screenshot(page, 'posts-bought-commented-phone');
    const me = await page.evaluate(async () => ((await (await fetch('/api/user/session-detail')).json()) as { user: { user_id: number } }).user.user_id);
    await page.goto(`/u/${me}`);
    await page.getByRole('tab', { name: 'Saved' }).click();
    await page.getByText(TITLE).waitFor();
  });

  step('the broadcaster cannot delete the post once it was sold: the dialog says why, and the post stays', async () => {
    const { page } = creator;
    await page.goto(postPath);
    await page.getByRole('heading', { name: TITLE }).waitFor();
    await page.getByRole('button', { name: 'Post actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete post' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByText(MSG.postSoldStays).waitFor();
    await screenshot(page, 'posts-sold-cannot-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.reload();
    await page.getByRole('heading', { name: TITLE }).waitFor();
    expect(creator.errors).toEqual([]);
  });
});
