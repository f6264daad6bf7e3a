/** Chat fan-out bench (bench/chat-fanout.ts), load: publishers sending COMMENTs at a rate, and one rate step measured. */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { ServerProcess } from '../server/testing/server';
import type { CollectReply } from './chat-fanout-client';
import { percentileOf, type Step } from './chat-fanout-report';
import { DRAIN_MS, now, p99GoalMs, round, SECONDS, sleep, WARMUP, type Worker } from './chat-fanout-setup';

// ---------------------------------------------------------------- process measurements

export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** User and system CPU seconds of a process (all its threads). */
export function cpuSeconds(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return { user: (f[11] ?? 0) / 100, system: (f[12] ?? 0) / 100 };
}

/** Nanoseconds the main thread spent waiting for a CPU while runnable (kernel schedstat). */
export function runQueueWaitNs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1] ?? 0);
}

export function machineBusy(): { busy: number; total: number } {
  const [cpu = ''] = readFileSync('/proc/stat', 'utf8').split('\n');
  const values = cpu.split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
}

/** The server's event-loop delay since the last scrape (prom-client resets its histogram per scrape). */
export async function eventLoopLagMs(base: string): Promise<{ p99: number; max: number } | null> {
  try {
    const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(30_000) })).text();
    const read = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? NaN) * 1000;
    return { p99: round(read('nodejs_eventloop_lag_p99_seconds')), max: round(read('nodejs_eventloop_lag_max_seconds')) };
  } catch {
    return null;
  }
}


// ---------------------------------------------------------------- publishers

export class Publisher {
  acked = new Set<number>();
  failed = new Map<number, string>();
  ackMs: number[] = [];
  private sentAt = new Map<number, number>();
  private constructor(private readonly ws: WebSocket, private readonly channel: string) {
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { op: string; id?: string; code?: string };
      if (frame.id === undefined) return;
      const seq = Number(frame.id);
      if (frame.op === 'ack') {
        this.acked.add(seq);
        this.ackMs.push(now() - (this.sentAt.get(seq) ?? now()));
      } else if (frame.op === 'error') this.failed.set(seq, frame.code ?? 'error');
      this.sentAt.delete(seq);
    });
  }

  static async open(base: string, cookie: string, channel: string): Promise<Publisher> {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { headers: { cookie }, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new Publisher(ws, channel);
  }

  send(seq: number) {
    const at = now();
    this.sentAt.set(seq, at);
    this.ws.send(JSON.stringify({ op: 'send', channel: this.channel, type: 'COMMENT', text: `b${seq}:${at.toFixed(2)}`, id: String(seq) }));
  }

  get outstanding() {
    return this.sentAt.size;
  }

  close() {
    this.ws.terminate();
  }
}

/** Sends `rate` messages/s round-robin over the publishers for `seconds`; answers the seq range sent. */
export async function publish(publishers: Publisher[], rate: number, seconds: number, firstSeq: number): Promise<{ from: number; to: number; seconds: number }> {
  const interval = 1000 / rate;
  const started = performance.now();
  const end = started + seconds * 1000;
  let next = started;
  let seq = firstSeq;
  while (next < end) {
    const t = performance.now();
    while (next <= t && next < end) {
      publishers[seq % publishers.length]!.send(seq);
      seq += 1;
      next += interval;
    }
    await sleep(Math.max(0, next - performance.now()));
  }
  return { from: firstSeq, to: seq, seconds: (performance.now() - started) / 1000 };
}

/** The processes and sockets of one configuration. */
export interface Load {
  servers: ServerProcess[];
  workers: Worker[];
  publishers: Publisher[];
}

/**
 * One rate step: a warm-up, then `rate` messages/s for the measured window from seq `firstSeq`, the
 * drain, and what the servers, the client workers and the machine did meanwhile. Answers the step
 * and the next free seq.
 */
