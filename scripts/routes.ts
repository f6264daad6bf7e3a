/**
 * `npm run routes`: every HTTP route and realtime operation of the app (method, path, auth, module,
 * handler file). `npm run routes -- --write` regenerates docs/routes.md. The app is built on a
 * throwaway embedded database: nothing listens.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { openResources } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { renderRouteTable } from '../server/platform/http/route-table';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-routes-'));
try {
  const resources = await openResources(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'off' }));
  const app = await buildApp(resources);
  const table = renderRouteTable(app.routeTable, app.modules.realtime);
  if (process.argv.includes('--write')) {
    writeFileSync(path.resolve(import.meta.dirname, '../docs/routes.md'), table);
    console.log(`docs/routes.md: ${app.routeTable.length} HTTP routes, ${app.modules.realtime.length} realtime operations`);
  } else {
    console.log(table);
  }
  await app.close();
  await resources.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
