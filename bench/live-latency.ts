/**
 * Live latency, glass to glass: from a frame leaving the broadcaster's machine to the viewer's screen.
 *
 * A generator stamps the wall-clock time into every frame (frame-stamp.ts) and pipes the frames into
 * ffmpeg, which encodes them as an OBS user with 1 s keyframes would (libx264 zerolatency, CBR, a
 * keyframe every second, a tone) and sends the one encoding two ways (stamped-encoder.ts):
 * - ours: RTMP to the real server's ingest (its own process, the built web app), remuxed into HLS by
 *   the media pipeline, played by a guest on the real stream page through the signed addresses;
 * - the reference: HLS written by the encoder's ffmpeg straight to disk with the same muxer options,
 *   served statically and played in a bare page by hls.js with the same live-sync settings.
 * Both pages play side by side in one chromium; a script in each reads every third decoded frame
 * (requestVideoFrameCallback + canvas), decodes the stamp and compares it with the frame's display
 * time (same machine, same clock). Reported per path after a warm-up: median / p95 / worst of that
 * latency, and the player's own view: hls.js's latency estimate (the playlist's edge + its age − the
 * playhead, computed from the playlists the page fetched, and hls.latency itself in the reference),
 * the buffer ahead of the playhead, the playback rate and the stalls. Ratio = ours / reference.
 * Goal: ≤ 4 s (median and p95) with 1 s keyframes on plain HLS.
 *
 * Run after `npm run build:web`: `npx tsx bench/live-latency.ts`. Env: LATENCY_SECONDS (measured,
 * default 60), LATENCY_WARMUP_SECONDS (default 10), LATENCY_SIZE (default 640x360), LATENCY_FPS (30),
 * LATENCY_QUICK=1 (20 s measured, 5 s warm-up).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { LIVE_SYNC } from '../web/features/streams/live-sync';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { PLAYLIST_NAME, readPlaylist } from '../server/platform/media/hls-playlist';
import { liveHlsOptions } from '../server/platform/media/remuxer';
import { HttpSession } from '../server/testing/http-session';
import { rtmpPushUrl } from '../server/testing/rtmp-publisher';
import { allowNamedFunctions, startServerAndBrowser } from './browser-run';
import { readStamp, stampLayout, type StampLayout } from './frame-stamp';
import { serveReference } from './reference-hls';
import { startStampedEncoder } from './stamped-encoder';
import { percentile, round, sleep, writeResult } from './lib';

const QUICK = process.env.LATENCY_QUICK === '1';
const SECONDS = Number(process.env.LATENCY_SECONDS ?? (QUICK ? 20 : 60));
const WARMUP_SECONDS = Number(process.env.LATENCY_WARMUP_SECONDS ?? (QUICK ? 5 : 10));
const [WIDTH, HEIGHT] = (process.env.LATENCY_SIZE ?? '640x360').split('x').map(Number) as [number, number];
const FPS = Number(process.env.LATENCY_FPS ?? 30);
const GOAL_MS = 4000;
const CLK_TCK = 100;

interface Sample {
  /** Wall-clock ms at which the frame is shown. */
  at: number;
  /** Shown − stamped, ms; null when the stamp did not read. */
  latencyMs: number | null;
  currentTime: number;
  bufferAhead: number;
  rate: number;
  /** hls.js's own figures, where the page exposes its instance (the reference). */
  hlsLatency: number | null;
  hlsTarget: number | null;
}

/** Reads every third decoded frame's stamp into window.__samples; counts stalls in window.__stalls. */
function installSampler(page: Page, layout: StampLayout): Promise<void> {
  return page.evaluate(
    ({ layout, reader }) => {
      const w = window as unknown as Record<string, unknown>;
      const read = new Function(`return (${reader})`)() as (data: Uint8ClampedArray, layout: unknown, now: number) => number | null;
      const video = document.querySelector('video')!;
      const canvas = document.createElement('canvas');
      canvas.width = layout.width;
      canvas.height = layout.height;
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      const rows = layout.top + layout.rows * layout.cell + 1;
      const samples: unknown[] = [];
      w.__samples = samples;
      w.__stalls = 0;
      video.addEventListener('waiting', () => (w.__stalls = (w.__stalls as number) + 1));
      let frames = 0;
      const onFrame = (now: number, meta: VideoFrameCallbackMetadata) => {
        if (frames++ % 3 === 0) {
          context.drawImage(video, 0, 0, layout.width, layout.height);
          const shown = performance.timeOrigin + (meta.expectedDisplayTime || now);
          const stamp = read(context.getImageData(0, 0, layout.width, rows).data, layout, shown);
          const buffered = video.buffered;
          const hls = w.hls as { latency: number; targetLatency: number | null } | undefined;
          samples.push({
            at: shown,
            latencyMs: stamp === null ? null : shown - stamp,
            currentTime: video.currentTime,
            bufferAhead: buffered.length ? buffered.end(buffered.length - 1) - video.currentTime : 0,
            rate: video.playbackRate,
            hlsLatency: hls ? hls.latency : null,
            hlsTarget: hls ? hls.targetLatency : null,
          });
        }
        video.requestVideoFrameCallback(onFrame);
      };
      video.requestVideoFrameCallback(onFrame);
    },
    { layout, reader: readStamp.toString() },
  );
}

