/**
 * Journey: a channel's moderators. On the dashboard the broadcaster appoints a viewer as moderator and has
 * links held for a moderator; live, the moderator turns on slow mode from the stream's chat; a viewer's
 * link is held (they are told it waits, nobody else sees it) and their next line is refused by the slow
 * mode; the moderator approves the held line, which everyone then sees, and deletes it again from the
 * line's menu, which takes it off everyone's chat.
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

const TITLE = 'E2E chat moderators';
const LINK_LINE = 'Look at www.example.com';
const rules = (page: Page) => page.getByRole('form', { name: 'Chat rules' });

async function watch(page: Page, username: string, streamPath: string) {
  await signInAt(page, username, '/');
  await page.goto(streamPath);
  await page.getByRole('heading', { name: TITLE }).waitFor();
  await badge(page, 'LIVE').waitFor();
}

describe('chat moderators', () => {
  let broadcaster: TestPage;
  let moderator: TestPage;
  let viewer: TestPage;
  let streamPath = '';

  step('the broadcaster appoints a moderator and has links held for one', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/dashboard');
    await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
    await saveBroadcastTitle(page, TITLE);
    const add = page.getByRole('form', { name: 'Add a chat moderator' });
    await add.getByLabel('Username').fill('viewer2');
    await add.getByRole('button', { name: 'Add moderator' }).click();
    await page.getByRole('list', { name: 'Chat moderators' }).getByText('@viewer2').waitFor();
    await rules(page).getByLabel('Block links in the chat').check();
    await rules(page).getByLabel('A message with a link or a blocked word').selectOption('hold');
    await rules(page).getByRole('button', { name: 'Save chat rules' }).click();
    await page.getByText(MSG.chatRulesSaved).first().waitFor();
    await add.scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-moderators-editor');
    const onAir = await goLiveAndPublish(page);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
  });

  step('the moderator turns on slow mode from the stream’s chat', async () => {
    moderator = await openAppPage();
    const { page } = moderator;
    await watch(page, 'viewer2', streamPath);
    await page.getByRole('button', { name: 'Chat rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Chat rules' });
    await dialog.getByLabel('Slow mode').selectOption('30');
    await dialog.getByRole('button', { name: 'Save chat rules' }).click();
    await page.getByText(MSG.chatRulesSaved).first().waitFor();
    await dialog.waitFor({ state: 'detached' });
  });

  step('a viewer’s link waits for a moderator, and their next line is held to the slow mode', async () => {
    viewer = await openAppPage();
    const { page } = viewer;
    await watch(page, 'viewer1', streamPath);
    await sendChatLine(page, LINK_LINE);
    await page.getByText(MSG.chatHeld).first().waitFor({ timeout: 10_000 });
    await sendChatLine(page, 'Hello again right away');
    await page.getByText(fill(MSG.chatSlowMode, { seconds: 30 })).first().waitFor({ timeout: 10_000 });

    const held = moderator.page.getByRole('region', { name: 'Held for review' });
    await held.getByText(LINK_LINE).waitFor({ timeout: 15_000 });
    await screenshot(moderator.page, 'chat-moderation-held');
    expect(await chatLog(broadcaster.page).getByText(LINK_LINE).count()).toBe(0);
    expect(await chatLog(page).getByText(LINK_LINE).count()).toBe(0);
  });

  step('the moderator approves the line for everyone, then deletes it from everyone’s chat', async () => {
    const { page } = moderator;
    await page.getByRole('button', { name: `Approve: ${LINK_LINE}` }).click();
    await page.getByRole('region', { name: 'Held for review' }).waitFor({ state: 'detached' });
    await chatLog(viewer.page).getByText(LINK_LINE, { exact: true }).waitFor({ timeout: 15_000 });
    await chatLog(broadcaster.page).getByText(LINK_LINE, { exact: true }).waitFor({ timeout: 15_000 });

    await chatLog(page).getByRole('button', { name: /^Actions for / }).first().click();
    await page.getByRole('menuitem', { name: 'Delete message' }).click();
    await chatLog(viewer.page).getByText(LINK_LINE, { exact: true }).waitFor({ state: 'detached', timeout: 15_000 });
    await chatLog(page).getByText(LINK_LINE, { exact: true }).waitFor({ state: 'detached', timeout: 15_000 });
    await screenshot(viewer.page, 'chat-moderation-deleted');
    expect(viewer.errors).toEqual([]);
    expect(moderator.errors).toEqual([]);
  });
});
