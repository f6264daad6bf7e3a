/**
 * Journey: the keyboard alone (Tab, Shift+Tab, Enter, Space, Escape and typing; no mouse). A newcomer
 * signs up and picks interests; a viewer logs in, pauses, plays and mutes the live player, writes in
 * the chat and tips. Every control reached shows where the focus is.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { DEMO_PASSWORD, newUser, signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { broadcastAs, videoTime } from './support/live';
import { buyThousandCoins } from './support/wallet';

const openAppPage = useAppInBrowser({ media: true });
const step = journeySteps();
const TITLE = 'E2E keyboard show';

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

/** The focused element's accessible name as a person hears it (label, aria-label, text), and whether its focus shows. */
function focused(page: Page): Promise<{ name: string; visible: boolean } | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const byIds = (ids: string | null) => (ids ?? '').split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    const label = (element as HTMLInputElement).labels?.[0]?.textContent;
    const name = (element.getAttribute('aria-label') ?? (element.getAttribute('aria-labelledby') && byIds(element.getAttribute('aria-labelledby'))) ?? label ?? element.textContent ?? element.getAttribute('placeholder') ?? '').trim();
    // The ring on the element itself, or on the box drawn around it (a search box, a custom checkbox, a chip).
    const ring = (e: Element | null) => {
      if (!e) return false;
      const style = getComputedStyle(e);
      return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    };
    const visible = ring(element) || ring(element.parentElement) || ring(element.nextElementSibling);
    return { name, visible };
  });
}

/** Presses Tab until the control named `name` has the focus (at most 80 times), and checks its focus shows. */
async function tabTo(page: Page, name: string | RegExp, options: { backwards?: boolean } = {}): Promise<void> {
  const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
  const seen: string[] = [];
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    if (now && matches(now.name)) {
      expect(now.visible, `focus ring on "${now.name}"`).toBe(true);
      return;
    }
    seen.push(now?.name ?? '(body)');
  }
  throw new Error(`"${String(name)}" never took the focus; Tab went through: ${seen.join(' | ')}`);
}

describe('the keyboard alone', () => {
  let streamPath = '';
  let viewer: TestPage;

  step('broadcaster1 goes live; viewer1 has coins', async () => {
    const broadcaster = await openAppPage();
    const onAir = await broadcastAs(broadcaster.page, TITLE);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
    viewer = await openAppPage();
    await signInAt(viewer.page, 'viewer1', '/');
    await buyThousandCoins(viewer.page);
    await viewer.context.clearCookies();
  }, 90_000);

  step('a newcomer signs up and picks three interests', async () => {
    const newcomer = await openAppPage();
    const { page } = newcomer;
    const user = newUser();
    await page.goto('/user/sign-up');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await tabTo(page, 'Username');
    await page.keyboard.type(user.username);
    await tabTo(page, 'Email');
    await page.keyboard.type(user.email);
    await tabTo(page, 'Password');
    await page.keyboard.type(user.password);
    await tabTo(page, 'Confirm Password');
    await page.keyboard.type(user.password);
    // A closed select takes what is typed: the option that starts so.
    for (const [field, typed] of [['Day', '15'], ['Month', 'June'], ['Year', '1995'], ['Country', 'Canada']] as const) {
      await tabTo(page, field);
      await page.keyboard.type(typed);
    }
    await tabTo(page, /I accept the/);
    await page.keyboard.press('Space');
    expect(await page.getByLabel(/I accept the/).isChecked()).toBe(true);
    await screenshot(page, 'keyboard-signup');
    await tabTo(page, 'Create Account');
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: MSG.chooseInterests }).waitFor();
    const chips = page.getByRole('list', { name: 'Interests' }).getByRole('button');
    for (const i of [0, 1, 2]) {
      await tabTo(page, (await chips.nth(i).textContent()) ?? '');
      await page.keyboard.press('Space');
    }
    await screenshot(page, 'keyboard-interests');
    await tabTo(page, 'Done');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/channel/group');
    expect(newcomer.errors).toEqual([]);
    await newcomer.context.close();
  });

  step('viewer1 logs in, pauses, plays and mutes the live player', async () => {
    const { page } = viewer;
    await page.goto(`/user/login?redirect=${encodeURIComponent(streamPath)}`);
    await page.getByLabel('Username or Email').waitFor();
    await tabTo(page, 'Username or Email');
    await page.keyboard.type('viewer1');
    await tabTo(page, 'Password');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname + url.search === streamPath);
    // The system messages, closed with Escape.
    for (let open = page.getByRole('dialog'); await open.count(); ) {
      await page.keyboard.press('Escape');
      await open.first().waitFor({ state: 'detached' });
    }
    await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(0.5);

    await tabTo(page, 'Pause');
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await screenshot(page, 'keyboard-player-paused');
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
    await tabTo(page, /^(Mute|Unmute)$/);
    const muted = await page.locator('video').evaluate((v: HTMLVideoElement) => v.muted);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(!muted);
  });

  step('viewer1 writes in the chat and tips, Escape closing the tip selector', async () => {
    const { page } = viewer;
    await tabTo(page, 'Chat message');
    await page.keyboard.type('Hello from the keyboard');
    await page.keyboard.press('Enter');
    await page.getByRole('log').getByText('Hello from the keyboard').waitFor();

    await tabTo(page, 'Tip', { backwards: true });
    await page.keyboard.press('Enter');
    const amounts = page.getByRole('dialog').filter({ hasText: 'Send a tip' });
    await amounts.waitFor();
    await page.keyboard.press('Escape');
    await amounts.waitFor({ state: 'detached' });
    // Escape gives the focus back to the Tip button once the selector has gone: Enter opens it again from there.
    await expect.poll(async () => (await focused(page))?.name).toBe('Tip');
    await page.keyboard.press('Enter');
    await amounts.waitFor();
    await tabTo(page, '10 Coins');
    await screenshot(page, 'keyboard-tip-amounts');
    await page.keyboard.press('Enter');
    // The first tip of a stream asks once.
    const confirm = page.getByRole('dialog', { name: 'Send a Tip' });
    const line = page.getByRole('log').getByText('Sent 10 Coins!!');
    await Promise.race([confirm.waitFor(), line.waitFor()]);
    if (await confirm.count()) {
      await tabTo(page, 'Confirm Tip');
      await page.keyboard.press('Enter');
    }
    await line.waitFor({ timeout: 15_000 });
    await screenshot(page, 'keyboard-tipped');
    expect(viewer.errors).toEqual([]);
  });
});
