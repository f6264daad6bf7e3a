/**
 * `npm run routes`: every HTTP route and realtime operation of the app (method, path, auth, module,
 * handler file), then what runs besides them (jobs, domain events, hooks). `npm run routes -- --write`
 * regenerates docs/routes.md and docs/runtime.md. The app is built on a throwaway embedded database:
 * nothing listens.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { openResources } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { generatedDocs } from '../server/generated-docs';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-routes-'));
try {
  const resources = await openResources(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'off' }));
  const app = await buildApp(resources);
  const docs = generatedDocs(app);
  if (process.argv.includes('--write')) {
    for (const [file, text] of Object.entries(docs)) writeFileSync(path.resolve(import.meta.dirname, '..', file), text);
    console.log(`docs/routes.md: ${app.routeTable.length} HTTP routes, ${app.modules.realtime.length} realtime operations`);
    console.log(`docs/runtime.md: ${app.jobs.length} jobs, ${app.domainEvents.listeners().length} event handlers, ${app.modules.hooks.length} hooks`);
  } else {
    console.log(Object.values(docs).join('\n'));
  }
  await app.close();
  await resources.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