export async function measureStep({ servers, workers, publishers }: Load, rate: number, firstSeq: number): Promise<{ step: Step; seq: number }> {
  const sockets = (await Promise.all(workers.map((w) => w.ask<CollectReply>({ cmd: 'collect', to: 0 })))).reduce((n, c) => n + c.openSockets, 0);
  // Warm-up, then the measured window; warm-up seqs are below the window.
  const warm = await publish(publishers, rate, WARMUP, firstSeq);
  let seq = warm.to;
  const maxSeqs = Math.ceil(rate * SECONDS * 1.1) + 100;
  await Promise.all(workers.map((w) => w.ask({ cmd: 'window', from: seq, maxSeqs })));
  await Promise.all(servers.map((x) => eventLoopLagMs(x.url)));
  const cpu0 = servers.map((s) => cpuSeconds(s.child.pid!));
  const windowStartedAt = now();
  const m0 = machineBusy();
  const wait0 = [...servers.map((x) => x.child.pid!), ...workers.map((w) => w.child.pid!)].map(runQueueWaitNs);
  const self0 = process.cpuUsage();
  for (const p of publishers) p.ackMs = [];
  const window = await publish(publishers, rate, SECONDS, seq);
  seq = window.to;
  const cpu1 = servers.map((s) => cpuSeconds(s.child.pid!));
  const m1 = machineBusy();
  const waitPct = [...servers.map((x) => x.child.pid!), ...workers.map((w) => w.child.pid!)].map((pid, i) => round(((runQueueWaitNs(pid) - wait0[i]!) / 1e9 / window.seconds) * 100));
  const self = process.cpuUsage(self0);
  const lag = await Promise.all(servers.map((x) => eventLoopLagMs(x.url)));

  // Drain: every ack (or error) in, every delivery in, or no progress for 2 s.
  const drainEnd = Date.now() + DRAIN_MS;
  while (publishers.some((p) => p.outstanding > 0) && Date.now() < drainEnd) await sleep(50);
  const acked = (s: number) => publishers[s % publishers.length]!.acked.has(s);
  let ackedCount = 0;
  for (let s = window.from; s < window.to; s += 1) if (acked(s)) ackedCount += 1;
  let last = -1;
  let lastChange = Date.now();
  while (Date.now() < drainEnd) {
    const got = (await Promise.all(workers.map((w) => w.ask<{ received: number }>({ cmd: 'progress', to: window.to })))).reduce((n, p) => n + p.received, 0);
    if (got >= ackedCount * sockets) break;
    if (got !== last) {
      last = got;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > 5000) break;
    await sleep(100);
  }
  const collected = await Promise.all(workers.map((w) => w.ask<CollectReply>({ cmd: 'collect', to: window.to })));
  const cpu2 = servers.map((s) => cpuSeconds(s.child.pid!));

  const hist = new Map<number, number>();
  let deliveries = 0;
  for (const c of collected) {
    deliveries += c.received;
    for (const [b, n] of c.histogram) hist.set(b, (hist.get(b) ?? 0) + n);
  }
  let lost = 0;
  const incomplete: string[] = [];
  for (let s = window.from; s < window.to; s += 1) {
    if (!acked(s)) continue;
    const got = collected.reduce((n, c) => n + (c.perSeq[s - window.from] ?? 0), 0);
    lost += Math.max(0, sockets - got);
    if (got < sockets && incomplete.length < 20) incomplete.push(`${s - window.from}:${got}`);
  }
  const sendErrors: Record<string, number> = {};
  for (const p of publishers) {
    for (const [s, code] of p.failed) if (s >= window.from && s < window.to) sendErrors[code] = (sendErrors[code] ?? 0) + 1;
  }
  const ackMs = publishers.flatMap((p) => p.ackMs).sort((x, y) => x - y);
  const step: Step = {
    rate,
    sockets,
    sent: window.to - window.from,
    acked: ackedCount,
    sendErrors,
    deliveries,
    framesPerSecond: Math.round(collected.reduce((n, c) => n + c.frames, 0) / window.seconds),
    deliveriesPerSecond: Math.round(deliveries / Math.max(window.seconds, (Math.max(...collected.map((c) => c.lastAt)) - windowStartedAt) / 1000)),
    p50Ms: round(percentileOf(hist, deliveries, 50)),
    p99Ms: round(percentileOf(hist, deliveries, 99)),
    maxMs: round(Math.max(...collected.map((c) => c.maxMs))),
    lost,
    incomplete,
    duplicates: collected.reduce((n, c) => n + c.duplicates, 0),
    droppedSockets: collected.reduce((n, c) => n + c.droppedSockets, 0),
    ackP99Ms: round(ackMs[Math.min(ackMs.length - 1, Math.floor(0.99 * ackMs.length))] ?? 0),
    serverCpuPctOfCore: servers.map((_, i) => round(((cpu1[i]!.user + cpu1[i]!.system - cpu0[i]!.user - cpu0[i]!.system) / window.seconds) * 100)),
    serverSystemCpuPctOfCore: servers.map((_, i) => round(((cpu1[i]!.system - cpu0[i]!.system) / window.seconds) * 100)),
    serverEventLoopLagMs: lag,
    clientCpuPctOfCore: collected.map((c) => round((c.cpuSeconds / c.seconds) * 100)),
    clientEventLoopUtilization: collected.map((c) => round(c.eventLoopUtilization, 2)),
    serverRunQueueWaitPct: waitPct.slice(0, servers.length),
    clientRunQueueWaitPct: waitPct.slice(servers.length),
    serverCpuUsPerDelivery: round((cpu2.reduce((n, c, i) => n + c.user + c.system - cpu0[i]!.user - cpu0[i]!.system, 0) / Math.max(1, deliveries)) * 1e6, 2),
    clientCpuUsPerDelivery: round((collected.reduce((n, c) => n + c.cpuSeconds, 0) / Math.max(1, deliveries)) * 1e6, 2),
    machineCpuPct: round(((m1.busy - m0.busy) / (m1.total - m0.total)) * 100),
    otherProcessesCpuPctOfCore: 0,
    met: false,
  };
  const cores = os.availableParallelism();
  const ours = cpu1.reduce((n, c, i) => n + c.user + c.system - cpu0[i]!.user - cpu0[i]!.system, 0) + collected.reduce((n, c) => n + (c.cpuSeconds / c.seconds) * window.seconds, 0) + (self.user + self.system) / 1e6;
  step.otherProcessesCpuPctOfCore = round(Math.max(0, (step.machineCpuPct / 100) * cores - ours / window.seconds) * 100);
  step.met = lost === 0 && ackedCount === step.sent && step.p99Ms <= p99GoalMs(rate);
  return { step, seq };
}
