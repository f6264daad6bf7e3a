/**
 * Journey: a broadcaster's chat rules. On the dashboard they turn on slow mode and block a word; live, a
 * viewer's first line goes through, a line with the blocked word is refused with the rule's text and is
 * seen by no one, and a second line inside the slow mode's wait is refused with the wait; the broadcaster
 * is never held.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { fill, MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, chatLog, goLiveAndPublish, saveBroadcastTitle, sendChatLine } from './support/live';

const openAppPage = useAppInBrowser({ media: true });
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'E2E chat rules';
const rules = (page: Page) => page.getByRole('form', { name: 'Chat rules' });

describe('chat rules', () => {
  let broadcaster: TestPage;
  let viewer: TestPage;

  step('the broadcaster turns on slow mode and blocks a word', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/dashboard');
    await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
    await saveBroadcastTitle(page, TITLE);
    await rules(page).getByLabel('Slow mode').selectOption('30');
    await rules(page).getByLabel('Blocked words').fill('spoiler, plot twist');
    await rules(page).getByRole('button', { name: 'Save chat rules' }).click();
    await page.getByText(MSG.chatRulesSaved).first().waitFor();
    expect(await rules(page).getByLabel('Blocked words').inputValue()).toBe('spoiler\nplot twist');
    await rules(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-rules-editor');
  });

  step('live, a viewer’s line goes through; a blocked word and a line inside the wait are refused', async () => {
    const onAir = await goLiveAndPublish(broadcaster.page);
    publisher = onAir.publisher;
    viewer = await openAppPage();
    const { page } = viewer;
    await signInAt(page, 'viewer1', '/');
    await page.goto(onAir.streamPath);
    await page.getByRole('heading', { name: TITLE }).waitFor();
    await badge(page, 'LIVE').waitFor();

    await sendChatLine(page, 'No SPOILER here, right?');
    await page.getByText(MSG.chatBlockedWord).first().waitFor({ timeout: 10_000 });
    await sendChatLine(page, 'Hello from the front row');
    await chatLog(page).getByText('Hello from the front row', { exact: true }).waitFor();
    await chatLog(broadcaster.page).getByText('Hello from the front row', { exact: true }).waitFor({ timeout: 15_000 });
    await sendChatLine(page, 'And again!');
    await page.getByText(fill(MSG.chatSlowMode, { seconds: 30 })).first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'chat-rules-slow-mode');
    // Nobody saw the refused lines.
    expect(await chatLog(broadcaster.page).getByText('No SPOILER here, right?').count()).toBe(0);
    expect(await chatLog(broadcaster.page).getByText('And again!').count()).toBe(0);
  });

  step('the broadcaster is never held', async () => {
    const { page } = broadcaster;
    for (const line of ['Welcome!', 'Second line at once, spoiler-free']) {
      await sendChatLine(page, line);
      await chatLog(viewer.page).getByText(line, { exact: true }).waitFor({ timeout: 15_000 });
    }
    expect(viewer.errors).toEqual([]);
  });
});
