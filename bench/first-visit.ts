/**
 * A first visit to the home page on a slow connection (400 kbit/s down, 800 ms round trip, Chromium's
 * network emulation) against the real server and the built web app: when something is painted, when
 * the app has mounted (the home page's heading), when the page has loaded, and the bytes that crossed.
 * Goals: something painted within 3 s (the connection and the page cost two round trips); the app
 * mounted within 8 s. Run after `npm run build:web` (WEB_DIST names another build).
 * Measured 2026-11-23: before precompression and page splitting 19.6 s to the first paint (the page
 * stayed blank until the app mounted at 19.8 s), 879 KB transferred; after, 2.4 s to the loading
 * indication, the app mounted at 6.7 s, 210 KB transferred.
 */
import { writeResult } from './lib';
import { startServerAndBrowser } from './browser-run';

const NETWORK = { offline: false, latency: 800, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };

async function main() {
  const [server, browser] = await startServerAndBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    let bytes = 0;
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
      bytes += event.encodedDataLength;
    });
    const start = Date.now();
    const mounted = page.getByRole('heading', { name: 'Limelight', level: 1 }).waitFor({ timeout: 120_000 }).then(() => Date.now() - start);
    await page.goto(server.url, { waitUntil: 'load', timeout: 120_000 });
    const loadedMs = Date.now() - start;
    const mountedMs = await mounted;
    const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
    const result = { network: NETWORK, firstContentfulPaintMs: paint === null ? null : Math.round(paint), appMountedMs: mountedMs, loadedMs, transferredBytes: bytes };
    console.log(result);
    writeResult('first-visit', result);
  } finally {
    await browser.close();
    await server.stop();
  }
}

void main();
