/** Entry point: reads the configuration, opens resources, seeds a fresh install, and listens. */
import { loadConfig } from './config';
import { buildApp } from './app';
import { openResources } from './bootstrap';
import { DataDirLockedError } from './platform/db/data-dir-lock';
import { seedDemo } from './demo/seed-demo';

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
    const seeded = await seedDemo({ db: resources.database.db, files: resources.files, services: app.services });
    if (seeded.accounts.length > 0) {
      // Printed once, to the console only: the administrator's password is not kept anywhere else.
      const lines = seeded.accounts.map((a) => `  ${a.username.padEnd(14)} ${a.password.padEnd(18)} (${a.note})`);
      app.log.info({ accounts: seeded.accounts.map((a) => a.username), replays: seeded.replays }, 'demo data created');
      if (seeded.replayError) app.log.warn({ reason: seeded.replayError }, 'demo replays could not be made');
      console.log(`\nDemo logins (username / password; the administrator's is shown only now: \`npm run admin -- reset-password admin\` makes a new one):\n${lines.join('\n')}\n`);
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
  if (config.seedDemo && (config.role === 'all' || config.role === 'media')) {
    const port = config.port === 3000 ? '' : `PORT=${config.port} `;
    console.log(`Demo live stream: run \`${port}npm run demo:live\` in another terminal (broadcaster1 goes live with a test pattern).`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
