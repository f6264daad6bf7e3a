/** Shared bench helpers: start the real server as a child process, drive load, summarise latencies. */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A port nobody listens on now (for a second listener such as RTMP). */
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

/** `nodeArgs`: extra flags for node itself, such as `--cpu-prof` (not allowed in NODE_OPTIONS). */
export async function startServer(env: Record<string, string>, options: { nodeArgs?: string[] } = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-bench-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  // node itself (not npx) so that stopping the child stops the server.
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', CAPTCHA: 'off', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start');
    const ok = await new BenchClient(url).fetch('/readyz').then((r) => r.ok).catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('server did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface BenchResponse {
  status: number;
  ok: boolean;
  body: string;
}

// node:http with keep-alive costs far less CPU per request than fetch, so the load generator does
// not become the bottleneck on a 2-core machine.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** A browser-like session: cookies and the CSRF token. */
export class BenchClient {
  private cookies = new Map<string, string>();
  private token = '';
  constructor(private readonly base: string) {}

  fetch(pathname: string, init: { method?: string; body?: unknown } = {}): Promise<BenchResponse> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (init.method && init.method !== 'GET') headers['x-csrf-token'] = this.token;
    return new Promise((resolve, reject) => {
      const req = http.request(this.base + pathname, { method: init.method ?? 'GET', headers, agent }, (res) => {
        for (const cookie of res.headers['set-cookie'] ?? []) {
          const [pair] = cookie.split(';');
          const [name, value] = (pair ?? '').split('=');
          if (name && value !== undefined) this.cookies.set(name, value);
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({ status, ok: status >= 200 && status < 300, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  async init(): Promise<this> {
    const res = await this.fetch('/api/csrf-token');
    this.token = (JSON.parse(res.body) as { token: string }).token;
    return this;
  }
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `concurrency` loops of `request` for `seconds`; bounded in time and count. */
export async function load(concurrency: number, seconds: number, request: (worker: number) => Promise<boolean>): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < until && latencies.length < 2_000_000) {
        const t0 = performance.now();
        const ok = await request(worker).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds: Number(elapsed.toFixed(2)),
    perSecond: Math.round(latencies.length / elapsed),
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
  };
}

export function writeResult(name: string, result: unknown): void {
  mkdirSync('bench/results', { recursive: true });
  const file = path.join('bench/results', `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, at: new Date().toISOString(), cpus: os.cpus().length, ...(result as object) }, null, 2));
  console.log(JSON.stringify(result, null, 2));
  console.log(`written to ${file}`);
}
