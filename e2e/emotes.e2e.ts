/**
 * Journey: a broadcaster's emote. On the dashboard the broadcaster adds an emote (a picture and a code);
 * live, they pick it from the chat's emoji picker and send it; a viewer sees the picture in the line, and,
 * not being a subscriber, is refused when writing it themself.
 */
import sharp from 'sharp';
import { afterAll, describe, expect } from 'vitest';
import { fill, MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, chatInput, chatLog, goLiveAndPublish, saveBroadcastTitle, sendChatLine } from './support/live';

const openAppPage = useAppInBrowser({ media: true });
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'E2E emotes';
const CODE = 'limehype';

describe('emotes', () => {
  let broadcaster: TestPage;
  let viewer: TestPage;
  let streamPath = '';

  step('the broadcaster adds an emote on the dashboard', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/dashboard');
    await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
    await saveBroadcastTitle(page, TITLE);
    const form = page.getByRole('form', { name: 'Add an emote' });
    await form.getByLabel('Code').fill(CODE);
    const picture = await sharp({ create: { width: 128, height: 128, channels: 4, background: '#a3e635' } })
      .composite([{ input: Buffer.from('<svg width="128" height="128"><circle cx="64" cy="64" r="40" fill="#7c3aed"/></svg>') }])
      .png().toBuffer();
    await form.getByLabel('Picture').setInputFiles({ name: 'hype.png', mimeType: 'image/png', buffer: picture });
    await form.getByRole('button', { name: 'Add emote' }).click();
    await page.getByText(fill(MSG.emoteAdded, { code: CODE })).first().waitFor();
    const list = page.getByRole('list', { name: 'Your emotes' });
    await list.getByText(`:${CODE}:`).waitFor();
    await list.scrollIntoViewIfNeeded();
    await screenshot(page, 'emotes-editor');
    const onAir = await goLiveAndPublish(page);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
  });

  step('live, the broadcaster sends it from the emoji picker and a viewer sees the picture', async () => {
    viewer = await openAppPage();
    await signInAt(viewer.page, 'viewer1', '/');
    await viewer.page.goto(streamPath);
    await viewer.page.getByRole('heading', { name: TITLE }).waitFor();
    await badge(viewer.page, 'LIVE').waitFor();

    const { page } = broadcaster;
    await page.goto(streamPath);
    await page.getByRole('button', { name: 'Emoji' }).click();
    await page.getByRole('button', { name: `Insert :${CODE}:` }).click();
    await page.keyboard.press('Escape');
    expect(await chatInput(page).inputValue()).toBe(`:${CODE}: `);
    await sendChatLine(page, `Welcome everyone :${CODE}:`);
    const seen = chatLog(viewer.page).getByRole('img', { name: `:${CODE}:` });
    await seen.waitFor({ timeout: 15_000 });
    expect(await seen.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await screenshot(viewer.page, 'emotes-in-chat');
  });

  step('a viewer who does not subscribe may not write it', async () => {
    const { page } = viewer;
    await sendChatLine(page, `me too :${CODE}:`);
    await page.getByText(fill(MSG.emoteForSubscribers, { name: 'broadcaster1', code: CODE })).first().waitFor({ timeout: 10_000 });
    expect(viewer.errors).toEqual([]);
  });
});
