/** Entry point: reads the configuration, opens resources, seeds a fresh install, and listens. */
import { loadConfig } from './config';
import { buildApp } from './app';
import { openResources } from './bootstrap';
import { DataDirLockedError } from './platform/db/data-dir-lock';
import { DEMO_PASSWORD, seedDemoData } from '../scripts/demo-data';

async function main() {
  const config = loadConfig();
  let resources;
  try {
    resources = await openResources(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp(resources);

  if (config.seedDemo) {
    const created = await seedDemoData({ db: resources.database.db, ...app.services });
    if (created.length > 0) {
      const lines = created.map((a) => `  ${a.username.padEnd(14)} ${DEMO_PASSWORD}   (${a.note})`);
      app.log.info(`Demo data created. Demo logins:\n${lines.join('\n')}`);
      console.log(`\nDemo logins (username / password):\n${lines.join('\n')}\n`);
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await resources.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (config.role === 'all' || config.role === 'media') {
    await app.services.broadcastHooks.refreshKeys();
    await app.services.broadcastHooks.endStaleLiveStreams();
    await app.services.media.start();
    console.log(`RTMP ingest on rtmp://localhost:${app.services.media.ingest.port}/live (stream key from the dashboard)`);
  }
  console.log(`Limelight is running on http://localhost:${config.port} (API docs at /api/docs)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
