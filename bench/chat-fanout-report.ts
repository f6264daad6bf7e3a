/** Chat fan-out bench (bench/chat-fanout.ts), report: the cost model, percentiles, each configuration's summary and the result file. */
import os from 'node:os';
import { BUCKET_MS } from './chat-fanout-client';
import { GOALS, PUBLISHER_RATE, QUICK, RATES, EXTRA_STEPS, round, SECONDS, SOCKETS, WARMUP, WORKERS } from './chat-fanout-setup';
import { writeResult } from './lib';

/**
 * What the measured CPU cost per delivery implies on this machine had it nothing else to run (a model,
 * not a measurement): an instance is one JS thread (≤ 1 core), and the load generator shares the cores.
 * fanoutSpreadMs is how long one message takes to be written to all of an instance's sockets in its
 * synchronous loop: the last socket waits that long, so p99 cannot be below ~0.99 × it.
 */
export function projection(steps: Step[], instances: number, sockets: number) {
  const costed = steps.filter((s) => s.deliveries > 0);
  if (costed.length === 0) return null;
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const serverUs = median(costed.map((s) => s.serverCpuUsPerDelivery));
  const clientUs = median(costed.map((s) => s.clientCpuUsPerDelivery));
  const cores = os.availableParallelism();
  return {
    serverCpuUsPerDelivery: serverUs,
    clientCpuUsPerDelivery: clientUs,
    fanoutSpreadMs: round(((sockets / instances) * serverUs) / 1000),
    maxDeliveriesPerSecondServerOnly: Math.round((Math.min(instances, cores) * 1e6) / serverUs),
    maxDeliveriesPerSecondWithClientOnSameCores: Math.round(Math.min((Math.min(instances, cores) * 1e6) / serverUs, (cores * 1e6) / (serverUs + clientUs))),
  };
}

export interface Step {
  rate: number;
  sockets: number;
  sent: number;
  acked: number;
  sendErrors: Record<string, number>;
  deliveries: number;
  /** Frames carrying the window's lines received per second over all sockets: the server's writes. */
  framesPerSecond: number;
  /** Deliveries over the time from the window's first send to its last receipt. */
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  lost: number;
  /** The first lines (offset in the window:sockets that got it) not every socket received. */
  incomplete: string[];
  duplicates: number;
  droppedSockets: number;
  ackP99Ms: number;
  serverCpuPctOfCore: number[];
  /** The part of serverCpuPctOfCore spent in the kernel (socket writes; on loopback they include the receivers' TCP work). */
  serverSystemCpuPctOfCore: number[];
  /** Per instance, from its /metrics over the window. */
  serverEventLoopLagMs: ({ p99: number; max: number } | null)[];
  clientCpuPctOfCore: number[];
  clientEventLoopUtilization: number[];
  /** Share of the window the main thread was runnable but waiting for a CPU (/proc/<pid>/schedstat). */
  serverRunQueueWaitPct: number[];
  clientRunQueueWaitPct: number[];
  /** CPU time per delivery over the window (contention changes it little): the cost model of a fan-out. */
  serverCpuUsPerDelivery: number;
  clientCpuUsPerDelivery: number;
  machineCpuPct: number;
  /** Machine CPU not used by the servers, the client workers or this process (other work on the machine). */
  otherProcessesCpuPctOfCore: number;
  /** Goals held: every message acked, nothing lost, p99 within the goal. */
  met: boolean;
}

export function percentileOf(hist: Map<number, number>, total: number, p: number): number {
  const target = Math.ceil((p / 100) * total);
  let seen = 0;
  for (const [bucket, count] of [...hist].sort((a, b) => a[0] - b[0])) {
    seen += count;
    if (seen >= target) return (bucket + 1) * BUCKET_MS;
  }
  return 0;
}

