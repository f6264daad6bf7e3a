/** playwright-core driving Debian's Chromium headless shell, with the fake media devices of docs/architecture.md §10. */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, it, type TestContext } from 'vitest';
import { checkPage, reportCheckCost } from './a11y';
import { startApp } from './app';
import type { AppOptions, RunningApp } from './app';
import { DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL } from '../../scripts/system-tools';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** The headless shell (scripts/system-tools.ts), or the full browser where only that is installed. */
const journeyChromium = () => (existsSync(DEBIAN_HEADLESS_SHELL) ? DEBIAN_HEADLESS_SHELL : DEBIAN_CHROMIUM);

/**
 * `extraArgs`: a journey's own switches, e.g. a video file for the fake camera. `fullBrowser`: Debian's
 * whole chromium, for what the headless shell lacks (it shows no notifications).
 */
export function launchBrowser(extraArgs: readonly string[] = [], fullBrowser = false): Promise<Browser> {
  const executablePath = fullBrowser ? (process.env.CHROMIUM_FULL_PATH ?? DEBIAN_CHROMIUM) : (process.env.CHROMIUM_PATH ?? journeyChromium());
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors, for a final "no errors" check. */
  errors: string[];
}

/** Every page still open, with the errors it logged, for the report of a failed test. */
const openPages = new Map<Page, string[]>();

function track(page: Page, errors: string[]): Page {
  openPages.set(page, errors);
  page.once('close', () => openPages.delete(page));
  collectErrors(page, errors);
  return page;
}

/** A fresh context (no cookies, no storage) on the app at `baseURL`. */
export async function openPage(browser: Browser, baseURL: string, viewport = { width: 1366, height: 860 }): Promise<TestPage> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'en-US' });
  const errors: string[] = [];
  const page = track(await context.newPage(), errors);
  return { context, page, errors };
}

/** A second tab in the same context (same signed-in user); its errors go to the same list. */
export async function openTab({ context, errors }: TestPage): Promise<Page> {
  return track(await context.newPage(), errors);
}

/** Shoots every open page as `FAILED-<test>-<n>.png`, as it was when the test failed, and prints its address and errors. */
async function screenshotOpenPages(test: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const name = test.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').slice(0, 80);
  let n = 0;
  for (const [page, errors] of openPages) {
    n += 1;
    console.error(`FAILED-${name}-${n}: ${page.url()}${errors.length ? `\n  ${errors.join('\n  ')}` : ' (no errors logged)'}`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}FAILED-${name}-${n}.png`, timeout: 5_000 }).catch(() => undefined);
  }
}

/** A failed test of this file leaves a screenshot of every page it had open. */
export function screenshotFailures(): void {
  beforeEach((context) => {
    context.onTestFailed(() => screenshotOpenPages(context.task.name));
  });
}

/**
 * The steps of a journey that build on each other (pages and state carried from one to the next):
 * each step is a test of its own, named; once one fails, the steps after it are skipped, naming it,
 * so the failure is reported once, with its cause, instead of again in every later step.
 */
export function journeySteps() {
  let failed: string | null = null;
  return (name: string, body: () => Promise<void>, timeout?: number) =>
    it(name, async (context: TestContext) => {
      if (failed !== null) context.skip(`an earlier step failed: ${failed}`);
      // Any failure, a timeout too (the body's promise then never settles).
      context.onTestFailed(() => {
        failed ??= name;
      });
      await body();
    }, timeout);
}

function collectErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A 401 from session-detail is how a guest is told apart; the browser logs every failed fetch.
    if (message.type() === 'error' && !message.text().includes('Failed to load resource')) errors.push(`console: ${message.text()}`);
  });
}

/**
 * `animations: 'allow'` shoots what is on screen mid-animation (floating hearts, lines fading out).
 * Then the page is checked (e2e/support/a11y.ts: accessibility and horizontal overflow) unless `check: false`.
 */
export async function screenshot(page: Page, name: string, options: { animations?: 'allow' | 'disabled'; check?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Animations finished by default, so a drawer or chip is shot where it ends up.
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, animations: options.animations ?? 'disabled' });
  if (options.check ?? true) await checkPage(page, name);
}

/**
 * Starts a fresh server and a browser for one journey file (closed after it) and returns the way to
 * open a page on it.
 */
export function useAppInBrowser(options: AppOptions & { chromiumArgs?: readonly string[]; fullBrowser?: boolean } = {}) {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(options), launchBrowser(options.chromiumArgs, options.fullBrowser)]);
  });
  let file = '';
  afterAll(async () => {
    reportCheckCost(file);
    await browser?.close();
    await app?.close();
  });
  beforeEach((context) => {
    file = context.task.file.name;
  });
  screenshotFailures();
  const running = () => {
    if (!app || !browser) throw new Error('the app is not running: call inside a test');
    return { app, browser };
  };
  const open = (viewport?: { width: number; height: number }) => {
    const { app: server, browser: chromium } = running();
    return openPage(chromium, server.url, viewport);
  };
  return Object.assign(open, {
    /** The RTMP ingest address (`rtmp://…/live`) of an app started with `media: true`. */
    rtmpUrl: () => {
      const url = running().app.rtmpUrl;
      if (!url) throw new Error('start the app with { media: true }');
      return url;
    },
    /** The server's services (it runs in this process): a journey runs a job at the moment it chooses. */
    services: () => running().app.services,
  });
}
