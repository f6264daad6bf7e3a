/**
 * The services some suites need besides Node: a PostgreSQL server, a Redis server (and the `redis-server`
 * program, for the suites that kill and restart their own), an ffmpeg for the ingest, Debian's nginx with njs
 * for the edge cache (decision 0066) (the journeys'
 * Chromium is the test command's own check, scripts/system-tools.ts). Asked once per run (the test command, each integration project's global setup); a suite that
 * needs one that is missing is skipped with the reason in its name, or, with CI=true, fails saying so
 * (decision 0053).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';
import pg from 'pg';
import { NGINX_PATH, NJS_MODULE } from '../platform/media/edge-config';
import { resolveFfmpegPath } from '../platform/media/ffmpeg-path';

export type Service = 'postgres' | 'redis' | 'redis-server' | 'ffmpeg' | 'nginx';

export const SERVICE_NAMES: Record<Service, string> = {
  postgres: 'PostgreSQL',
  redis: 'Redis',
  'redis-server': 'the redis-server program',
  ffmpeg: 'ffmpeg',
  nginx: 'nginx with njs',
};

/** Each missing service with why it is missing; a service that is there is not listed. */
export type AbsentServices = Partial<Record<Service, string>>;

type Env = Record<string, string | undefined>;

const PROBE_TIMEOUT_MS = 3_000;

const where = (url: string) => {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port}`;
};
const reason = (error: unknown) => (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));

async function postgresAbsence(env: Env): Promise<string | undefined> {
  const url = env.TEST_DATABASE_URL;
  if (!url) return 'TEST_DATABASE_URL is not set';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return `not reachable at ${where(url)} (${reason(error)})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A PING over a plain socket: no client library, no reconnect loop to stop. */
function redisAbsence(env: Env): Promise<string | undefined> {
  const url = env.TEST_REDIS_URL;
  if (!url) return Promise.resolve('TEST_REDIS_URL is not set');
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const end = (why: string | undefined) => {
      socket.destroy();
      resolve(why === undefined ? undefined : `not reachable at ${where(url)} (${why})`);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => end('no answer'));
    socket.once('error', (error) => end(reason(error)));
    socket.once('data', (data) => end(data.toString().startsWith('+PONG') ? undefined : data.toString().trim()));
    socket.connect(Number(port || 6379), hostname, () => socket.write('PING\r\n'));
  });
}

function programAbsence(command: string): string | undefined {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0 ? undefined : `${command} is not installed`;
}

function ffmpegAbsence(env: Env): string | undefined {
  try {
    const path = resolveFfmpegPath(env);
    return existsSync(path) ? undefined : `${path} not found`;
  } catch (error) {
    return reason(error);
  }
}

/** Debian's nginx and its njs module (apt-get install nginx libnginx-mod-http-js). */
export function edgeAbsence(): string | undefined {
  if (!existsSync(NGINX_PATH)) return `${NGINX_PATH} not found`;
  if (!existsSync(NJS_MODULE)) return `${NJS_MODULE} not found (libnginx-mod-http-js)`;
  return undefined;
}

/** Asks after each of `services`; answers the missing ones with why. */
export async function absentServices(services: readonly Service[], env: Env = process.env): Promise<AbsentServices> {
  const probes: Record<Service, () => Promise<string | undefined> | string | undefined> = {
    postgres: () => postgresAbsence(env),
    redis: () => redisAbsence(env),
    'redis-server': () => programAbsence('redis-server'),
    ffmpeg: () => ffmpegAbsence(env),
    nginx: () => edgeAbsence(),
  };
  const answers = await Promise.all(services.map(async (service) => [service, await probes[service]()] as const));
  return Object.fromEntries(answers.filter(([, why]) => why !== undefined));
}

/** "PostgreSQL: TEST_DATABASE_URL is not set; Redis: not reachable at …" for the missing ones among `services`. */
export function describeAbsence(absent: AbsentServices, services: readonly Service[] = Object.keys(absent) as Service[]): string {
  return services.filter((s) => absent[s]).map((s) => `${SERVICE_NAMES[s]}: ${absent[s]}`).join('; ');
}

/** Whether this run must fail rather than skip what it cannot run (CI sets CI=true). */
export const mustRunEverything = (env: Env = process.env) => env.CI === 'true' || env.CI === '1';
