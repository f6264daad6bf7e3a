/**
 * Starting the real server for tests, journeys, scripts and benchmarks, on one set of defaults (no
 * captcha, quiet log, a fresh data dir): in this process (`openApp` for inject-only integration tests,
 * `startServer` listening on a free port for browser journeys), or as a child process
 * (`startServerProcess`: `node --import tsx server/main.ts`, for load that must not share the
 * server's CPU, profiles, and kill -9; or the production build, `node dist/server/main.js`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { openResources, type OpenedResources } from '../bootstrap';
import { loadConfig } from '../config';
import { DEMO_PASSWORD, seedDemoData } from '../demo/demo-data';
import { seedDemoHistory } from '../demo/demo-history';
import { seedDemoMeetings } from '../demo/demo-meetings';
import { freshDatabase, type DatabaseTemplate } from './databases';

const WEB_DIST = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** The defaults every started server shares; `env` overrides them (a child process's: undefined leaves a variable unset). */
function serverEnv<T extends string | undefined>(dataDir: string, env: Record<string, T>): Record<string, string | T> {
  return {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    CAPTCHA: 'off',
    LOG_LEVEL: 'warn',
    // Every request of a test or a load comes from one address; the limit itself is tested with a small value.
    SIGNUPS_PER_ADDRESS: '100000',
    WS_MAX_PER_ADDRESS: '100000',
    WS_MAX_PER_USER: '100000',
    // Also on PostgreSQL, where a deployment would default to neither: tests read mail and pay with test cards.
    MAIL_OUTBOX: 'on',
    PAYMENTS: 'sandbox',
    ...env,
  };
}

/** A port nobody listens on now (for a second listener such as RTMP). */
/** Whether something accepts TCP connections on this loopback port (an RTMP ingest once its start-up sweep is done). */
export const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface OpenedApp {
  app: FastifyInstance;
  resources: OpenedResources;
  close(): Promise<void>;
}

/**
 * The app built on `dataDir` (ready, not listening; nothing seeded unless SEED_DEMO is on and `demo`
 * asked; `demoCall` adds the demo's video call, whose invitees then follow its host; `demoHistory` the
 * demo's months of tips, views, follows and referrals, without replays).
 */
export async function openApp(dataDir: string, env: Record<string, string> = {}, options: { demo?: boolean; demoCall?: boolean; demoHistory?: boolean } = {}): Promise<OpenedApp> {
  const resources = await openResources(loadConfig(serverEnv(dataDir, { RTMP_PORT: '0', SEED_DEMO: 'off', ...env })));
  const app = await buildApp(resources);
  if (options.demo) {
    const accounts = await seedDemoData({ db: resources.database.db, ...app.services }, { adminPassword: DEMO_PASSWORD });
    const byName = new Map(accounts.map((a) => [a.username, a.userId]));
    if (options.demoCall) await seedDemoMeetings(app.services, byName);
    if (options.demoHistory) await seedDemoHistory({ db: resources.database.db, services: app.services }, byName, new Map());
  }
  await app.ready();
  return {
    app,
    resources,
    async close() {
      await app.close();
      await resources.close();
    },
  };
}

export interface RunningServer {
  url: string;
  /** The RTMP ingest address (`rtmp://…/live`) when started with `media`. */
  rtmpUrl: string | null;
  /** The app's services, for a journey that runs a job at a moment of its choosing (the renewals after a trial). */
  services: FastifyInstance['services'];
  close(): Promise<void>;
}

/**
 * A real listening server in this process for browser journeys: a fresh database, demo data, built web
 * app. `databaseTemplate`: a migrated database (server/testing/databases.ts) the fresh one is copied from,
 * so that migrations do not run again — an embedded data dir, or a PostgreSQL template database.
 */
export async function startServer(options: { captcha?: boolean; env?: Record<string, string>; media?: boolean; demoCall?: boolean; demoHistory?: boolean; databaseTemplate?: DatabaseTemplate } = {}): Promise<RunningServer> {
  const fresh = options.databaseTemplate ? await freshDatabase(options.databaseTemplate) : null;
  const dataDir = fresh?.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'll-e2e-'));
  const database: Record<string, string> = fresh?.target.kind === 'postgres' ? { DATABASE_URL: fresh.target.url } : {};
  const { app, close } = await openApp(dataDir, { CAPTCHA: options.captcha ? 'altcha' : 'off', WEB_DIST, ...database, ...options.env }, { demo: true, demoCall: options.demoCall ?? false, demoHistory: options.demoHistory ?? false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  await app.services.transcodes.start();
  if (options.media) {
    await app.services.media.start();
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    rtmpUrl: options.media ? `rtmp://127.0.0.1:${app.services.media.ingest.port}/live` : null,
    services: app.services,
    async close() {
      await close();
      if (fresh) await fresh.dispose();
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What it printed on stdout so far (empty unless started with `captureStdout`). */
  stdout(): string;
  /** Resolves when the process has ended (however it ended). */
  exited: Promise<void>;
  /** Milliseconds from the spawn to the first `/readyz` answering 200 (polled every 20 ms). */
  readyAfterMs: number;
  /** SIGTERM (a clean shutdown), then the data dir is removed unless it was given. */
  stop(): Promise<void>;
}

/**
 * The server as a child process on a free port, ready (`/readyz` answers) when this resolves.
 * `dataDir`: kept after stop (a restart continues on it); else a fresh one, removed on stop.
 * `nodeArgs`: flags for node itself, such as `--cpu-prof` (not allowed in NODE_OPTIONS). `logFile`: its log
 * (stdout and stderr) appended there rather than to this process's stderr. `captureStdout`: keep what it
 * prints (`stdout()`), e.g. to read its log. `readyMs`: how long it may take to start (60 s). `compiled`: a
 * production build of the server to run (scripts/build-server.ts's output) rather than the sources through tsx;
 * by default the one TEST_SERVER_BUILD names (`npm test` builds one for the run: half the CPU of a start).
 */
export async function startServerProcess(env: Record<string, string | undefined> = {}, options: { dataDir?: string; nodeArgs?: string[]; logFile?: string; captureStdout?: boolean; readyMs?: number; compiled?: string } = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'll-server-'));
  const port = await freePort();
  const logFd = options.logFile ? openSync(options.logFile, 'a') : null;
  // node itself (not npx) so that stopping the child stops the server.
  const compiled = options.compiled ?? process.env.TEST_SERVER_BUILD;
  const program = compiled ? [compiled] : ['--import', 'tsx', 'server/main.ts'];
  // The run's build stands in for the sources: it starts as they would (the bundle alone defaults to production).
  const asSources: Record<string, string> = options.compiled === undefined && compiled !== undefined ? { NODE_ENV: process.env.NODE_ENV ?? 'development' } : {};
  const childEnv = { ...process.env, ...serverEnv(dataDir, { PORT: String(port), RTMP_PORT: String(await freePort()), ...asSources, ...env }) };
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...program], {
    env: childEnv,
    stdio: ['ignore', options.captureStdout ? 'pipe' : (logFd ?? 'ignore'), logFd ?? 'inherit'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  if (logFd !== null) closeSync(logFd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('server exited during start');
    const ok = await fetch(`${url}/readyz`).then((r) => r.ok).catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not become ready');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const readyAfterMs = Math.round(performance.now() - started);
  return {
    url,
    child,
    stdout: () => printed,
    exited,
    readyAfterMs,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
