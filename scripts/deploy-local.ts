/**
 * Brings up a whole deployment on this machine (scripts/deploy/local-deployment.ts) and keeps it running
 * until Ctrl-C:
 *   npm run deploy:local [-- --port 8080]
 * Needs PostgreSQL (POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres), Redis (REDIS_URL,
 * default redis://127.0.0.1:6379) and Debian's nginx. Runs the compiled server when `npm run build` has
 * been run, else the sources through tsx.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalDeployment } from './deploy/local-deployment';
import { serverCommand } from './deploy/instances';

const root = fileURLToPath(new URL('..', import.meta.url));

async function main() {
  const portArgument = process.argv.indexOf('--port');
  const port = portArgument > 0 ? Number(process.argv[portArgument + 1]) : 8080;
  const directory = path.resolve(process.env.DEPLOY_DIR ?? path.join(root, '.deploy'));
  console.log(`Starting ${serverCommand(root).compiled ? 'the compiled server' : 'the server through tsx (run `npm run build` for the compiled one)'} in ${directory} …`);
  const deployment = await startLocalDeployment({
    root,
    directory,
    port,
    postgresUrl: process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
  console.log(`Limelight is running on ${deployment.url}`);
  console.log(`  RTMP ingest: ${deployment.rtmpUrl} (stream key from the dashboard)`);
  for (const instance of deployment.instances) console.log(`  ${instance.name.padEnd(7)} ${instance.role.padEnd(7)} ${instance.url}  (log: ${path.join(directory, 'logs', `${instance.name}.log`)})`);
  console.log(`  database: ${deployment.databaseUrl.replace(/\/\/[^@]*@/, '//')}`);
  const shutdown = () => {
    console.log('Stopping …');
    void deployment.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
