/**
 * A whole deployment on this machine, as an operator would run one: a new PostgreSQL database, Redis,
 * an S3-compatible store (the s3rver stand-in), two API instances, one media instance (the RTMP ingest), one worker (the jobs), and nginx as the public
 * entry with the edge cache for media. Every instance runs in production mode with a data directory of
 * its own, and shares the database, the bus and the store.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startInstance, type Instance, type Role } from './instances';
import { claimPort } from '../../server/platform/media/free-port';
import { startEdgeNginx, type EdgeNginx } from '../../server/platform/media/edge-nginx';
import { startS3Server, type TestS3Server } from '../../server/testing/s3-server';

export interface DeploymentOptions {
  /** The project's checkout (the compiled server or its sources). */
  root: string;
  /** Where the deployment keeps its files, logs and nginx's state. */
  directory: string;
  /** A PostgreSQL server to create the deployment's database on (any database there to connect to first). */
  postgresUrl: string;
  redisUrl: string;
  /** nginx's port (0: any free one). */
  port?: number;
  /** Settings every instance gets on top of the deployment's own. */
  env?: Record<string, string>;
}

export interface LocalDeployment {
  /** The public entry (nginx). */
  url: string;
  /** Where OBS publishes: the media instance's ingest. */
  rtmpUrl: string;
  databaseUrl: string;
  /** The S3 stand-in every instance stores media in. */
  store: TestS3Server;
  instances: Instance[];
  instance(name: string): Instance;
  stop(): Promise<void>;
}

async function createDatabase(postgresUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function startLocalDeployment(options: DeploymentOptions): Promise<LocalDeployment> {
  const suffix = randomBytes(4).toString('hex');
  const logs = path.join(options.directory, 'logs');
  mkdirSync(logs, { recursive: true });
  // nginx's workers (nobody) reach their cache through it, whoever made it (a temporary folder is 0700).
  chmodSync(options.directory, 0o755);
  const store = await startS3Server(`limelight-${suffix}`);
  const databaseUrl = await createDatabase(options.postgresUrl, `limelight_${suffix}`);
  const rtmpPort = await claimPort('127.0.0.1', 0);
  const port = options.port || (await claimPort('127.0.0.1', 0));
  const shared: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: `limelight-${suffix}`,
    ...store.env,
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RTMP_PORT: String(rtmpPort),
    RTMP_PUBLIC_URL: `rtmp://127.0.0.1:${rtmpPort}/live`,
    // nginx is the one proxy in front: the client's address is the one it saw.
    TRUST_PROXY: '1',
    // Shared with nginx, which checks playback tokens at the edge (decision 0066).
    PLAYBACK_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'info',
    ...options.env,
  };
  const started: Instance[] = [];
  let nginx: EdgeNginx | undefined;
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(started.map((instance) => instance.stop()));
    await store.close();
  };
  try {
    const plan: Array<[string, Role]> = [['media', 'media'], ['api-1', 'api'], ['api-2', 'api'], ['worker', 'worker']];
    // The first instance applies the migrations; the others start on the migrated database together.
    const [first, ...rest] = plan;
    const start = async ([name, role]: [string, Role]) =>
      startInstance(options.root, name, role, await claimPort('127.0.0.1', 0), { ...shared, DATA_DIR: path.join(options.directory, 'data', name) }, logs);
    started.push(await start(first!));
    started.push(...(await Promise.all(rest.map(start))));
    nginx = await startEdgeNginx({
      directory: path.join(options.directory, 'nginx'),
      port,
      upstreams: started.filter((instance) => instance.role === 'api').map((instance) => `127.0.0.1:${instance.port}`),
      playbackSecret: shared.PLAYBACK_SECRET!,
      cacheMax: '1g',
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: nginx.url,
    rtmpUrl: shared.RTMP_PUBLIC_URL!,
    databaseUrl,
    store,
    instances: started,
    instance(name) {
      const found = started.find((instance) => instance.name === name);
      if (!found) throw new Error(`no instance ${name}`);
      return found;
    },
    stop,
  };
}