/**
 * The live edge on hls.js's timeline (which starts at the first segment of the first playlist it
 * loaded) of every playlist the page received, with the time it arrived: a sliding window's segments
 * are kept by sequence number.
 */
function trackPlaylists(page: Page): { at: number; edge: number; targetDuration: number }[] {
  const edges: { at: number; edge: number; targetDuration: number }[] = [];
  const durations = new Map<number, number>();
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.endsWith('.m3u8')) return;
    const at = Date.now();
    response
      .text()
      .then((text) => {
        let sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0);
        for (const match of text.matchAll(/#EXTINF:([\d.]+)/g)) durations.set(sequence++, Number(match[1]));
        const edge = [...durations.values()].reduce((sum, d) => sum + d, 0);
        edges.push({ at, edge, targetDuration: Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1] ?? 0) });
      })
      .catch(() => undefined);
  });
  return edges;
}

async function playing(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5, undefined, { timeout: timeoutMs, polling: 200 });
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
const p95 = (values: number[]) => percentile([...values].sort((a, b) => a - b), 95);

/** The figures of one path from its samples and playlist arrivals. */
function summarise(samples: Sample[], edges: { at: number; edge: number; targetDuration: number }[], stalls: number) {
  const latencies = samples.flatMap((s) => (s.latencyMs === null ? [] : [s.latencyMs])).sort((a, b) => a - b);
  // hls.js's estimate: the last playlist's edge plus the time since it arrived, minus the playhead.
  const estimates = samples.flatMap((s) => {
    const last = edges.filter((e) => e.at <= s.at).at(-1);
    return last ? [last.edge + (s.at - last.at) / 1000 - s.currentTime] : [];
  });
  const hlsLatency = samples.flatMap((s) => (s.hlsLatency === null ? [] : [s.hlsLatency]));
  const hlsTarget = samples.flatMap((s) => (s.hlsTarget === null ? [] : [s.hlsTarget]));
  return {
    frames: samples.length,
    stampsRead: latencies.length,
    glassToGlassMs: {
      median: round(median(latencies)),
      p95: round(p95(latencies)),
      min: round(latencies[0] ?? 0),
      max: round(latencies.at(-1) ?? 0),
    },
    player: {
      edgeMinusPlayheadS: round(median(estimates), 2),
      playlistTargetDurationS: edges.at(-1)?.targetDuration ?? null,
      ...(hlsLatency.length ? { hlsLatencyS: round(median(hlsLatency), 2), hlsTargetLatencyS: round(median(hlsTarget), 2) } : {}),
      bufferAheadS: { median: round(median(samples.map((s) => s.bufferAhead)), 2), min: round(Math.min(...samples.map((s) => s.bufferAhead)), 2) },
      playbackRate: { median: median(samples.map((s) => s.rate)), max: Math.max(...samples.map((s) => s.rate)) },
      stalls,
    },
  };
}

async function collect(page: Page): Promise<{ samples: Sample[]; stalls: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { __samples: Sample[]; __stalls: number };
    return { samples: w.__samples.splice(0), stalls: w.__stalls };
  });
}

async function reset(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __samples: unknown[]; __stalls: number };
    w.__samples.length = 0;
    w.__stalls = 0;
  });
}

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return ((f[11] ?? 0) + (f[12] ?? 0) + (f[13] ?? 0) + (f[14] ?? 0)) / CLK_TCK;
}

