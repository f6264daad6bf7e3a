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
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LIVE_SYNC } from '../web/features/streams/live-sync';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { PLAYLIST_NAME, readPlaylist } from '../server/platform/media/hls-playlist';
import { liveHlsOptions } from '../server/platform/media/remuxer';
import { HttpSession } from '../server/testing/http-session';
import { rtmpPushUrl } from '../server/testing/rtmp-publisher';
import { startServerAndBrowser } from './browser-run';
import { stampLayout } from './frame-stamp';
import { collect, cpuSeconds, installSampler, openWatchingPage, playing, reset, summarise } from './latency-sampler';
import { serveReference } from './reference-hls';
import { startStampedEncoder } from './stamped-encoder';
import { round, sleep, writeResult } from './lib';

const QUICK = process.env.LATENCY_QUICK === '1';
const SECONDS = Number(process.env.LATENCY_SECONDS ?? (QUICK ? 20 : 60));
const WARMUP_SECONDS = Number(process.env.LATENCY_WARMUP_SECONDS ?? (QUICK ? 5 : 10));
const [WIDTH, HEIGHT] = (process.env.LATENCY_SIZE ?? '640x360').split('x').map(Number) as [number, number];
const FPS = Number(process.env.LATENCY_FPS ?? 30);
const GOAL_MS = 4000;

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
    const open = (url: string) => openWatchingPage(browser, server.url, url);
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
