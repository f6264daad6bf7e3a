/**
 * RTMP ingest: seconds from publish to the first playable HLS segment, CPU per remuxed stream, and how
 * many concurrent 720p ingests the machine holds. The ingest runs in this process (node-media-server
 * relays in JS here); publishers are ffmpeg pushing a pre-encoded 720p FLV with -c copy, so they cost
 * little. Goals on the 2-core machine: first segment ≤ 2 s with 1 s keyframes; ≥ 50 concurrent remuxes.
 * Loopback only; bounded in time (< 3 min) and count.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { killFfmpeg, runFfmpeg, type FfmpegRun } from '../server/platform/media/ffmpeg-process';
import { readPlaylist } from '../server/platform/media/hls-playlist';
import { createMediaServer } from '../server/platform/media/media-server';
import { createLocalFileStore } from '../server/platform/storage/storage';
import { loneIngestLeases } from '../server/testing/lone-ingest-leases';
import { publishTestPattern } from '../server/testing/rtmp-publisher';
import { percentile, preEncoded720p, writeResult } from './lib';

const FFMPEG = resolveFfmpegPath();
const MAX_STREAMS = Number(process.env.BENCH_MAX_STREAMS ?? 80);
const STEP = 10;
const DEADLINE = Date.now() + 150_000;
const LATENCY_LIMIT_S = 4;
const LAG_LIMIT_S = 3;
/** The publishers share the machine in this bench: the ingest's own share (of all cores) is what must fit. */
const INGEST_CPU_LIMIT_PCT = 85;
const CLK_TCK = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined || Date.now() > end) return value;
    await sleep(50);
  }
}

/** CPU seconds (user + system) of our child processes whose command line matches. */
function childCpuSeconds(match: string): { seconds: number; count: number } {
  let ticks = 0;
  let count = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid) continue;
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(match)) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
      count += 1;
    } catch {
      // the process exited between listing and reading
    }
  }
  return { seconds: ticks / CLK_TCK, count };
}

/** This process plus its exited children (the thumbnail grabs), from /proc/self/stat. */
function selfCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return ((f[11] ?? 0) + (f[12] ?? 0) + (f[13] ?? 0) + (f[14] ?? 0)) / CLK_TCK;
}

function machineBusy(): { busy: number; total: number } {
  const [cpu = ''] = readFileSync('/proc/stat', 'utf8').split('\n');
  const values = cpu.split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
}

