/**
 * Going live from the browser (decision 0082), glass to glass and CPU, beside an OBS-like encoder.
 *
 * Two broadcasters go live at once on the real server (its own process, the built web app) from the same
 * kind of stamped frames (frame-stamp.ts: the wall-clock time drawn into each):
 * - the browser path: the frames encoded as a browser's MediaRecorder records them (WebM, realtime VP8,
 *   Opus), handed over every 250 ms timeslice and sent over the broadcast socket, where the server's
 *   relay transcodes them to H.264/AAC into the RTMP ingest;
 * - the OBS path: the same frames encoded H.264/AAC with 1 s keyframes and pushed over RTMP.
 * A guest's stream page plays each in one chromium; the latency sampler reads every third frame's stamp
 * against its display time. Reported per path after a warm-up: glass-to-glass median / p95 / worst and the
 * player's figures; and the CPU of the server's processes over the measured window: the node process,
 * the browser path's relay ffmpeg and each stream's remuxer ffmpeg (so the relay is the browser's cost).
 *
 * Run after `npm run build:web`: `npx tsx bench/browser-live.ts`. Env: BROWSER_LIVE_SECONDS (measured,
 * default 60), BROWSER_LIVE_WARMUP_SECONDS (10), BROWSER_LIVE_SIZE (640x360: two cores cannot encode, play and relay two 720p streams at once), BROWSER_LIVE_FPS (30),
 * BROWSER_LIVE_QUICK=1 (20 s measured, 5 s warm-up).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { WebSocket } from 'ws';
import { BROWSER_BROADCAST_PATH } from '../common/browser-broadcast';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { timesliced } from '../server/testing/browser-recorder';
import { HttpSession } from '../server/testing/http-session';
import { rtmpPushUrl } from '../server/testing/rtmp-publisher';
import { openUpgrade } from '../server/testing/ws-upgrade';
import { startServerAndBrowser } from './browser-run';
import { stampLayout } from './frame-stamp';
import { collect, cpuSeconds, installSampler, openWatchingPage, playing, reset, summarise } from './latency-sampler';
import { round, sleep, writeResult } from './lib';
import { startStampedEncoder } from './stamped-encoder';

const QUICK = process.env.BROWSER_LIVE_QUICK === '1';
const SECONDS = Number(process.env.BROWSER_LIVE_SECONDS ?? (QUICK ? 20 : 60));
const WARMUP_SECONDS = Number(process.env.BROWSER_LIVE_WARMUP_SECONDS ?? (QUICK ? 5 : 10));
const [WIDTH, HEIGHT] = (process.env.BROWSER_LIVE_SIZE ?? '640x360').split('x').map(Number) as [number, number];
const FPS = Number(process.env.BROWSER_LIVE_FPS ?? 30);

type OwnStream = { stream_id: number; rtmp_url: string; broadcast_key: string; live: 'Y' | 'N' };

async function setUp(base: string, username: string, title: string) {
  const session = await HttpSession.at(base).signIn(username, DEMO_PASSWORD);
  const { stream } = await session.api<{ stream: OwnStream }>('/api/streams/get-live-stream', {});
  await session.api('/api/streams/update-stream-info', { id: stream.stream_id, data: { title, audience: 'PUBLIC', rating: 'G' } });
  await session.api('/api/streams/go-live', { id: stream.stream_id });
  return { session, stream };
}

/** The server's ffmpeg children by their part: the relay reads its input from the pipe, a remuxer from the ingest. */
type Part = 'relay' | 'remuxer';

function mediaChildren(serverPid: number): { pid: number; part: Part }[] {
  const lines = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(serverPid)], { encoding: 'utf8' }).split('\n').filter((l) => l.includes('ffmpeg'));
  return lines.flatMap((line): { pid: number; part: Part }[] => {
    const pid = Number(line.trim().split(/\s+/)[0]);
    return line.includes('pipe:0') ? [{ pid, part: 'relay' }] : line.includes('remux=') ? [{ pid, part: 'remuxer' }] : [];
  });
}

/**
 * CPU seconds of the server's ffmpeg children by part, polled twice a second from when it is made: a
 * child that ends (a remuxer started again) keeps what it used until its last reading.
 */
function childrenCpu(serverPid: number) {
  const used = new Map<number, { part: Part; first: number; last: number }>();
  const poll = () => {
    for (const { pid, part } of mediaChildren(serverPid)) {
      let seconds: number;
      try {
        seconds = cpuSeconds(pid);
      } catch {
        continue; // gone between ps and the read
      }
      const known = used.get(pid);
      if (known) known.last = seconds;
      // A child there from the start counts from now; one started since, from its beginning.
      else used.set(pid, { part, first: pollsDone === 0 ? seconds : 0, last: seconds });
    }
    pollsDone += 1;
  };
  let pollsDone = 0;
  poll();
  const timer = setInterval(poll, 500);
  return {
    stop() {
      clearInterval(timer);
      poll();
      const sum = (part: string) => [...used.values()].filter((u) => u.part === part).reduce((n, u) => n + u.last - u.first, 0);
      return { relay: sum('relay'), remuxers: sum('remuxer'), children: used.size };
    },
  };
}

