/**
 * Shared bench helpers: drive load, summarise latencies, write results. The server itself starts
 * with server/testing/server.ts (startServerProcess) and is called with server/testing/http-session.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../server/testing/server';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const round = (n: number, digits = 0) => Number(n.toFixed(digits));

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface LatencySummary {
  count: number;
  medianMs: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Median, p90, p99 and worst of `samples` (milliseconds, to 0.1 ms). */
export function latencySummary(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => round(percentile(sorted, p), 1);
  return { count: sorted.length, medianMs: at(50), p90Ms: at(90), p99Ms: at(99), maxMs: round(sorted.at(-1) ?? 0, 1) };
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

/** What `work` answered, and how long it took in seconds. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const t0 = process.hrtime.bigint();
  const value = await work();
  return { value, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
}

export function writeResult(name: string, result: unknown): void {
  mkdirSync('bench/results', { recursive: true });
  const file = path.join('bench/results', `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, at: new Date().toISOString(), cpus: os.cpus().length, ...(result as object) }, null, 2));
  console.log(JSON.stringify(result, null, 2));
  console.log(`written to ${file}`);
}

/** CPU seconds a process has used (user + system), from /proc: what the neighbours' load does not change much. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds used so far by every PostgreSQL process on this machine (the server's backends among them). */
export function databaseCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes('(postgres)')) total += cpuSeconds(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return total;
}

/** Waits until the process has been nearly idle for a second (the demo's history is written after it answers). */
export async function settled(pid: number) {
  const until = Date.now() + 180_000;
  let quiet = 0;
  while (quiet < 2 && Date.now() < until) {
    const before = cpuSeconds(pid);
    await sleep(500);
    quiet = cpuSeconds(pid) - before < 0.05 ? quiet + 1 : 0;
  }
}

export interface HelloWorld {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A bare Fastify hello-world (bench/hello-world.ts) in its own process: the reference read benchmarks measure beside. */
export async function startHelloWorld(): Promise<HelloWorld> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/hello-world.ts', String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  while (!(await fetch(url).then((r) => r.ok).catch(() => false))) await sleep(100);
  return {
    url,
    pid: child.pid!,
    stop: () => new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** A 10 s 720p30 H.264/AAC FLV at ~2.5 Mbit/s with 1 s keyframes, encoded once and reused. */
export function preEncoded720p(ffmpegPath: string): string {
  const file = path.join(os.tmpdir(), 'll-bench-720p-v1.flv');
  if (existsSync(file)) return file;
  // prettier-ignore
  const r = spawnSync(ffmpegPath, [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '10',
    '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '2500k', '-maxrate', '2500k', '-bufsize', '5000k',
    '-g', '30', '-keyint_min', '30', '-sc_threshold', '0', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k',
    '-f', 'flv', file,
  ], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('could not encode the bench input');
  return file;
}