async function main() {
  const loadBefore = os.loadavg();
  const [server, browser] = await startServerAndBrowser();
  const refDir = mkdtempSync(path.join(os.tmpdir(), 'll-latency-ref-'));
  const stops: (() => Promise<unknown>)[] = [() => browser.close(), () => server.stop(), async () => rmSync(refDir, { recursive: true, force: true })];
  try {
    const broadcaster = await HttpSession.at(server.url).signIn('broadcaster1', DEMO_PASSWORD);
    const { stream } = await broadcaster.api<{ stream: { stream_id: number; rtmp_url: string; broadcast_key: string } }>('/api/streams/get-live-stream', {});
    await broadcaster.api('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Latency bench', audience: 'PUBLIC', rating: 'G' } });
    await broadcaster.api('/api/streams/go-live', { id: stream.stream_id });

    const hls = Object.entries({ ...liveHlsOptions(false), hls_segment_filename: path.join(refDir, 'seg_%05d.ts') })
      .map(([name, value]) => `${name}=${value}`)
      .join(':');
    const encoder = startStampedEncoder({
      ffmpegPath: resolveFfmpegPath(),
      width: WIDTH,
      height: HEIGHT,
      fps: FPS,
      outputs: [`[f=flv:onfail=abort]${rtmpPushUrl(stream.rtmp_url, stream.broadcast_key)}`, `[f=hls:${hls}]${path.join(refDir, PLAYLIST_NAME)}`],
    });
    stops.unshift(() => encoder.stop());
    const reference = await serveReference(refDir, LIVE_SYNC);
    stops.unshift(() => reference.close());

    // As a viewer would, open the pages once the stream is live and the reference has segments to play.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const now = await broadcaster.api<{ stream: { live: 'Y' | 'N' } }>('/api/streams/get-live-stream', {});
      const refSegments = (await readPlaylist(path.join(refDir, PLAYLIST_NAME)))?.segments.length ?? 0;
      if (now.stream.live === 'Y' && refSegments >= 2) break;
      if (Date.now() > deadline) throw new Error(`the stream did not go live:\n${encoder.tail()}`);
      await sleep(250);
    }
    const open = async (url: string) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: server.url });
      await allowNamedFunctions(context);
      const page = await context.newPage();
      const edges = trackPlaylists(page);
      await page.goto(url);
      return { page, edges };
    };
    const ours = await open(`/streams/stream-view?id=${stream.stream_id}`);
    const ref = await open(reference.url);
    await Promise.all([playing(ours.page, 60_000), playing(ref.page)]).catch(async (error: unknown) => {
      // What the two pages showed, for whoever reads the failure.
      const shots = [path.join(os.tmpdir(), 'live-latency-ours.png'), path.join(os.tmpdir(), 'live-latency-reference.png')];
      await ours.page.screenshot({ path: shots[0] });
      await ref.page.screenshot({ path: shots[1] });
      console.error(`no playback; screenshots ${shots.join(', ')}; the encoder said:\n${encoder.tail()}`);
      throw error;
    });
    const layout = stampLayout(WIDTH, HEIGHT);
    await Promise.all([installSampler(ours.page, layout), installSampler(ref.page, layout)]);
    console.log(`both pages play; warming up ${WARMUP_SECONDS} s, then measuring ${SECONDS} s`);
    await sleep(WARMUP_SECONDS * 1000);
    await Promise.all([reset(ours.page), reset(ref.page)]);
    const cpuBefore = cpuSeconds(server.child.pid!);
    const lateBefore = encoder.late();
    await sleep(SECONDS * 1000);
    const serverCpu = cpuSeconds(server.child.pid!) - cpuBefore;
    const [oursRun, refRun] = await Promise.all([collect(ours.page), collect(ref.page)]);
    const oursFigures = summarise(oursRun.samples, ours.edges, oursRun.stalls);
    const refFigures = summarise(refRun.samples, ref.edges, refRun.stalls);
    const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : null);
    writeResult('live-latency', {
      goalMs: GOAL_MS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      video: { width: WIDTH, height: HEIGHT, fps: FPS, keyframeSeconds: 1 },
      hlsOptions: liveHlsOptions(false),
      playerConfig: LIVE_SYNC,
      ours: oursFigures,
      reference: refFigures,
      ratio: {
        median: ratio(oursFigures.glassToGlassMs.median, refFigures.glassToGlassMs.median),
        p95: ratio(oursFigures.glassToGlassMs.p95, refFigures.glassToGlassMs.p95),
      },
      meetsGoal: oursFigures.glassToGlassMs.median <= GOAL_MS && oursFigures.glassToGlassMs.p95 <= GOAL_MS,
      serverCpuPercentOfACore: round((serverCpu / SECONDS) * 100, 1),
      encoderLateFrames: encoder.late() - lateBefore,
      loadavg: { before: loadBefore.map((l) => round(l, 2)), after: os.loadavg().map((l) => round(l, 2)) },
    });
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
