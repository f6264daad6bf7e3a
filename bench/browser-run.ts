/** Benchmarks that drive the built web app: the server in its own process and chromium, started side by side. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../e2e/support/browser';
import { startServerProcess } from '../server/testing/server';

export async function startServerAndBrowser() {
  if (!existsSync(path.resolve(process.env.WEB_DIST ?? 'dist/web', 'index.html'))) {
    console.error('The web app is not built: run `npm run build:web` first.');
    process.exit(1);
  }
  return Promise.all([startServerProcess(), launchBrowser()]);
}
