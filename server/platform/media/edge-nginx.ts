/**
 * Debian's nginx run in the foreground as the edge cache (decision 0066), its configuration rendered from
 * deploy/nginx/limelight.conf into `directory` (with `cache/` and `state/` beside it): for the local
 * deployment (scripts/deploy), the edge's tests and its bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { NGINX_PATH, renderEdgeConfig } from './edge-config';

export interface EdgeNginxOptions {
  /** The folder for the configuration, the cache and nginx's state (made when missing). */
  directory: string;
  port: number;
  /** The API instances, host:port each. */
  upstreams: string[];
  /** The instances' PLAYBACK_SECRET: the edge checks playback tokens with it. */
  playbackSecret: string;
  cacheMax?: string;
}

export interface EdgeNginx {
  url: string;
  process: ChildProcess;
  /** nginx's complaints so far (its error log). */
  errors(): string;
  stop(): Promise<void>;
}

const answers = (port: number) => new Promise<boolean>((resolve) => {
  const socket = net.connect(port, '127.0.0.1', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});

export async function startEdgeNginx(o: EdgeNginxOptions): Promise<EdgeNginx> {
  const [cacheDir, stateDir] = [path.join(o.directory, 'cache'), path.join(o.directory, 'state')];
  for (const folder of [cacheDir, stateDir]) mkdirSync(folder, { recursive: true });
  // Started as root, nginx's workers run as nobody: they write the cache and the temporary files.
  for (const folder of [o.directory, cacheDir, stateDir]) chmodSync(folder, 0o777);
  const file = path.join(o.directory, 'nginx.conf');
  writeFileSync(file, renderEdgeConfig({ listen: `127.0.0.1:${o.port}`, upstreams: o.upstreams, cacheDir, stateDir, workers: 1, ...(o.cacheMax ? { cacheMax: o.cacheMax } : {}) }), { mode: 0o644 });
  const child = spawn(NGINX_PATH, ['-c', file, '-p', stateDir, '-e', path.join(stateDir, 'error.log'), '-g', 'daemon off;'], {
    env: { PATH: process.env.PATH ?? '', PLAYBACK_SECRET: o.playbackSecret },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.once('error', (error) => (stderr += `${error.message}\n`));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const log = path.join(stateDir, 'error.log');
  const errors = () => stderr + (existsSync(log) ? readFileSync(log, 'utf8') : '');
  while (!(await answers(o.port))) {
    if (child.exitCode !== null || child.pid === undefined) throw new Error(`nginx did not start: ${errors()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${o.port}`,
    process: child,
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
