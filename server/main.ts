/** Entry point: reads the configuration, opens resources, seeds a fresh install, and listens. */
import { loadConfig } from './config';
import { buildApp } from './app';
import { openResources } from './bootstrap';
import { DataDirLockedError } from './platform/db/data-dir-lock';
import { seedDemoData } from './demo/demo-data';

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
      // Printed once, to the console only: the administrator's password is not kept anywhere else.
      const lines = created.map((a) => `  ${a.username.padEnd(14)} ${a.password.padEnd(18)} (${a.note})`);
      app.log.info({ accounts: created.map((a) => a.username) }, 'demo data created');
      console.log(`\nDemo logins (username / password; the administrator's is shown only now):\n${lines.join('\n')}\n`);
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
  await app.modules.start();
  if (config.role === 'all' || config.role === 'media') {
    console.log(`RTMP ingest on rtmp://localhost:${app.services.media.ingest.port}/live (stream key from the dashboard)`);
  }
  console.log(`Limelight is running on http://localhost:${config.port} (API docs at /api/docs)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
