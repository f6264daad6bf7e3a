/** A real listening server for browser journeys: fresh embedded database, demo data, built web app. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app';
import { openResources } from '../bootstrap';
import { loadConfig } from '../config';
import { seedDemoData } from '../../scripts/demo-data';

const WEB_DIST = fileURLToPath(new URL('../../dist/web', import.meta.url));

export async function startTestServer(
  options: { captcha?: boolean; env?: Record<string, string>; media?: boolean } = {},
): Promise<{ url: string; rtmpUrl: string | null; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-e2e-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    CAPTCHA: options.captcha ? 'altcha' : 'off',
    RTMP_PORT: '0',
    SIGNUPS_PER_ADDRESS: '100000',
    LOG_LEVEL: 'warn',
    WEB_DIST,
    ...options.env,
  });
  const resources = await openResources(config);
  const app = await buildApp(resources);
  await seedDemoData({ db: resources.database.db, ...app.services });
  await app.listen({ host: '127.0.0.1', port: 0 });
  if (options.media) {
    await app.services.broadcastHooks.refreshKeys();
    await app.services.broadcastHooks.endStaleLiveStreams();
    await app.services.media.start();
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    rtmpUrl: options.media ? `rtmp://127.0.0.1:${app.services.media.ingest.port}/live` : null,
    async close() {
      await app.close();
      await resources.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
