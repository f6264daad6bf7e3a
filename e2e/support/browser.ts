/** playwright-core driving Debian's chromium, with the fake media devices of ARCHITECTURE §11. */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startApp } from './app';
import type { AppOptions, RunningApp } from './app';

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

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors, for a final "no errors" check. */
  errors: string[];
}

/** A fresh context (no cookies, no storage) on the app at `baseURL`. */
export async function openPage(browser: Browser, baseURL: string, viewport = { width: 1366, height: 860 }): Promise<TestPage> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  collectErrors(page, errors);
  return { context, page, errors };
}

/** A second tab in the same context (same signed-in user); its errors go to the same list. */
export async function openTab({ context, errors }: TestPage): Promise<Page> {
  const page = await context.newPage();
  collectErrors(page, errors);
  return page;
}

function collectErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A 401 from session-detail is how a guest is told apart; the browser logs every failed fetch.
    if (message.type() === 'error' && !message.text().includes('Failed to load resource')) errors.push(`console: ${message.text()}`);
  });
}

/** `animations: 'allow'` shoots what is on screen mid-animation (floating hearts, lines fading out). */
export async function screenshot(page: Page, name: string, options: { animations?: 'allow' | 'disabled' } = {}): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Animations finished by default, so a drawer or chip is shot where it ends up.
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, animations: options.animations ?? 'disabled' });
}

/**
 * Starts a fresh server and a browser for one journey file (closed after it) and returns the way to
 * open a page on it.
 */
export function useAppInBrowser(options: AppOptions = {}) {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(options), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
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
  });
}
