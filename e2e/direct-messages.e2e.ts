/**
 * Journey: direct messages (decision 0086). viewer1 opens broadcaster1's profile, presses Message and
 * writes; broadcaster1's top bar counts the message without a reload, their Messages page lists the
 * conversation and opening it clears the count; viewer1's page shows Seen under the message, then
 * "broadcaster1 is typing…", then the reply, live. viewer1 finds the conversation by name; broadcaster1
 * reports the message and, from the settings, takes messages from followers only, which viewer2 is then told.
 * On a phone the page shows the list or the conversation, with a way back.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { fill, MSG } from '../common/messages';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';

const openAppPage = useAppInBrowser();
const step = journeySteps();

const FIRST = 'Loved the show tonight!';
const REPLY = 'Thank you for watching! See you on Friday.';
const PHONE = { width: 390, height: 844 };

/** The top bar's envelope, named by its unread count. */
const envelope = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Messages/ });
const conversations = (page: Page) => page.getByRole('list', { name: 'Conversations' });
const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('textbox', { name: /^Message to / });

describe('direct messages', () => {
  let viewer: TestPage;
  let broadcaster: TestPage;
  let broadcasterId = '';

  step('broadcaster1 is on the home page; viewer1 finds their profile and presses Message', async () => {
    broadcaster = await openAppPage();
    await signInAt(broadcaster.page, 'broadcaster1', '/');
    await envelope(broadcaster.page).waitFor();
    expect(await envelope(broadcaster.page).getAttribute('aria-label')).toBe('Messages');

    viewer = await openAppPage();
    const { page } = viewer;
    await signInAt(page, 'viewer1', '/channel/search?search=broadcaster1');
    await page.getByRole('list', { name: 'People' }).getByRole('article', { name: 'broadcaster1', exact: true }).getByRole('link').click();
    await page.waitForURL(/\/u\/\d+$/);
    broadcasterId = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByRole('heading', { name: '@broadcaster1' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Message', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/messages' && url.searchParams.get('with') === broadcasterId);
    await page.getByRole('region', { name: 'Conversation with broadcaster1' }).getByText(MSG.noMessagesYet).waitFor();
    await conversations(page).or(page.getByText(MSG.noConversations)).first().waitFor();
    await screenshot(page, 'dm-new-conversation');
  });

  step('viewer1 writes and sends with Enter', async () => {
    const { page } = viewer;
    await composer(page).fill(FIRST);
    const sent = page.waitForResponse((r) => r.url().includes('/api/messages/send'));
    await composer(page).press('Enter');
    expect((await sent).ok()).toBe(true);
    await messages(page).getByText(FIRST).waitFor();
    expect(await composer(page).inputValue()).toBe('');
    // The conversation joins the list, on top.
    await conversations(page).getByRole('link', { name: /broadcaster1/ }).getByText(FIRST).waitFor();
    await screenshot(page, 'dm-sent');
  });

  step('broadcaster1’s envelope counts it without a reload; the conversation opens from Messages and the count clears', async () => {
    const { page } = broadcaster;
    await expect.poll(() => envelope(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Messages, 1 unread');
    expect(await page.getByTestId('messages-badge').textContent()).toBe('1');
    await screenshot(page, 'dm-unread-badge');

    await envelope(page).click();
    await page.waitForURL('**/messages');
    const row = conversations(page).getByRole('link', { name: /viewer1/ });
    await row.getByText(FIRST).waitFor();
    await row.getByText('1 unread').waitFor();
    await screenshot(page, 'dm-inbox');

    await row.click();
    await messages(page).getByText(FIRST).waitFor();
    await expect.poll(() => envelope(page).getAttribute('aria-label')).toBe('Messages');
    expect(await page.getByTestId('messages-badge').count()).toBe(0);
    await expect.poll(() => row.getByText('1 unread').count()).toBe(0);
    await screenshot(page, 'dm-thread-read');
  });

  step('viewer1 sees Seen under the message, then broadcaster1 typing, then the reply, live', async () => {
    const seen = messages(viewer.page).getByRole('listitem').filter({ hasText: FIRST }).getByText(MSG.messageSeen, { exact: true });
    await seen.waitFor({ timeout: 15_000 });
    await screenshot(viewer.page, 'dm-seen');

    const typing = viewer.page.getByRole('status').filter({ hasText: fill(MSG.memberTyping, { name: 'broadcaster1' }) });
    await composer(broadcaster.page).pressSequentially('Thank you', { delay: 40 });
    await typing.waitFor({ timeout: 15_000 });
    await screenshot(viewer.page, 'dm-typing');

    await composer(broadcaster.page).fill(REPLY);
    await broadcaster.page.getByRole('button', { name: 'Send' }).click();
    await messages(broadcaster.page).getByText(REPLY).waitFor();
    await messages(viewer.page).getByText(REPLY).waitFor({ timeout: 15_000 });
    // The reply ends the typing; Seen moved to broadcaster1's page, under their reply, as viewer1 has the conversation open.
    await typing.waitFor({ state: 'detached' });
    await messages(broadcaster.page).getByRole('listitem').filter({ hasText: REPLY }).getByText(MSG.messageSeen, { exact: true }).waitFor({ timeout: 15_000 });
    await expect.poll(() => envelope(viewer.page).getAttribute('aria-label')).toBe('Messages');
    // The reply is on the left of viewer1's page, their own message on the right.
    const [mine, theirs] = await Promise.all([
      messages(viewer.page).getByRole('listitem').filter({ hasText: FIRST }).boundingBox(),
      messages(viewer.page).getByRole('listitem').filter({ hasText: REPLY }).boundingBox(),
    ]);
    expect(mine!.x).toBeGreaterThan(theirs!.x);
    await screenshot(viewer.page, 'dm-reply');
    await screenshot(broadcaster.page, 'dm-replied');
  });

  step('viewer1 finds the conversation by the start of the name', async () => {
    const { page } = viewer;
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('zz');
    await page.getByText('No conversation with a name starting “zz”.').waitFor();
    await search.fill('BROAD');
    await conversations(page).getByRole('link', { name: /broadcaster1/ }).waitFor();
    expect(await conversations(page).getByRole('listitem').count()).toBe(1);
    await screenshot(page, 'dm-search');
  });

  step('broadcaster1 reports viewer1’s message', async () => {
    const { page } = broadcaster;
    const received = messages(page).getByRole('listitem').filter({ hasText: FIRST });
    await received.hover();
    await received.getByRole('button', { name: 'Report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report Message' });
    await dialog.getByLabel('Reason').selectOption('troll');
    await screenshot(page, 'dm-report');
    const reported = page.waitForResponse((r) => r.url().includes('/api/messages/report'));
    await dialog.getByRole('button', { name: 'Submit' }).click();
    expect((await reported).ok()).toBe(true);
    await page.getByText(MSG.messageReported).first().waitFor();
    await received.getByText('Reported').waitFor();
  });

  step('on a phone: the list, or the conversation with a way back', async () => {
    const { page } = broadcaster;
    await page.setViewportSize(PHONE);
    await messages(page).getByText(REPLY).waitFor();
    expect(await conversations(page).isVisible()).toBe(false);
    // The top bar keeps every control, the envelope too, at a usable width.
    const widths = await page.getByRole('banner').locator('a, button').evaluateAll((controls) => controls.map((c) => [c.getAttribute('aria-label') ?? c.textContent, c.getBoundingClientRect().width] as const));
    expect(widths.filter(([, width]) => width > 0 && width < 24)).toEqual([]);
    await screenshot(page, 'dm-phone-thread');
    await page.getByRole('link', { name: 'Back to conversations' }).click();
    await page.waitForURL((url) => url.pathname === '/messages' && !url.search);
    await conversations(page).getByRole('link', { name: /viewer1/ }).waitFor();
    expect(await messages(page).count()).toBe(0);
    await screenshot(page, 'dm-phone-list');
    await page.setViewportSize({ width: 1366, height: 860 });
  });

  step('broadcaster1 takes messages from followers only; viewer2, who does not follow, is told so instead of a composer', async () => {
    const { page } = broadcaster;
    await page.goto('/user/settings');
    const form = page.getByRole('form', { name: 'Who can message you' });
    await form.getByRole('radio', { name: /Followers/ }).check();
    const saved = page.waitForResponse((r) => r.url().includes('/api/messages/save-settings'));
    await form.getByRole('button', { name: 'Save' }).click();
    // The other setting goes with it as it was: left out, messages to many would be turned back on.
    expect((await saved).request().postDataJSON()).toEqual({ audience: 'followers', bulk: true });
    await page.getByText(MSG.messageSettingsSaved).first().waitFor();
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'dm-settings');

    const other = await openAppPage();
    await signInAt(other.page, 'viewer2', `/messages?with=${broadcasterId}`);
    await other.page.getByText(fill(MSG.messagesFromFollowers, { name: 'broadcaster1' })).waitFor();
    expect(await composer(other.page).count()).toBe(0);
    await screenshot(other.page, 'dm-refused');
    expect(other.errors).toEqual([]);
    expect(viewer.errors).toEqual([]);
    expect(broadcaster.errors).toEqual([]);
  });
});