async function main() {
  const loadBefore = os.loadavg();
  const [server, browser] = await startServerAndBrowser();
  const stops: (() => Promise<unknown>)[] = [() => browser.close(), () => server.stop()];
  try {
    const fromBrowser = await setUp(server.url, 'broadcaster1', 'From the browser');
    const fromObs = await setUp(server.url, 'broadcaster2', 'From OBS');

    const answer = await openUpgrade(`${server.url.replace(/^http/, 'ws')}${BROWSER_BROADCAST_PATH}?id=${fromBrowser.stream.stream_id}`, { cookie: fromBrowser.session.cookie('ll_session') });
    if (!('socket' in answer)) throw new Error(`the broadcast socket was refused: ${answer.status} ${answer.body.message}`);
    const socket: WebSocket = answer.socket;
    socket.once('close', (code) => console.log(`the broadcast socket closed: ${code}`));
    let sentBytes = 0;
    const chunks = timesliced((frame) => {
      sentBytes += frame.length;
      if (socket.readyState === socket.OPEN) socket.send(frame);
    });
    const common = { ffmpegPath: resolveFfmpegPath(), width: WIDTH, height: HEIGHT, fps: FPS };
    const recorder = startStampedEncoder({ ...common, outputs: { webm: chunks.push } });
    stops.unshift(async () => {
      await recorder.stop();
      chunks.end();
      socket.close(1000);
    });
    const encoder = startStampedEncoder({ ...common, outputs: [`[f=flv:onfail=abort]${rtmpPushUrl(fromObs.stream.rtmp_url, fromObs.stream.broadcast_key)}`] });
    stops.unshift(() => encoder.stop());

    const deadline = Date.now() + 60_000;
    for (const { session } of [fromBrowser, fromObs]) {
      while ((await session.api<{ stream: OwnStream }>('/api/streams/get-live-stream', {})).stream.live !== 'Y') {
        if (Date.now() > deadline) throw new Error(`a stream did not go live:\n${recorder.tail()}\n${encoder.tail()}`);
        await sleep(250);
      }
    }
    const open = (streamId: number) => openWatchingPage(browser, server.url, `/streams/stream-view?id=${streamId}`);
    const browserPage = await open(fromBrowser.stream.stream_id);
    const obsPage = await open(fromObs.stream.stream_id);
    await Promise.all([playing(browserPage.page, 60_000), playing(obsPage.page, 60_000)]);
    const layout = stampLayout(WIDTH, HEIGHT);
    await Promise.all([installSampler(browserPage.page, layout), installSampler(obsPage.page, layout)]);
    console.log(`both pages play; warming up ${WARMUP_SECONDS} s, then measuring ${SECONDS} s`);
    await sleep(WARMUP_SECONDS * 1000);
    await Promise.all([reset(browserPage.page), reset(obsPage.page)]);

    const serverPid = server.child.pid!;
    const media = childrenCpu(serverPid);
    const before = { node: cpuSeconds(serverPid), sent: sentBytes };
    await sleep(SECONDS * 1000);
    const after = { node: cpuSeconds(serverPid), sent: sentBytes };
    const used = media.stop();
    const [browserRun, obsRun] = await Promise.all([collect(browserPage.page), collect(obsPage.page)]);
    const percentOfACore = (seconds: number) => round((seconds / SECONDS) * 100, 1);
    const browserFigures = summarise(browserRun.samples, browserPage.edges, browserRun.stalls);
    const obsFigures = summarise(obsRun.samples, obsPage.edges, obsRun.stalls);
    writeResult('browser-live', {
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      video: { width: WIDTH, height: HEIGHT, fps: FPS },
      browserPath: browserFigures,
      obsPath: obsFigures,
      addedByTheBrowserPathMs: {
        median: browserFigures.glassToGlassMs.median - obsFigures.glassToGlassMs.median,
        p95: browserFigures.glassToGlassMs.p95 - obsFigures.glassToGlassMs.p95,
      },
      serverCpuPercentOfACore: {
        // The node process serves both streams and both pages; the relay is the browser path's alone.
        node: percentOfACore(after.node - before.node),
        relayFfmpeg: percentOfACore(used.relay),
        remuxerFfmpegEach: percentOfACore(used.remuxers / 2),
      },
      socketKbps: round(((after.sent - before.sent) * 8) / 1000 / SECONDS),
      encoderLateFrames: { browserPath: recorder.late(), obsPath: encoder.late() },
      loadavg: { before: loadBefore.map((l) => round(l, 2)), after: os.loadavg().map((l) => round(l, 2)) },
      cores: os.availableParallelism(),
      ffmpegChildrenSeen: used.children,
    });
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
