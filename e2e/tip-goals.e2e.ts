/**
 * Journey: tip goals. The broadcaster queues two goals on the dashboard before going live (a row left
 * incomplete is refused under its field); a viewer of the live stream sees the first goal's bar under
 * the player and over the chat, and tips fill it on both pages without a reload; reaching it is
 * announced in both chats, said by no one, and the bar moves on to the second goal with the coins that
 * went past; on a phone the one bar sits under the video with the chat input still on the first screen;
 * after the show the replay lists the broadcast's goals with the reached one marked.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { fill, MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, endStreamFromStudio, goLiveAndPublish, saveBroadcastTitle, videoTime, viewerWithCoinsAt } from './support/live';

const openAppPage = useAppInBrowser({ media: true });
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'E2E tip goals';
const PHONE = { width: 390, height: 844 };
const FIRST = { coins: 30, description: 'New song' };
const SECOND = { coins: 50, description: 'Q&A' };

const editor = (page: Page) => page.getByRole('form', { name: 'Goals to come' });
const goalRow = (page: Page, n: number) => editor(page).getByRole('group', { name: `Goal ${n}`, exact: true });
const goalBars = (page: Page, description: string) => page.getByRole('progressbar', { name: `Tip goal: ${description}`, exact: true });
const chatLog = (page: Page) => page.getByRole('region', { name: 'Live chat' }).getByRole('log', { name: 'Chat' });
const reachedLine = (page: Page, description: string) => chatLog(page).getByText(fill(MSG.goalReached, { description }), { exact: true });

/** Every bar of that goal shows `raised` coins (under the player and over the chat, or the editor's). */
async function barsShow(bars: Locator, raised: number, amount: number) {
  await expect.poll(async () => (await bars.evaluateAll((all) => all.map((bar) => bar.getAttribute('aria-valuenow')))).join(','), { timeout: 15_000 }).toMatch(new RegExp(`^${raised}(,${raised})*$`));
  expect(await bars.first().getAttribute('aria-valuemax')).toBe(String(amount));
}

/** A quick tip from the Tip button's list; the first of the session asks to be confirmed. */
async function tipFromSelector(page: Page, coins: number, { confirm }: { confirm: boolean }) {
  await page.mouse.move(0, 0);
  await page.getByRole('button', { name: 'Tip', exact: true }).hover();
  const amounts = page.getByRole('dialog').filter({ hasText: 'Send a tip' });
  await amounts.waitFor();
  await amounts.getByRole('button', { name: `${coins} Coins` }).click();
  if (!confirm) return;
  const dialog = page.getByRole('dialog', { name: 'Send a Tip' });
  await dialog.getByRole('button', { name: 'Confirm Tip' }).click();
  await dialog.waitFor({ state: 'detached', timeout: 15_000 });
}

async function fillGoal(page: Page, n: number, coins: string, description: string) {
  const row = goalRow(page, n);
  await row.getByLabel('Coins').fill(coins);
  await row.getByLabel('Description').fill(description);
}