/** What one configuration measured, as reported. */
export function summariseConfig(run: {
  label: string;
  instances: number;
  backend: 'postgres' | 'embedded';
  rtmpPublisher: boolean;
  publishers: number;
  connected: number;
  connectSeconds: number;
  connectErrors: Record<string, number>;
  rssBefore: number[];
  rssAfter: number[];
  rssAfterSteps: number[];
  rssPerSocketKb: number[];
  steps: Step[];
}) {
  const { label, instances, backend, connected, connectSeconds, connectErrors, rssBefore, rssAfter, rssAfterSteps, rssPerSocketKb, steps } = run;
  const best = (ok: (s: Step) => boolean) => {
    const s = steps.filter(ok).sort((x, y) => y.deliveriesPerSecond - x.deliveriesPerSecond)[0];
    return s ? { rate: s.rate, deliveriesPerSecond: s.deliveriesPerSecond, p50Ms: s.p50Ms, p99Ms: s.p99Ms } : null;
  };
  return {
    label,
    instances,
    backend: backend === 'postgres' ? 'PostgreSQL + Redis' : 'PGlite + in-process bus',
    rtmpPublisher: run.rtmpPublisher,
    publishers: run.publishers,
    socketsRequested: SOCKETS,
    socketsConnected: connected,
    connectSeconds: round(connectSeconds),
    connectErrors,
    /** Per instance: before the sockets, 2 s after they subscribed, and after the rate steps (garbage included: RSS, not heap). */
    serverRssMb: { before: rssBefore.map((b) => round(b / 1048576)), after: rssAfter.map((b) => round(b / 1048576)), afterSteps: rssAfterSteps.map((b) => round(b / 1048576)) },
    rssPerSocketKb,
    /** Every goal of a step held: nothing lost, every send acked, p99 ≤ the goal. */
    highestRateHeld: best((s) => s.met),
    /** Nothing lost and every send acked, whatever the latency. */
    highestRateWithoutLoss: best((s) => s.lost === 0 && s.acked === s.sent && s.droppedSockets === 0),
    projection: projection(steps, instances, connected),
    steps,
  };
}

/** The result of every configuration against the goals, written to bench/results/chat-fanout(-quick).json. */
export function writeReport(runs: Array<ReturnType<typeof summariseConfig>>, started: number, loadAverageAtStart: number[]): void {
  const best = (label: string) => runs.find((r) => r.label === label)?.highestRateHeld?.deliveriesPerSecond;
  const one = best('one instance');
  const two = best('two instances');
  const lossless = (label: string) => runs.find((r) => r.label === label)?.highestRateWithoutLoss?.deliveriesPerSecond;
  const oneLossless = lossless('one instance');
  const twoLossless = lossless('two instances');
  const full = runs.every((r) => r.socketsConnected >= GOALS.sockets);
  const speedup = one && two ? round(two / one, 2) : null;
  writeResult(QUICK ? 'chat-fanout-quick' : 'chat-fanout', {
    quick: QUICK,
    goals: GOALS,
    goalsMet: {
      sockets: full,
      /** Per configuration and line rate: nothing lost, every send acked, p99 within the rate's goal. */
      perRate: Object.fromEntries(runs.map((r) => [r.label, Object.fromEntries(r.steps.map((s) => [s.rate, full && s.met]))])),
      twoInstanceSpeedup: speedup === null ? null : speedup >= GOALS.twoInstanceSpeedup,
    },
    twoInstanceSpeedup: speedup,
    /** The same ratio on the highest rates without loss (latency aside). */
    twoInstanceSpeedupWithoutLoss: oneLossless && twoLossless ? round(twoLossless / oneLossless, 2) : null,
    settings: { sockets: SOCKETS, rates: RATES, extraSteps: EXTRA_STEPS, seconds: SECONDS, warmupSeconds: WARMUP, clientWorkers: WORKERS, clientParse: process.env.CHAT_PARSE === 'json' ? 'JSON.parse' : 'indexOf', publisherRate: PUBLISHER_RATE },
    loadAverageAtStart,
    maxOtherProcessesCpuPctOfCore: Math.max(0, ...runs.flatMap((r) => r.steps.map((s) => s.otherProcessesCpuPctOfCore))),
    note: 'Server(s), client workers and publishers share the machine; otherProcessesCpuPctOfCore is CPU taken by work outside this bench during each window (figures are not representative when it is large).',
    runs,
    totalSeconds: Math.round((Date.now() - started) / 1000),
  });
}
