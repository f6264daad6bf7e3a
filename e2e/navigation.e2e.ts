/**
 * Journey: no dead ends. As a guest, a viewer, a broadcaster with referral access and the
 * administrator, in each of the four skins, every link and menu entry of the shell (top bar, side bar
 * with See More open, user menu, create button), the home page and the login page is collected and
 * visited (a page the skins share once, under the first skin that links it, and each skin's home page):
 * none may answer HTTP 404, show the Not Found page or fail to load what it shows. Links out
 * of the app must be targets the skin configures, never a store's generic front page.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SKINS, SKIN_IDS } from '../common/skins';
import type { Skin } from '../common/skins';
import { signInAt, userMenu } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';

const openAppPage = useAppInBrowser();

const ROLES = [
  { role: 'guest', username: null },
  { role: 'viewer', username: 'viewer1' },
  { role: 'broadcaster', username: 'broadcaster2' },
  { role: 'admin', username: 'admin' },
] as const;

const GENERIC_STORE_PAGES = ['https://apps.apple.com/', 'https://play.google.com/', 'https://play.google.com/store'];

const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//');

/** Addresses out of the app a skin may link to: what its operator configured. */
function configuredTargets(skin: Skin): string[] {
  return [skin.links.appStore, skin.links.playStore, ...skin.sidebarItems.map((i) => i.href), `mailto:${skin.supportEmail}`].filter(
    (href): href is string => !!href && isExternal(href),
  );
}

const hrefsIn = (page: Page, selector: string) =>
  page.$$eval(`${selector} a[href]`, (links) => links.map((a) => a.getAttribute('href') ?? ''));

/** Opens a menu by its button, reads the links in it and closes it again. */
async function menuLinks(page: Page, trigger: ReturnType<Page['getByRole']>): Promise<string[]> {
  await trigger.click();
  await page.getByRole('menu').waitFor();
  const links = await hrefsIn(page, '[role="menu"]');
  await page.keyboard.press('Escape');
  await page.getByRole('menu').waitFor({ state: 'detached' });
  return links;
}

/** Every link of the shell, the home page and the menus of one skin, as `who` sees them. */
async function collectLinks(page: Page, skin: Skin, username: string | null): Promise<string[]> {
  await page.goto(skin.prefix || '/');
  await page.getByRole('list', { name: 'Channels' }).getByRole('link').first().waitFor();
  await page.getByRole('main').locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
  if (username) await page.getByRole('navigation', { name: 'Followed channels' }).locator('[aria-busy="true"]').waitFor({ state: 'detached' });
  const more = page.getByRole('button', { name: 'See More' });
  if (await more.count()) await more.click();

  const links = await hrefsIn(page, 'body');
  if (username) {
    links.push(...(await menuLinks(page, userMenu(page, username))));
    const create = page.getByRole('button', { name: 'Create', exact: true });
    if (await create.count()) links.push(...(await menuLinks(page, create)));
  } else {
    // The guest layout: the login page's links (store badges, legal, sign up, recovery).
    await page.goto(`${skin.prefix}/user/login`);
    await page.getByRole('button', { name: 'Log In', exact: true }).waitFor();
    links.push(...(await hrefsIn(page, 'body')));
  }
  return links;
}

/**
 * What the page loads has arrived: no request in flight for QUIET_MS (Playwright's `networkidle` waits
 * 500 ms after the last one, which on hundreds of visits is most of the journey).
 */
async function networkQuiet(page: Page, inFlight: () => number): Promise<void> {
  const deadline = Date.now() + 15_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await page.waitForTimeout(POLL_MS);
    if (inFlight() > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= QUIET_MS) return;
  }
  throw new Error(`${page.url()}: still loading after 15 s`);
}
const QUIET_MS = 150;
const POLL_MS = 50;

/**
 * Follows an app link inside the running app, as a click on it would, after checking that the server also
 * answers the address itself (a bookmark or a shared link): hundreds of full page loads would be most of
 * the journey.
 */
async function followInApp(page: Page, path: string, who: string): Promise<void> {
  const direct = await page.request.get(path);
  expect(direct.status(), `${who}: ${path} answered`).not.toBe(404);
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}

/** Visits an app path and fails on an HTTP 404 (the page or anything it loads) or the Not Found page. */
async function expectNoDeadEnd(page: Page, path: string, who: string): Promise<void> {
  const missing: string[] = [];
  const onResponse = (response: { status(): number; url(): string }) => {
    if (response.status() === 404) missing.push(response.url());
  };
  let inFlight = 0;
  const started = () => void (inFlight += 1);
  const ended = () => void (inFlight -= 1);
  page.on('response', onResponse);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await followInApp(page, path, who);
    // Settled: the session is known (no spinner left) and what the page loads has arrived.
    await page.waitForFunction(() => !document.querySelector('[role="status"][aria-label="Loading"], [aria-label="Loading your account"]'));
    await networkQuiet(page, () => inFlight);
    expect(await page.getByRole('heading', { name: 'Page not found' }).count(), `${who}: ${path} shows Not Found`).toBe(0);
    expect(await page.getByText(/could not be loaded/).count(), `${who}: ${path} failed to load`).toBe(0);
    expect(missing, `${who}: ${path} loaded something missing`).toEqual([]);
  } finally {
    page.off('response', onResponse);
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

// The four callers walk side by side: most of a visit is waiting for the page to settle.
describe.concurrent('no dead ends', () => {
  for (const { role, username } of ROLES) {
    it(`every menu entry and link of every skin leads somewhere, for ${role === 'admin' ? 'an administrator' : `a ${role}`}`, async () => {
      const { page, context, errors } = await openAppPage();
      if (username) await signInAt(page, username, '/');
      let visited = 0;
      // Every skin mounts the same pages under its prefix: a page already visited in another skin is
      // visited again only as that skin's home page (its branding, its flags' lists).
      const seen = new Set<string>();

      for (const id of SKIN_IDS) {
        const skin = SKINS[id];
        const links = await collectLinks(page, skin, username);
        if (id === 'afterdark') await screenshot(page, `navigation-${role}-afterdark`);
        const outside = links.filter(isExternal);
        for (const href of outside) {
          expect(configuredTargets(skin), `${role} in ${id}: ${href} is not a configured target`).toContain(href);
          expect(GENERIC_STORE_PAGES).not.toContain(href);
        }
        const inside = [...new Set(links.filter((href) => !isExternal(href) && !href.startsWith('#')))];
        // Links are the skin's own (or, for the default skin, unprefixed).
        for (const href of inside) expect(href === skin.prefix || href.startsWith(`${skin.prefix}/`) || skin.prefix === '', `${role} in ${id}: ${href}`).toBe(true);
        for (const href of inside) {
          const unprefixed = href.slice(skin.prefix.length) || '/';
          if (seen.has(unprefixed) && unprefixed !== '/') continue;
          seen.add(unprefixed);
          await expectNoDeadEnd(page, href, `${role} in ${id}`);
          if (role === 'guest' && (href.endsWith('/help') || href.endsWith('/download'))) await screenshot(page, `navigation-${id}-${href.split('/').pop()}`);
          visited += 1;
        }
        // Nothing the reviewers found unbuilt is offered.
        for (const unbuilt of ['/creators', '/careers', '/press']) {
          expect(inside.some((href) => href.endsWith(unbuilt) || href.includes(`${unbuilt}?`)), `${role} in ${id} offers ${unbuilt}`).toBe(false);
        }
      }

      expect(visited).toBeGreaterThan(SKIN_IDS.length + 8);
      expect(errors).toEqual([]);
      await context.close();
    }, 420_000);
  }
});
