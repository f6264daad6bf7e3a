/**
 * Journey: two viewers and the broadcaster chat on a live stream, a viewer likes it, the broadcaster
 * switches chat off and on, a guest reads along, a viewer's socket is told the server is restarting and the
 * chat catches up on what was said meanwhile, the stream ends and the rating wall asks for stars.
 */
import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { SERVER_RESTARTING } from '../common/realtime-channels';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { signInAt } from './support/app';
import { journeySteps, openTab, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, broadcastAs, chatInput, chatLog, videoTime } from './support/live';

// A short grace window, so the stream ends soon after the encoder stops.
const openAppPage = useAppInBrowser({ media: true, env: () => ({ RTMP_GRACE_MS: '1500' }) });
/** One journey: each step builds on the one before (see journeySteps). */
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'E2E chat show';
const DESKTOP = { width: 1366, height: 860 };
const PHONE = { width: 390, height: 844 };


/** The chat line saying `text`, sent by `name`. */
function chatLine(page: Page, name: string, text: string) {
  return chatLog(page)
    .locator('div')
    .filter({ has: page.getByText(name, { exact: true }) })
    .filter({ has: page.getByText(text, { exact: true }) })
    .last();
}

/** Types a line once the chat has joined (Send turns on only then) and sends it with Enter or the Send button. */
async function say(page: Page, text: string, how: 'Enter' | 'Send') {
  await chatInput(page).fill(text);
  const send = page.getByRole('button', { name: 'Send' });
  await expect.poll(() => send.isEnabled(), { timeout: 15_000 }).toBe(true);
  if (how === 'Enter') await chatInput(page).press('Enter');
  else await send.click();
  // The server took it: the input empties.
  await expect.poll(() => chatInput(page).inputValue(), { timeout: 10_000 }).toBe('');
}

/** Hearts floating over the player (each like is one heart for 2.4 s). */
const hearts = (page: Page) => page.locator('#stream-chat-overlay span[style*="--drift"]');

async function watchLive(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('heading', { name: TITLE }).waitFor();
  await badge(page, 'LIVE').waitFor();
  await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(0.5);
}

const HELLO = 'Hello everyone!';
const ANSWER = 'Hey there, <b>bold</b> hello';
const OWNER = 'Welcome both of you, thanks for coming';
const AWAY_1 = 'Said while viewer1 was reconnecting';
const AWAY_2 = 'And the broadcaster said this too';

