/** Chat fan-out bench (bench/chat-fanout.ts), setup: settings, the server instances, the live channel, the client worker processes, the publishers' accounts. */
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { HttpSession } from '../server/testing/http-session';
import { publishTestPattern, type RunningPublisher } from '../server/testing/rtmp-publisher';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import type { WorkerCommand } from './chat-fanout-client';

export const QUICK = process.env.CHAT_QUICK === '1';
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
export const SOCKETS = num('CHAT_SOCKETS', QUICK ? 1000 : 10_000);
export const RATES = (process.env.CHAT_RATES ?? (QUICK ? '10,100' : '1,10,100')).split(',').map(Number);
export const EXTRA_STEPS = num('CHAT_EXTRA_STEPS', 0);
export const DOWN_STEPS = num('CHAT_DOWN_STEPS', 0);
export const SECONDS = num('CHAT_SECONDS', QUICK ? 8 : 20);
export const WARMUP = num('CHAT_WARMUP', QUICK ? 2 : 3);
export const WORKERS = num('CHAT_WORKERS', 2);
export const BATCH = num('CHAT_BATCH', 500);
export const PUBLISHER_RATE = num('CHAT_PUBLISHER_RATE', 0.5);
export const CONFIGS = (process.env.CHAT_CONFIGS ?? (QUICK ? 'one' : 'one,two')).split(',');
export const RTMP = process.env.CHAT_RTMP ?? 'auto';
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** After the window: wait for late deliveries while they still arrive (5 s without progress ends it). */
export const DRAIN_MS = 30_000;

/** Per line rate on the channel: nothing lost, every send acked, p99 within its bound (up to 10 lines/s 150 ms, above 500 ms). */
export const GOALS = { sockets: 10_000, p99MsUpTo10LinesPerSecond: 150, p99MsAbove: 500, lost: 0, twoInstanceSpeedup: 1.8 };
export const p99GoalMs = (rate: number) => (rate <= 10 ? GOALS.p99MsUpTo10LinesPerSecond : GOALS.p99MsAbove);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const now = () => performance.timeOrigin + performance.now();
export const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** The server as a child process (server/testing/server.ts); with CHAT_SERVER_PROFILE=<dir> under `node --cpu-prof`, writing its profile there when it stops. */
export function startInstance(env: Record<string, string>): Promise<ServerProcess> {
  const dir = process.env.CHAT_SERVER_PROFILE;
  return startServerProcess(env, { nodeArgs: dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [] });
}

/**
 * broadcaster1's stream set up and live on the instance at `base`, its channel open to anonymous
 * subscribers: when it refuses them before media arrives (CHAT_RTMP=auto), or with CHAT_RTMP=on, a
 * small ffmpeg test pattern is pushed to the ingest (stop it with the run).
 */
export async function openChannel(label: string, base: string): Promise<{ channel: string; rtmp: RunningPublisher | null }> {
  let rtmp: RunningPublisher | null = null;
  const broadcaster = await HttpSession.at(base).signIn('broadcaster1', DEMO_PASSWORD);
  const { stream } = await broadcaster.api<{ stream: { stream_id: number; rtmp_url: string; broadcast_key: string } }>('/api/streams/get-live-stream', {});
  await broadcaster.api('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Chat fan-out bench', audience: 'PUBLIC', rating: 'G' } });
  await broadcaster.api('/api/streams/go-live', { id: stream.stream_id });
  const channel = `stream:${stream.stream_id}`;
  const probe = async () => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
    const frame = await new Promise<{ op: string; code?: string; message?: string }>((resolve, reject) => {
      ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', channel })));
      ws.once('message', (d: Buffer) => resolve(JSON.parse(d.toString())));
      ws.once('error', reject);
    });
    ws.terminate();
    return frame;
  };
  let first = await probe();
  if (RTMP === 'on' || (RTMP === 'auto' && first.op !== 'subscribed')) {
    const ingest = stream.rtmp_url.replace(/\/$/, '');
    const url = ingest.endsWith(`/${stream.broadcast_key}`) ? ingest : `${ingest}/${stream.broadcast_key}`;
    console.log(`[${label}] anonymous subscribe answered ${first.op} ${first.code ?? ''}: publishing a small test pattern to ${url}`);
    // Small and slow: the encoder shares the 2 cores with the bench.
    rtmp = publishTestPattern({ url, width: 320, height: 180, fps: 10 });
    const deadline = Date.now() + 30_000;
    while ((first = await probe()).op !== 'subscribed' && Date.now() < deadline) await sleep(500);
  }
  if (first.op !== 'subscribed') throw new Error(`cannot subscribe to ${channel}: ${JSON.stringify(first)}`);
  return { channel, rtmp };
}

/** A new account signed up over HTTP (it is signed in: the answer sets its session cookie). */
export async function registered(base: string, username: string): Promise<HttpSession> {
  const session = HttpSession.at(base);
  const password = 'limelight-bench-pw';
  await session.api('/api/user/user-register', {
    username, email: `${username}@bench.local`, password, confirm_password: password,
    birthday: '15-06-1990', country: 'CA', terms_accepted: true,
  });
  return session;
}

// ---------------------------------------------------------------- client worker processes

export class Worker {
  private rid = 0;
  private readonly pending = new Map<number, (body: unknown) => void>();
  readonly child: ChildProcess;
  constructor() {
    const profile = process.env.CHAT_CLIENT_PROFILE;
    const execArgv = ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])];
    this.child = fork('bench/chat-fanout-client.ts', [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: { rid: number; body: unknown }) => {
      this.pending.get(m.rid)?.(m.body);
      this.pending.delete(m.rid);
    });
  }
  ask<T>(command: WorkerCommand): Promise<T> {
    const rid = ++this.rid;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(rid, resolve as (body: unknown) => void);
      this.child.once('exit', () => reject(new Error('client worker exited')));
      this.child.send({ ...command, rid });
    });
  }
}