async function main() {
  const input = preEncoded720p(FFMPEG);
  const root = mkdtempSync(path.join(os.tmpdir(), 'll-bench-ingest-'));
  const files = createLocalFileStore(root);
  const startedAt = new Map<number, number>();
  const liveAt = new Map<number, number>();
  const playlists = new Map<number, string>();
  const media = createMediaServer({
    config: { host: '127.0.0.1', rtmpPort: 0 },
    files,
    liveDir: root,
    log: pino({ level: 'warn' }),
    secret: 'bench',
    thumbnailEveryMs: 10_000,
    callbacks: {
      canPublish: (key) => /^bench-\d+$/.test(key),
      startBroadcast: async (key) => {
        const streamId = Number(key.slice(6));
        startedAt.set(streamId, performance.now());
        return { streamId };
      },
      onLive: async (e) => {
        liveAt.set(e.streamId, performance.now());
        playlists.set(e.streamId, e.playlistKey);
      },
      onThumbnail: async () => {},
      onEnded: async () => {},
      ...loneIngestLeases(),
    },
  });
  await media.start();
  const url = (id: number) => `rtmp://127.0.0.1:${media.ingest.port}/live/bench-${id}`;
  const latency = (id: number) => ((liveAt.get(id) ?? NaN) - (startedAt.get(id) ?? NaN)) / 1000;
  const publishers: FfmpegRun[] = [];

  try {
    // 1. Latency of one stream on an idle machine, encoded live like OBS (1 s keyframes).
    const single: number[] = [];
    for (let id = 1; id <= 3; id += 1) {
      const spawned = performance.now();
      const publisher = publishTestPattern({ url: url(id), ffmpegPath: FFMPEG });
      await until(() => liveAt.get(id), 15_000);
      single.push(latency(id));
      console.log(`stream ${id}: publish → first segment ${latency(id).toFixed(2)} s (process spawn → live ${((liveAt.get(id)! - spawned) / 1000).toFixed(2)} s)`);
      await publisher.stop();
      await media.stopBroadcast(id);
    }

    // 2. Ramp concurrent 720p ingests until latency, lag or CPU breaks.
    const steps: Record<string, number>[] = [];
    let held = 0;
    let nextId = 100;
    const live: number[] = [];
    while (live.length < MAX_STREAMS && Date.now() < DEADLINE) {
      const batch = Array.from({ length: STEP }, () => nextId++);
      for (const id of batch) {
        // prettier-ignore
        publishers.push(runFfmpeg(FFMPEG, ['-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', input, '-c', 'copy', '-f', 'flv', url(id)]));
      }
      await until(() => (batch.every((id) => liveAt.has(id)) ? true : undefined), 20_000);
      live.push(...batch.filter((id) => liveAt.has(id)));
      const latencies = batch.map(latency).filter(Number.isFinite).sort((a, b) => a - b);

      const cpu0 = childCpuSeconds('-f\0hls');
      const self0 = selfCpuSeconds();
      const node0 = process.cpuUsage();
      const m0 = machineBusy();
      const t0 = performance.now();
      await sleep(6000);
      const seconds = (performance.now() - t0) / 1000;
      const cpu1 = childCpuSeconds('-f\0hls');
      const self1 = selfCpuSeconds();
      const node1 = process.cpuUsage(node0);
      const m1 = machineBusy();

      // Lag: media written vs wall time since each stream went live.
      const lags = await Promise.all(
        live.map(async (id) => {
          const info = await readPlaylist(path.join(root, playlists.get(id) ?? 'none'));
          return (performance.now() - liveAt.get(id)!) / 1000 - (info?.lengthSeconds ?? 0);
        }),
      );
      const cores = os.cpus().length;
      const machinePct = ((m1.busy - m0.busy) / (m1.total - m0.total)) * 100;
      // Remuxers, thumbnail grabs and node-media-server: measured per process, so neither the
      // publishers nor other work on the machine count.
      const ingestPct = ((cpu1.seconds - cpu0.seconds + self1 - self0) / seconds / cores) * 100;
      const step = {
        streams: live.length,
        failedToStart: batch.length - latencies.length,
        firstSegmentP50S: Number(percentile(latencies, 50).toFixed(2)),
        firstSegmentMaxS: Number((latencies.at(-1) ?? NaN).toFixed(2)),
        maxLagS: Number(Math.max(...lags).toFixed(2)),
        remuxerCpuPerStreamPct: Number((((cpu1.seconds - cpu0.seconds) / seconds / Math.max(1, cpu1.count)) * 100).toFixed(2)),
        ingestNodeCpuPct: Number((((node1.user + node1.system) / 1e6 / seconds) * 100).toFixed(1)),
        machineCpuPct: Number(machinePct.toFixed(1)),
        ingestCpuPct: Number(ingestPct.toFixed(1)),
        ingestCpuPerStreamPctOfCore: Number(((ingestPct * cores) / live.length).toFixed(2)),
      };
      steps.push(step);
      console.log(JSON.stringify(step));
      const broken =
        step.failedToStart > 0 || step.firstSegmentMaxS > LATENCY_LIMIT_S || step.maxLagS > LAG_LIMIT_S || step.ingestCpuPct > INGEST_CPU_LIMIT_PCT;
      if (broken) break;
      held = live.length;
    }

    const singleSorted = [...single].sort((a, b) => a - b);
    writeResult('ingest', {
      goals: { firstSegmentSeconds: 2, concurrent720pRemuxes: 50 },
      firstSegmentSeconds: { median: Number(percentile(singleSorted, 50).toFixed(2)), runs: single.map((s) => Number(s.toFixed(2))) },
      remuxerCpuPerStreamPct: steps.at(-1)?.remuxerCpuPerStreamPct,
      ingestCpuPerStreamPctOfCore: steps.at(-1)?.ingestCpuPerStreamPctOfCore,
      concurrentHeld: held,
      limits: { latencyS: LATENCY_LIMIT_S, lagS: LAG_LIMIT_S, ingestCpuPct: INGEST_CPU_LIMIT_PCT, maxStreams: MAX_STREAMS },
      steps,
    });
  } finally {
    await Promise.all(publishers.map((p) => killFfmpeg(p)));
    await media.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