describe('chat on a live stream', () => {
  let broadcaster: TestPage;
  /** The broadcaster's second tab: the stream page, as its owner sees it. */
  let ownerView: Page;
  let viewer1: TestPage;
  let viewer2: TestPage;
  let streamPath = '';

  step('goes live from the dashboard; the broadcaster and two viewers open the stream page', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    const onAir = await broadcastAs(page, TITLE);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
    expect(streamPath).toMatch(/^\/streams\/stream-view\?id=\d+$/);

    [viewer1, viewer2] = await Promise.all([openAppPage(), openAppPage()]);
    await Promise.all([signInAt(viewer1.page, 'viewer1', streamPath), signInAt(viewer2.page, 'viewer2', streamPath)]);
    ownerView = await openTab(broadcaster);
    await Promise.all([watchLive(ownerView, streamPath), watchLive(viewer1.page, streamPath), watchLive(viewer2.page, streamPath)]);
    // Four pages and an encoder start here: on a loaded 2-core machine that alone can take a minute.
  }, 120_000);

  step('carries lines between the viewers and the broadcaster, with names, the Streamer mark and markup as text', async () => {
    // viewer1 types and presses Enter: everyone's chat log shows it under viewer1's name.
    await say(viewer1.page, HELLO, 'Enter');
    for (const page of [viewer1.page, viewer2.page, ownerView]) await chatLine(page, 'viewer1', HELLO).waitFor();

    // viewer2 answers with the Send button; the markup shows as typed.
    await say(viewer2.page, ANSWER, 'Send');
    for (const page of [viewer1.page, viewer2.page, ownerView]) await chatLine(page, 'viewer2', ANSWER).waitFor();
    expect(await chatLog(viewer1.page).locator('b').count()).toBe(0);

    // The broadcaster answers from the stream page: viewers see the owner mark.
    await say(ownerView, OWNER, 'Enter');
    for (const page of [viewer1.page, viewer2.page]) {
      const line = chatLine(page, 'broadcaster1', OWNER);
      await line.waitFor();
      await line.getByText('Streamer', { exact: true }).waitFor();
    }
    // Viewers' lines carry no owner mark.
    expect(await chatLine(viewer2.page, 'viewer1', HELLO).getByText('Streamer', { exact: true }).count()).toBe(0);

    // Mid-animation: the last lines float over the video for 5 s.
    await screenshot(viewer2.page, 'chat-three-participants', { animations: 'allow' });
    await screenshot(ownerView, 'chat-owner-view');
    await viewer1.page.setViewportSize(PHONE);
    await chatLine(viewer1.page, 'broadcaster1', OWNER).scrollIntoViewIfNeeded();
    await screenshot(viewer1.page, 'chat-narrow');
    // Scrolled down to the chat's input row, as a phone user writing would be.
    await viewer1.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await screenshot(viewer1.page, 'chat-narrow-input');
    await viewer1.page.setViewportSize(DESKTOP);
  });

  step('floats hearts for the others when a viewer likes; the owner has no Like button', async () => {
    await ownerView.getByRole('button', { name: 'Send' }).waitFor();
    expect(await ownerView.getByRole('button', { name: 'Like' }).count()).toBe(0);

    const like = viewer1.page.getByRole('button', { name: 'Like' });
    for (let i = 0; i < 3; i++) await like.click();
    // Each heart lives 2.4 s: poll soon and often.
    await Promise.all([viewer2.page, ownerView].map((page) => expect.poll(() => hearts(page).count(), { timeout: 5_000, interval: 100 }).toBeGreaterThan(0)));
    // One more like, shot once its heart has faded in (hearts start transparent and small).
    await like.click();
    await viewer2.page.waitForFunction(() => [...document.querySelectorAll('#stream-chat-overlay span[style*="--drift"]')].some((h) => Number(getComputedStyle(h).opacity) > 0.9), undefined, { timeout: 5_000 });
    await screenshot(viewer2.page, 'chat-hearts', { animations: 'allow' });
    expect(await viewer1.page.getByText(MSG.likeLimit).count()).toBe(0);
  });

  step('switches chat off and on again from the dashboard', async () => {
    const chat = broadcaster.page.getByRole('switch', { name: 'Chat' });
    expect(await chat.getAttribute('aria-checked')).toBe('true');
    await chat.click();
    await expect.poll(() => chat.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('false');

    const note = viewer1.page.getByRole('status').filter({ hasText: MSG.chatDisabled });
    await note.waitFor({ timeout: 15_000 });
    await expect.poll(() => chatInput(viewer1.page).isDisabled(), { timeout: 10_000 }).toBe(true);
    expect(await chatInput(viewer1.page).getAttribute('placeholder')).toBe('Chat unavailable');
    await screenshot(viewer1.page, 'chat-disabled');

    await expect.poll(() => chat.isEnabled(), { timeout: 10_000 }).toBe(true);
    await chat.click();
    await expect.poll(() => chat.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('true');
    await note.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => chatInput(viewer1.page).isEnabled(), { timeout: 10_000 }).toBe(true);
    await chatLog(viewer1.page).getByText('Chat is enabled.').waitFor();
  });

  step('shows a guest the chat so far; writing asks the guest to log in', async () => {
    const guest = await openAppPage(PHONE);
    await guest.page.goto(streamPath);
    await badge(guest.page, 'LIVE').waitFor();
    await chatLine(guest.page, 'viewer1', HELLO).waitFor();
    await chatLine(guest.page, 'viewer2', ANSWER).waitFor();
    await chatLine(guest.page, 'broadcaster1', OWNER).getByText('Streamer', { exact: true }).waitFor();
    expect(await chatInput(guest.page).getAttribute('placeholder')).toBe('Log in to chat');

    await chatInput(guest.page).click();
    const prompt = guest.page.getByRole('dialog', { name: 'Need Full Access?' });
    await prompt.waitFor();
    await prompt.getByRole('link', { name: 'Sign In' }).waitFor();
    await screenshot(guest.page, 'chat-guest-login-prompt-narrow');
    await guest.page.keyboard.press('Escape');
    await prompt.waitFor({ state: 'detached' });
    expect(guest.errors).toEqual([]);
    await guest.context.close();
  });

  step('tells a viewer the server is restarting: it reconnects and the chat shows the lines sent meanwhile', async () => {
    const { page } = viewer1;
    const connections: WebSocketRoute[] = [];
    const fromPage: string[] = [];
    let release = () => {};
    await page.routeWebSocket(/\/ws(\?|$)/, (ws) => {
      connections.push(ws);
      if (connections.length !== 2) return void ws.connectToServer();
      // The socket after the restart reaches the server only once the others have chatted: it has to ask for what it missed.
      const held: string[] = [];
      ws.onMessage((frame) => {
        fromPage.push(String(frame));
        held.push(String(frame));
      });
      release = () => {
        const server = ws.connectToServer();
        ws.onMessage((frame) => {
          fromPage.push(String(frame));
          server.send(frame);
        });
        for (const frame of held.splice(0)) server.send(frame);
      };
    });
    await page.reload();
    await chatLine(page, 'broadcaster1', OWNER).waitFor({ timeout: 20_000 });

    await connections[0]!.close({ code: SERVER_RESTARTING.code, reason: SERVER_RESTARTING.reason });
    await expect.poll(() => connections.length, { timeout: 10_000 }).toBe(2);
    await say(viewer2.page, AWAY_1, 'Enter');
    await say(ownerView, AWAY_2, 'Send');
    await chatLine(viewer2.page, 'broadcaster1', AWAY_2).waitFor();
    expect(await chatLog(page).getByText(AWAY_1, { exact: true }).count()).toBe(0);

    release();
    await chatLine(page, 'viewer2', AWAY_1).waitFor({ timeout: 15_000 });
    await chatLine(page, 'broadcaster1', AWAY_2).waitFor();
    const resubscribed = fromPage.map((raw) => JSON.parse(raw) as { op: string; after?: unknown }).find((frame) => frame.op === 'subscribe' && frame.after);
    expect(resubscribed?.after).toMatchObject({ comment: expect.stringMatching(/^\d+$/), tip: expect.stringMatching(/^\d+$/) });
    // Once each, in the order they were said.
    const log = await chatLog(page).innerText();
    expect(log.split(AWAY_1)).toHaveLength(2);
    expect(log.indexOf(AWAY_1)).toBeLessThan(log.indexOf(AWAY_2));
    await screenshot(page, 'chat-caught-up-after-restart');
  });

  step('ends the stream when the encoder stops: viewers meet the rating wall and rate', async () => {
    await viewer2.page.setViewportSize(PHONE);
    await publisher?.stop();
    publisher = undefined;

    // STREAM-END over the socket: a line in every chat, the wall for the signed-in viewers.
    for (const page of [viewer1.page, viewer2.page, ownerView]) await chatLog(page).getByText('The stream has ended.').waitFor({ timeout: 30_000 });
    const wall = viewer1.page.getByRole('region', { name: MSG.streamEndedTitle });
    await wall.waitFor();
    const stars = wall.getByRole('radiogroup', { name: 'Rate this stream' });
    expect(await stars.getByRole('radio').count()).toBe(5);
    await wall.getByRole('button', { name: 'Finished' }).waitFor();
    await wall.getByRole('button', { name: 'Watch Again' }).waitFor();
    await screenshot(viewer1.page, 'rating-wall');
    await viewer2.page.getByRole('region', { name: MSG.streamEndedTitle }).waitFor();
    await screenshot(viewer2.page, 'rating-wall-narrow');

    // The owner is not asked to rate their own stream.
    await ownerView.getByRole('button', { name: 'Watch Again' }).waitFor();
    expect(await ownerView.getByRole('region', { name: MSG.streamEndedTitle }).count()).toBe(0);

    await stars.getByRole('radio', { name: '4 stars' }).check();
    expect(await stars.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
    await wall.getByRole('button', { name: 'Finished' }).click();
    await wall.waitFor({ state: 'detached' });
    await viewer1.page.getByRole('button', { name: 'Watch Again' }).waitFor();
    await badge(viewer1.page, 'REPLAY').waitFor({ timeout: 15_000 });
    await screenshot(viewer1.page, 'rating-wall-finished');

    expect([...broadcaster.errors, ...viewer1.errors, ...viewer2.errors]).toEqual([]);
    await Promise.all([broadcaster.context.close(), viewer1.context.close(), viewer2.context.close()]);
  });
});
