/**
 * Journey: every page fits a phone and passes the accessibility check (docs/decisions/0048-page-checks.md).
 * At 390×844, as a guest, a viewer and a broadcaster on the air, each page of the app in the main skin
 * and the pages each skin dresses differently in the other three: no horizontal scrolling (the widest
 * element is named) and no serious or critical axe-core violation. The guest finds Log In on the top
 * bar and in the side menu.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { SKINS, SKIN_IDS } from '../common/skins';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { checkPage } from './support/a11y';
import { signInAt } from './support/app';
import { buyThousandCoins } from './support/wallet';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { goLiveAndPublish, saveBroadcastTitle } from './support/live';

const openAppPage = useAppInBrowser({ media: true });
const step = journeySteps();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const TITLE = 'E2E page checks';

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

/** The page has loaded what it shows: no loading placeholder left in the main region, the balance in the top bar. */
async function settled(page: Page, signedIn: boolean): Promise<void> {
  await page.getByRole('main').waitFor();
  await page.getByRole('main').locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
  if (signedIn) await page.getByRole('banner').getByRole('link', { name: /^Your balance: / }).waitFor();
}

/** Visits each path and checks it; every page's problems are gathered, so one run names them all. */
async function checkPages(page: Page, paths: readonly string[], tag: string, signedIn = tag !== 'guest'): Promise<string[]> {
  const problems: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await settled(page, signedIn);
    const name = `${tag}${path.replace(/[^a-z0-9]+/gi, '-')}`.replace(/-+$/, '');
    await screenshot(page, name.startsWith('desktop') ? name : `phone-${name}`, { check: false });
    await checkPage(page, name).catch((error: Error) => problems.push(error.message));
    problems.push(...(await coveredOrSqueezed(page)).map((problem) => `${name}: ${problem}`));
  }
  return problems;
}

/**
 * Scrolled to the end of the page, what text or control the floating Create button lies over (the
 * page must end clear of it), and the top bar's controls narrower than a 24 px target (squeezed).
 */
function coveredOrSqueezed(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (e: Element) => `<${e.tagName.toLowerCase()}> "${(e.textContent ?? '').trim().slice(0, 30) || e.getAttribute('aria-label')}"`;
    for (const control of Array.from(document.querySelectorAll('header a, header button'))) {
      const r = control.getBoundingClientRect();
      if (r.width > 0 && r.width < 24) problems.push(`top bar control squeezed to ${Math.round(r.width)} px: ${name(control)}`);
    }
    window.scrollTo(0, (document.scrollingElement ?? document.documentElement).scrollHeight);
    const fab = document.querySelector('button[aria-label="Create"]')?.getBoundingClientRect();
    if (!fab) return problems;
    for (const element of Array.from(document.querySelectorAll('#main *'))) {
      const control = element.matches('a, button, input, select, textarea');
      const text = Array.from(element.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (!control && !text) continue;
      const r = element.getBoundingClientRect();
      if (r.width && r.height && r.right > fab.left && r.left < fab.right && r.bottom > fab.top && r.top < fab.bottom) {
        problems.push(`under the Create button: ${name(element)}`);
      }
    }
    return problems;
  });
}

/** Checks `paths` in the main skin and `skinPaths` in each of the others. */
async function checkInSkins(page: Page, paths: readonly string[], skinPaths: readonly string[], tag: string): Promise<string[]> {
  const problems = await checkPages(page, paths, tag);
  for (const id of SKIN_IDS.filter((skin) => SKINS[skin].prefix)) {
    problems.push(...(await checkPages(page, skinPaths.map((path) => SKINS[id].prefix + (path === '/' ? '' : path)), tag)));
  }
  return problems;
}

/** No problem found, no error logged; the person's browser closed. */
async function finish(person: TestPage, problems: string[]): Promise<void> {
  expect(problems).toEqual([]);
  expect(person.errors).toEqual([]);
  await person.context.close();
}

