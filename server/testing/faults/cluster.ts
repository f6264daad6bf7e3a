/**
 * The fault suite's platform: two server processes (every role: API, realtime, jobs, media) on one fresh
 * PostgreSQL database, sharing a `redis-server` of the suite's own on its own port. Each instance keeps its
 * data dir and RTMP port across restarts; its HTTP port is new at every start (viewers look it up).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, killRedis, startRedis } from '../redis-server';
import { startServerProcess, type ServerProcess } from '../server';

export type InstanceName = 'A' | 'B';

export interface Instance {
  name: InstanceName;
  dataDir: string;
  rtmpPort: number;
  process: ServerProcess | null;
}

export interface ClusterOptions {
  databaseUrl: string;
  /** Small timeouts, so that the lock and statement faults are short. */
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  graceMs: number;
}

export class Cluster {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'll-faults-'));
  readonly instances: Record<InstanceName, Instance>;
  redis: ChildProcess | null = null;
  redisPort = 0;

  private constructor(private readonly o: ClusterOptions, ports: [number, number]) {
    const instance = (name: InstanceName, rtmpPort: number): Instance => {
      const dataDir = path.join(this.root, name);
      mkdirSync(dataDir, { recursive: true });
      return { name, dataDir, rtmpPort, process: null };
    };
    this.instances = { A: instance('A', ports[0]), B: instance('B', ports[1]) };
  }

  static async start(o: ClusterOptions): Promise<Cluster> {
    const cluster = new Cluster(o, [await freePort(), await freePort()]);
    cluster.redisPort = await freePort();
    await cluster.startRedis();
    // A first, alone: it migrates the database and seeds the demo; B joins it.
    await cluster.startInstance('A', { SEED_DEMO: 'on' });
    await cluster.startInstance('B');
    return cluster;
  }

  async startRedis(): Promise<void> {
    this.redis = await startRedis(this.redisPort);
  }

  async killRedis(): Promise<void> {
    if (this.redis) await killRedis(this.redis);
    this.redis = null;
  }

  /** The instance's log file (its stderr), kept under the suite's folder. */
  logOf(name: InstanceName): string {
    return path.join(this.root, `${name}.log`);
  }

  async startInstance(name: InstanceName, env: Record<string, string> = {}): Promise<ServerProcess> {
    const instance = this.instances[name];
    instance.process = await startServerProcess({
      DATABASE_URL: this.o.databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${this.redisPort}`,
      RTMP_PORT: String(instance.rtmpPort),
      RTMP_GRACE_MS: String(this.o.graceMs),
      DATABASE_STATEMENT_TIMEOUT_MS: String(this.o.statementTimeoutMs),
      DATABASE_LOCK_TIMEOUT_MS: String(this.o.lockTimeoutMs),
      SEED_DEMO: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    }, { dataDir: instance.dataDir, logFile: this.logOf(name) });
    return instance.process;
  }

  url(name: InstanceName): string {
    const url = this.instances[name].process?.url;
    if (!url) throw new Error(`instance ${name} is not running`);
    return url;
  }

  rtmp(name: InstanceName): string {
    return `rtmp://127.0.0.1:${this.instances[name].rtmpPort}/live`;
  }

  /** The base URLs of the instances whose process runs. */
  running(): string[] {
    return (['A', 'B'] as const).filter((name) => this.alive(name)).map((name) => this.instances[name].process!.url);
  }

  alive(name: InstanceName): boolean {
    const child = this.instances[name].process?.child;
    return Boolean(child && child.exitCode === null && child.signalCode === null);
  }

  /** How it ended when it ended by itself (null: running, or stopped by the suite). */
  exitOf(name: InstanceName): string | null {
    const child = this.instances[name].process?.child;
    if (!child || (child.exitCode === null && child.signalCode === null)) return null;
    return String(child.exitCode ?? child.signalCode);
  }

  async kill(name: InstanceName): Promise<void> {
    const running = this.instances[name].process;
    if (!running) return;
    running.child.kill('SIGKILL');
    await running.exited;
    this.instances[name].process = null;
  }

  /** SIGTERM: the graceful stop of a deploy. */
  async stop(name: InstanceName): Promise<void> {
    const running = this.instances[name].process;
    if (!running) return;
    await running.stop();
    this.instances[name].process = null;
  }

  /** Everything ended; the data dirs removed, and the logs too unless `keepLogs`. */
  async close(options: { keepLogs?: boolean } = {}): Promise<void> {
    await Promise.all((['A', 'B'] as const).map((name) => this.kill(name)));
    await this.killRedis();
    if (!options.keepLogs) rmSync(this.root, { recursive: true, force: true });
    else for (const name of ['A', 'B'] as const) rmSync(this.instances[name].dataDir, { recursive: true, force: true });
  }
}
