/**
 * Live renditions (LIVE_RENDITIONS, decision 0070): the media node's CPU per broadcast for each ladder.
 * One 720p30 publisher (a pre-encoded ~2.5 Mbit/s H.264/AAC FLV of ffmpeg's testsrc2 with 1 s keyframes,
 * looped and sent with -c copy, so it costs little itself) goes live through the real ingest for
 * each setting in turn; after a warm-up, the remuxer ffmpeg's CPU time (user + system, from
 * /proc/<pid>/stat) is read over the measured window. Reported: % of one core, the ratio against the
 * plain copy, and how far the written media fell behind the wall clock (an ffmpeg that cannot keep up
 * falls behind). testsrc2 is an easy picture for x264: a camera's costs more.
 *
 * `npx tsx bench/live-renditions.ts`. Env: RENDITIONS_SECONDS (measured per setting, default 20),
 * RENDITIONS_WARMUP_SECONDS (default 3). Each setting runs in a child process of its own
 * (node-media-server keeps one server per process).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { killFfmpeg, runFfmpeg } from '../server/platform/media/ffmpeg-process';
import { parseMaster, readPlaylist } from '../server/platform/media/hls-playlist';
import { parseLiveRenditions } from '../server/platform/media/live-renditions';
import { createMediaServer } from '../server/platform/media/media-server';
import { createLocalFileStore } from '../server/platform/storage/storage';
import { loneIngestLeases } from '../server/testing/lone-ingest-leases';
import { cpuSeconds, preEncoded720p, round, sleep, writeResult } from './lib';

const FFMPEG = resolveFfmpegPath();
const SECONDS = Number(process.env.RENDITIONS_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.RENDITIONS_WARMUP_SECONDS ?? 3);
/** LIVE_RENDITIONS of each run: off, one rendition below the source, two, and three encoded without the copy. */
const SETTINGS = ['', 'source,480p', 'source,480p,360p', '720p,480p,360p'];

interface Measured {
  setting: string;
  variants: string[];
  encoded: number;
  cpuPctOfCore: number;
  behindSeconds: number;
}

/** This process's children whose command line contains `match`. */
function childPids(match: string): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(match);
    } catch {
      return false;
    }
  });
}

/** One setting, in this process: publish, warm up, measure the remuxer, stop. */
async function measure(setting: string): Promise<Measured> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'll-bench-renditions-'));
  let liveKey: string | null = null;
  let liveAt = 0;
  const media = createMediaServer({
    config: { host: '127.0.0.1', rtmpPort: 0 },
    files: createLocalFileStore(root),
    liveDir: root,
    log: pino({ level: 'warn' }),
    secret: 'bench',
    thumbnailEveryMs: 10_000,
    renditions: parseLiveRenditions(setting),
    callbacks: {
      canPublish: (key) => key === 'bench-1',
      startBroadcast: async () => ({ streamId: 1 }),
      onLive: async (e) => {
        liveKey = e.playlistKey;
        liveAt = performance.now();
      },
      onThumbnail: async () => {},
      onEnded: async () => {},
      ...loneIngestLeases(),
    },
  });
  await media.start();
  // prettier-ignore
  const publisher = runFfmpeg(FFMPEG, ['-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', preEncoded720p(FFMPEG), '-c', 'copy', '-f', 'flv', `rtmp://127.0.0.1:${media.ingest.port}/live/bench-1`]);
  try {
    const deadline = Date.now() + 30_000;
    while (!liveKey && Date.now() < deadline) await sleep(50);
    if (!liveKey) throw new Error(`${setting || 'off'}: never went live: ${publisher.tail()}`);
    await sleep(WARMUP_SECONDS * 1000);
    const [pid] = childPids('remux=');
    if (!pid) throw new Error('no remuxer running');
    const cpu0 = cpuSeconds(pid);
    const t0 = performance.now();
    await sleep(SECONDS * 1000);
    const cpu1 = cpuSeconds(pid);
    const wall = (performance.now() - t0) / 1000;
    const top = path.join(root, liveKey);
    const folders = parseMaster(readFileSync(top, 'utf8'));
    const main = folders ? path.join(path.dirname(top), folders[0]!, 'index.m3u8') : top;
    const written = (await readPlaylist(main))?.lengthSeconds ?? 0;
    const variants = folders ?? ['source'];
    return {
      setting: setting || '(off)',
      variants,
      encoded: variants.filter((v) => v !== 'source').length,
      cpuPctOfCore: round(((cpu1 - cpu0) / wall) * 100, 1),
      // The first segment is written before "live" is told: a little media ahead of the clock is normal.
      behindSeconds: round((performance.now() - liveAt) / 1000 - written, 1),
    };
  } finally {
    await killFfmpeg(publisher);
    await media.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main() {
  const only = process.argv[2];
  if (only !== undefined) {
    console.log(JSON.stringify(await measure(only === 'off' ? '' : only)));
    return;
  }
  preEncoded720p(FFMPEG);
  const rows: Measured[] = [];
  for (const setting of SETTINGS) {
    const run = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, setting || 'off'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    if (run.status !== 0) throw new Error(`${setting || 'off'} failed: ${run.stdout}`);
    rows.push(JSON.parse(line) as Measured);
    console.log(line);
  }
  const copy = rows[0]!.cpuPctOfCore;
  const table = rows.map((r) => ({ ...r, timesCopy: round(r.cpuPctOfCore / Math.max(copy, 0.1), 1) }));
  console.log('\n| LIVE_RENDITIONS | variants | ffmpeg CPU, % of a core | × plain copy | behind the clock (s) |');
  console.log('|---|---|---|---|---|');
  for (const r of table) console.log(`| \`${r.setting}\` | ${r.variants.join(' + ')} | ${r.cpuPctOfCore} | ${r.timesCopy} | ${r.behindSeconds} |`);
  writeResult('live-renditions', { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, cores: os.availableParallelism(), loadAverage: os.loadavg().map((l) => round(l, 2)), rows: table });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