/** The app's pages everyone can open, and those a signed-in user can. */
const PUBLIC_PAGES = ['/', '/channel/group', '/channel/search-all-stream', '/channel/search?search=broadcaster', '/legal/terms', '/help', '/download'];
const GUEST_PAGES = ['/user/login', '/user/sign-up', '/user/forgot-password'];
const SIGNED_IN_PAGES = ['/user/settings', '/user/notifications', '/messages', '/user/account', '/user/account/deposit-coins', '/subscription', '/user/analytics', '/user/profile'];
const BROADCASTER_PAGES = ['/dashboard', '/user/analytics', '/user/account', '/user/upload', '/user/create-meeting', '/user/schedule-meetings'];
/** What each skin dresses differently (palette, labels, its home page). */
const SKIN_PAGES = ['/', '/user/login', '/user/sign-up'];

describe('every page on a phone', () => {
  let streamPath = '';
  let profilePath = '';

  step('broadcaster1 offers a subscription and goes live', async () => {
    const broadcaster = await openAppPage();
    await signInAt(broadcaster.page, 'broadcaster1', '/subscription');
    await broadcaster.page.getByRole('tab', { name: 'My Offers' }).click();
    const vip = broadcaster.page.getByRole('listitem', { name: 'VIP package' });
    await vip.getByLabel('VIP price').selectOption({ label: 'Monthly · 600 coins ($30.00)' });
    await vip.getByRole('button', { name: 'Add' }).click();
    await broadcaster.page.getByText(MSG.planAdded).first().waitFor();
    await broadcaster.page.goto('/dashboard');
    await broadcaster.page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
    await saveBroadcastTitle(broadcaster.page, TITLE);
    const onAir = await goLiveAndPublish(broadcaster.page);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
    profilePath = `/u/${await broadcaster.page.evaluate(async () => ((await (await fetch("/api/user/session-detail")).json()) as { user: { user_id: number } }).user.user_id)}`;
    await broadcaster.context.close();
  }, 90_000);

  step('a guest: every page fits and passes, Log In on the top bar and in the side menu', async () => {
    const guest: TestPage = await openAppPage(PHONE);
    const { page } = guest;
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Log In' }).waitFor();
    await page.getByRole('banner').getByRole('button', { name: 'Show side bar' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log In' }).waitFor();
    await screenshot(page, 'phone-guest-side-menu', { check: false });
    await page.getByRole('banner').getByRole('button', { name: 'Hide side bar' }).click();

    await finish(guest, await checkInSkins(page, [...PUBLIC_PAGES, ...GUEST_PAGES, streamPath, profilePath], [...SKIN_PAGES, streamPath], 'guest'));
  }, 180_000);

  step('a viewer with coins: every page fits and passes, in each skin', async () => {
    const viewer = await openAppPage(PHONE);
    const { page } = viewer;
    await signInAt(page, 'viewer1', '/');
    await buyThousandCoins(page);
    // The public pages differ for a viewer by the top bar only: the home page and Browse show it.
    await finish(viewer, await checkInSkins(page, [...PUBLIC_PAGES.slice(0, 2), ...SIGNED_IN_PAGES, streamPath, profilePath], ['/', '/user/settings', streamPath], 'viewer'));
  }, 180_000);

  step('a broadcaster: the creator pages fit and pass', async () => {
    const broadcaster = await openAppPage(PHONE);
    const { page } = broadcaster;
    await signInAt(page, 'broadcaster1', '/');
    const problems = await checkPages(page, BROADCASTER_PAGES, 'broadcaster');
    // On a wide screen too, the button covers none of the pages' ends.
    await page.setViewportSize(DESKTOP);
    problems.push(...(await checkPages(page, ['/dashboard', '/user/analytics', '/user/account'], 'desktop-broadcaster')));
    await finish(broadcaster, problems);
  }, 150_000);
});