describe('tip goals', () => {
  let broadcaster: TestPage;
  let viewer: TestPage;
  let streamPath = '';

  step('the broadcaster queues two goals before going live; a row left incomplete is refused under its field', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/dashboard');
    await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
    await saveBroadcastTitle(page, TITLE);

    await editor(page).getByText('No goals to come.', { exact: false }).waitFor();
    await editor(page).getByRole('button', { name: 'Add a goal' }).click();
    await fillGoal(page, 1, String(FIRST.coins), FIRST.description);
    await editor(page).getByRole('button', { name: 'Add a goal' }).click();
    await fillGoal(page, 2, String(SECOND.coins), '   ');
    await editor(page).getByRole('button', { name: 'Save goals' }).click();
    await goalRow(page, 2).getByText(MSG.goalDescriptionNeeded).waitFor();
    expect(await goalRow(page, 1).getByRole('alert').count()).toBe(0);
    // On a phone the rows stack: coins and Remove, then the description, its message under it.
    const desktop = page.viewportSize()!;
    await page.setViewportSize(PHONE);
    await goalRow(page, 2).scrollIntoViewIfNeeded();
    await screenshot(page, 'tip-goals-editor-phone');
    await page.setViewportSize(desktop);

    await goalRow(page, 2).getByLabel('Description').fill(SECOND.description);
    await editor(page).getByRole('button', { name: 'Save goals' }).click();
    await page.getByText(MSG.goalsSaved).first().waitFor();
    // The first goal starts at once; saved, the form has nothing new to save.
    await goalRow(page, 1).getByText('Now filling').waitFor();
    await barsShow(goalBars(page, FIRST.description), 0, FIRST.coins);
    expect(await editor(page).getByRole('button', { name: 'Save goals' }).isDisabled()).toBe(true);
    await editor(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'tip-goals-editor');
  });

  step("goes live; a viewer sees the first goal's bar under the player and over the chat", async () => {
    const onAir = await goLiveAndPublish(broadcaster.page);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
    // The live panel has the editor too, with the goals saved before the show.
    await goalRow(broadcaster.page, 2).getByLabel('Description').waitFor();
    expect(await goalRow(broadcaster.page, 2).getByLabel('Description').inputValue()).toBe(SECOND.description);

    viewer = await openAppPage();
    const { page } = viewer;
    await viewerWithCoinsAt(page, 'viewer1', streamPath, TITLE);

    const bars = goalBars(page, FIRST.description);
    await expect.poll(() => bars.count()).toBe(2);
    await barsShow(bars, 0, FIRST.coins);
    expect(await page.getByText(`0 / ${FIRST.coins} Coins`).count()).toBe(2);
    await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(0.5);
    await screenshot(page, 'tip-goals-viewer');
  });

  step('tips fill the goal on both pages without a reload', async () => {
    const { page } = viewer;
    await tipFromSelector(page, 20, { confirm: true });
    await barsShow(goalBars(page, FIRST.description), 20, FIRST.coins);
    await page.getByText(`20 / ${FIRST.coins} Coins`).first().waitFor();
    await barsShow(goalBars(broadcaster.page, FIRST.description), 20, FIRST.coins);
    expect(await reachedLine(page, FIRST.description).count()).toBe(0);
  });

  step('reaching it is announced in both chats and the next goal starts with what went past', async () => {
    const { page } = viewer;
    await tipFromSelector(page, 20, { confirm: false });

    for (const each of [page, broadcaster.page]) {
      await reachedLine(each, FIRST.description).waitFor({ timeout: 15_000 });
      expect(await reachedLine(each, FIRST.description).count()).toBe(1);
    }
    // Said by no one: the line is the announcement alone, no name before it.
    const line = reachedLine(page, FIRST.description);
    expect(await line.evaluate((el) => el.closest('[role="log"] > *')?.textContent)).toBe(fill(MSG.goalReached, { description: FIRST.description }));

    // 40 tipped on a goal of 30: the next one starts with 10.
    const next = goalBars(page, SECOND.description);
    await expect.poll(() => next.count(), { timeout: 15_000 }).toBe(2);
    await barsShow(next, 10, SECOND.coins);
    await page.getByText(`10 / ${SECOND.coins} Coins`).first().waitFor();
    expect(await goalBars(page, FIRST.description).count()).toBe(0);
    await screenshot(page, 'tip-goals-reached-viewer');

    // The dashboard shows the first as reached and the second filling.
    const studio = broadcaster.page;
    await studio.getByRole('list', { name: 'Goals reached' }).getByText(FIRST.description).waitFor({ timeout: 15_000 });
    await goalRow(studio, 1).getByText('Now filling').waitFor();
    expect(await goalRow(studio, 1).getByLabel('Description').inputValue()).toBe(SECOND.description);
    expect(await goalRow(studio, 2).count()).toBe(0);
    await barsShow(goalBars(studio, SECOND.description), 10, SECOND.coins);
    await studio.getByRole('list', { name: 'Goals reached' }).scrollIntoViewIfNeeded();
    await screenshot(studio, 'tip-goals-reached-dashboard');
  });

  step('on a phone the one bar sits under the video, the chat input still on the first screen', async () => {
    const { page } = viewer;
    const desktop = page.viewportSize()!;
    await page.setViewportSize(PHONE);
    const bar = goalBars(page, SECOND.description);
    // The chat's bar is for wide screens, where the chat is a column of its own.
    await expect.poll(() => bar.count()).toBe(1);
    const [video, box, input] = await Promise.all([
      page.locator('video').boundingBox(),
      bar.boundingBox(),
      page.getByRole('textbox', { name: 'Chat message' }).boundingBox(),
    ]);
    expect(video && box && input).toBeTruthy();
    expect(box!.y).toBeGreaterThanOrEqual(video!.y + video!.height);
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    expect(input!.y + input!.height).toBeLessThanOrEqual(PHONE.height);
    await screenshot(page, 'tip-goals-phone');
    await page.setViewportSize(desktop);
  });

  step("after the show the replay lists the broadcast's goals, the reached one marked", async () => {
    const studio = broadcaster.page;
    await endStreamFromStudio(studio);
    // The next broadcast starts with no goals.
    await editor(studio).getByText('No goals to come.', { exact: false }).waitFor();

    const { page } = viewer;
    await page.goto(streamPath);
    await badge(page, 'REPLAY').waitFor({ timeout: 30_000 });
    const goals = page.getByRole('region', { name: 'Tip goals' });
    const first = goals.getByRole('listitem').filter({ hasText: FIRST.description });
    const second = goals.getByRole('listitem').filter({ hasText: SECOND.description });
    await first.getByText('Reached', { exact: true }).waitFor();
    await first.getByText(`${FIRST.coins} / ${FIRST.coins} Coins`).waitFor();
    await second.getByText('Not reached', { exact: true }).waitFor();
    await second.getByText(`10 / ${SECOND.coins} Coins`).waitFor();
    expect(await page.getByRole('progressbar').count()).toBe(0);
    await goals.scrollIntoViewIfNeeded();
    await screenshot(page, 'tip-goals-replay');
    expect([...broadcaster.errors, ...viewer.errors]).toEqual([]);
  });
});
