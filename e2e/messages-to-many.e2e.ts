/**
 * Journey: messages to many (decision 0086). viewer1 and viewer2 follow broadcaster1 from the profile;
 * viewer1 turns off messages to many in the settings. broadcaster1 opens Messages, "Message many", and
 * writes to their followers: the page says it is on its way, and the entry under "Sent to many" turns
 * Delivered with one delivery. viewer2's envelope counts it without a reload and the message is in their
 * conversation with broadcaster1; viewer1 gets nothing. Once viewer2 read it, the entry counts one read.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';

const openAppPage = useAppInBrowser();
const step = journeySteps();

const TEXT = 'Thank you all for 1,000 followers!';
const QUEUED = 'Your message is on its way to your followers.';
const PHONE = { width: 390, height: 844 };

const envelope = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Messages/ });
const conversations = (page: Page) => page.getByRole('list', { name: 'Conversations' });
const panel = (page: Page) => page.getByRole('region', { name: 'Message your fans' });
const sentEntry = (page: Page) => panel(page).getByRole('list', { name: 'Sent to many' }).getByRole('listitem').filter({ hasText: TEXT });

/** Signs `username` in on broadcaster1's profile and follows them there. */
async function followBroadcaster1(page: Page, username: string): Promise<void> {
  await signInAt(page, username, '/channel/search?search=broadcaster1');
  await page.getByRole('list', { name: 'People' }).getByRole('article', { name: 'broadcaster1', exact: true }).getByRole('link').click();
  await page.waitForURL(/\/u\/\d+$/);
  await page.getByRole('heading', { name: '@broadcaster1' }).waitFor();
  const followed = page.waitForResponse((r) => r.url().includes('/api/user/toggle-following') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  expect((await followed).ok()).toBe(true);
  await page.getByRole('button', { name: 'Following', exact: true }).waitFor();
}

describe('messages to many', () => {
  let viewer1: TestPage;
  let viewer2: TestPage;
  let broadcaster: TestPage;

  step('viewer1 and viewer2 follow broadcaster1; viewer1 turns off messages to many', async () => {
    viewer2 = await openAppPage();
    await followBroadcaster1(viewer2.page, 'viewer2');
    await envelope(viewer2.page).waitFor();
    expect(await envelope(viewer2.page).getAttribute('aria-label')).toBe('Messages');

    viewer1 = await openAppPage();
    const { page } = viewer1;
    await followBroadcaster1(page, 'viewer1');
    await page.goto('/user/settings');
    const form = page.getByRole('form', { name: 'Who can message you' });
    const bulk = form.getByRole('switch', { name: 'Receive messages creators send to all their followers or subscribers' });
    expect(await bulk.getAttribute('aria-checked')).toBe('true');
    await bulk.click();
    expect(await bulk.getAttribute('aria-checked')).toBe('false');
    const saved = page.waitForResponse((r) => r.url().includes('/api/messages/save-settings'));
    await form.getByRole('button', { name: 'Save' }).click();
    const answer = await saved;
    expect(answer.ok()).toBe(true);
    // The audience went with it, unchanged.
    expect(answer.request().postDataJSON()).toEqual({ audience: 'everyone', bulk: false });
    await page.getByText(MSG.messageSettingsSaved).first().waitFor();
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'many-settings-off');
    await page.reload();
    expect(await page.getByRole('form', { name: 'Who can message you' }).getByRole('switch').getAttribute('aria-checked')).toBe('false');
  });

  step('broadcaster1 opens Messages, then "Message many": whom to, a plan for subscribers, the text', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/messages');
    await page.getByText(MSG.noConversations).waitFor();
    await page.getByRole('link', { name: 'Message many' }).click();
    await page.waitForURL((url) => url.pathname === '/messages' && url.searchParams.get('to') === 'many');
    await panel(page).getByText('Nothing sent to many yet.').waitFor();

    // Subscribers may be narrowed to a plan: every plan unless one is chosen.
    await panel(page).getByRole('radio', { name: /Subscribers/ }).check();
    const plan = panel(page).getByRole('combobox', { name: 'Plan' });
    await plan.waitFor();
    expect(await plan.inputValue()).toBe('');
    await panel(page).getByRole('radio', { name: /Followers/ }).check();
    expect(await plan.count()).toBe(0);
    await panel(page).getByRole('textbox', { name: 'Message' }).fill(TEXT);
    await screenshot(page, 'many-compose');
  });

  step('broadcaster1 sends: the page says it is on its way; the entry turns Delivered with one delivery', async () => {
    const { page } = broadcaster;
    const sent = page.waitForResponse((r) => r.url().includes('/api/messages/send-to-many'));
    await panel(page).getByRole('button', { name: 'Send' }).click();
    const answer = await sent;
    expect(answer.ok()).toBe(true);
    const asked = answer.request().postDataJSON() as Record<string, unknown>;
    expect(asked).toMatchObject({ audience: 'followers', text: TEXT });
    expect(asked).not.toHaveProperty('plan_id');
    await panel(page).getByRole('status').filter({ hasText: QUEUED }).waitFor();
    expect(await panel(page).getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
    await sentEntry(page).waitFor();
    await sentEntry(page).getByText('Followers', { exact: true }).waitFor();
    await screenshot(page, 'many-queued');

    // The list is read again while it is sending (every 3 s), without a reload.
    await sentEntry(page).getByText('Delivered', { exact: true }).waitFor({ timeout: 30_000 });
    await sentEntry(page).getByText('1 delivered', { exact: true }).waitFor();
    await sentEntry(page).getByText('0 read', { exact: true }).waitFor();
    // The conversation it started joins broadcaster1's list.
    await conversations(page).getByRole('link', { name: /viewer2/ }).getByText(TEXT).waitFor({ timeout: 15_000 });
    expect(await conversations(page).getByRole('link', { name: /viewer1/ }).count()).toBe(0);
    await screenshot(page, 'many-delivered');
  });

  step('viewer2’s envelope counts it without a reload; the message is in their conversation with broadcaster1', async () => {
    const { page } = viewer2;
    await expect.poll(() => envelope(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Messages, 1 unread');
    expect(await page.getByTestId('messages-badge').textContent()).toBe('1');
    await screenshot(page, 'many-follower-badge');

    await envelope(page).click();
    await page.waitForURL('**/messages');
    const row = conversations(page).getByRole('link', { name: /broadcaster1/ });
    await row.getByText(TEXT).waitFor();
    await row.getByText('1 unread').waitFor();
    await row.click();
    await page.getByRole('list', { name: 'Messages' }).getByText(TEXT).waitFor();
    await expect.poll(() => envelope(page).getAttribute('aria-label')).toBe('Messages');
    // A creator may write to a follower: viewer2 can answer.
    await page.getByRole('textbox', { name: 'Message to broadcaster1' }).waitFor();
    await screenshot(page, 'many-follower-thread');
  });

  step('viewer1, who turned messages to many off, got nothing', async () => {
    const { page } = viewer1;
    await page.goto('/messages');
    await page.getByText(MSG.noConversations).waitFor();
    expect(await envelope(page).getAttribute('aria-label')).toBe('Messages');
  });

  step('broadcaster1 sees it read; on a phone the panel comes with a way back to the list', async () => {
    const { page } = broadcaster;
    await page.reload();
    await sentEntry(page).getByText('1 read', { exact: true }).waitFor();
    await page.setViewportSize(PHONE);
    expect(await conversations(page).isVisible()).toBe(false);
    await screenshot(page, 'many-phone');
    await page.getByRole('link', { name: 'Back to conversations' }).click();
    await page.waitForURL((url) => url.pathname === '/messages' && !url.search);
    await conversations(page).getByRole('link', { name: /viewer2/ }).waitFor();
    await page.setViewportSize({ width: 1366, height: 860 });
    expect(broadcaster.errors).toEqual([]);
    expect(viewer1.errors).toEqual([]);
    expect(viewer2.errors).toEqual([]);
  });
});
