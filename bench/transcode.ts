/**
 * Video posts' transcode (platform/media/video-transcode.ts) as a multiple of real time: a 1080p30
 * H.264/AAC .mov of TRANSCODE_SECONDS (default 60; testsrc2 + sine at ~12 Mbit/s, high profile like a
 * phone's, made once in the temp directory) through transcodeToHls (720p + 360p + poster), against two
 * references on the same clip with the same threads: a plain copy into HLS (`-c copy`: what reading
 * the file and writing segments cost) and a bare single-rendition 720p libx264 encode with the same
 * preset, rate cap and audio (product / bare = what the 360 rendition, the poster and the probe cost).
 * CPU seconds of the ffmpeg children from /proc/self/stat (the children this process reaped), their
 * peak RSS by polling /proc/<pid>/status (VmHWM). Each is run TRANSCODE_RUNS times (default 2), the
 * fastest kept.
 * Measured 2026-11-25 (2 cores, 2 threads, Debian's ffmpeg 5.1, preset veryfast; one HLS output per
 * rendition and the master written by transcodeToHls): plain copy 0.32 s (186× real time); bare 720p
 * encode 19.6 s (3.06×, 35.0 CPU s, 190 MB); transcodeToHls 27.1 s (2.21×, 47.0 CPU s, 229 MB):
 * 1.38× the bare encode. 15 segments of 4 s in each rendition; 720p ~1.4 Mbit/s, 360p ~0.4 Mbit/s on
 * this synthetic picture (real footage runs nearer the caps).
 *
 * Env: TRANSCODE_SECONDS (60), TRANSCODE_RUNS (2), TRANSCODE_THREADS (default every core).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { readPlaylist } from '../server/platform/media/hls-playlist';
import { KEYFRAME_SECONDS, RENDITION_RATES, SEGMENT_SECONDS, transcodeToHls, X264_CRF, X264_PRESET } from '../server/platform/media/video-transcode';
import { writeResult } from './lib';

const FFMPEG = resolveFfmpegPath();
const SECONDS = Number(process.env.TRANSCODE_SECONDS ?? 60);
const RUNS = Number(process.env.TRANSCODE_RUNS ?? 2);
const THREADS = Number(process.env.TRANSCODE_THREADS ?? os.availableParallelism());
const CLK_TCK = 100;

interface Measured {
  wallSeconds: number;
  realTime: number;
  cpuSeconds: number;
  peakRssMb: number;
}

/** Made once and kept in the temp directory: encoding it costs more than any run below. */
async function clip(): Promise<string> {
  const file = path.join(os.tmpdir(), `ll-bench-1080p-${SECONDS}s-v1.mov`);
  if (existsSync(file)) return file;
  console.log(`[transcode] encoding the ${SECONDS} s 1080p clip once: ${file}`);
  // prettier-ignore
  await ffmpeg([
    '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(SECONDS),
    '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-b:v', '12M', '-maxrate', '16M', '-bufsize', '24M', '-g', '60', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k', `${file}.tmp.mov`,
  ]);
  renameSync(`${file}.tmp.mov`, file);
  return file;
}

function ffmpeg(args: string[]): Promise<void> {
  const child = spawn(FFMPEG, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve, reject) => child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`)))));
}

/** CPU seconds of this process's reaped children (cutime + cstime). */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return ((f[13] ?? 0) + (f[14] ?? 0)) / CLK_TCK;
}

/** Peak RSS (MB) of any ffmpeg child while `run` runs: VmHWM, polled every 50 ms. */
async function withPeakRss(run: () => Promise<unknown>): Promise<number> {
  let peakKb = 0;
  const poll = () => {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        if (!/^Name:\s+ffmpeg$/m.test(status) || Number(/^PPid:\s+(\d+)$/m.exec(status)?.[1]) !== process.pid) continue;
        peakKb = Math.max(peakKb, Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0));
      } catch {
        // the process exited between listing and reading
      }
    }
  };
  const timer = setInterval(poll, 50);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return peakKb / 1024;
}

async function best(label: string, run: (out: string) => Promise<void>): Promise<Measured & { runs: number[]; out: string }> {
  const results: (Measured & { out: string })[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = mkdtempSync(path.join(os.tmpdir(), 'll-bench-transcode-'));
    const cpu0 = childrenCpuSeconds();
    const t0 = performance.now();
    const peakRssMb = await withPeakRss(() => run(out));
    const wallSeconds = (performance.now() - t0) / 1000;
    const cpuSeconds = childrenCpuSeconds() - cpu0;
    results.push({ wallSeconds: round(wallSeconds), realTime: round(SECONDS / wallSeconds), cpuSeconds: round(cpuSeconds), peakRssMb: round(peakRssMb, 1), out });
    console.log(`[transcode] ${label} run ${i + 1}: ${wallSeconds.toFixed(2)} s (${(SECONDS / wallSeconds).toFixed(2)}× real time)`);
  }
  const fastest = results.reduce((a, b) => (b.wallSeconds < a.wallSeconds ? b : a));
  for (const r of results) if (r !== fastest) rmSync(r.out, { recursive: true, force: true });
  return { ...fastest, runs: results.map((r) => r.wallSeconds) };
}

/** Segments, longest segment and average rate of one written playlist. */
async function output(dir: string): Promise<{ segments: number; longestSegmentSeconds: number; lengthSeconds: number; kbps: number }> {
  const file = path.join(dir, 'index.m3u8');
  const info = await readPlaylist(file);
  if (!info?.ended) throw new Error(`no closed playlist at ${file}`);
  const text = readFileSync(file, 'utf8');
  const longest = Math.max(...[...text.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1])));
  const bytes = info.segments.reduce((sum, s) => sum + statSync(path.join(dir, s)).size, 0);
  return { segments: info.segments.length, longestSegmentSeconds: longest, lengthSeconds: info.lengthSeconds, kbps: Math.round((bytes * 8) / 1000 / info.lengthSeconds) };
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const hls = (out: string) => ['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_segment_filename', path.join(out, 'seg-%05d.ts'), path.join(out, 'index.m3u8')];

async function main() {
  const input = await clip();

  const plainCopy = await best('plain copy into HLS', (out) => ffmpeg(['-i', input, '-map', '0', '-c', 'copy', ...hls(out)]));

  // prettier-ignore
  const bareEncode = await best('bare 720p encode', (out) => ffmpeg([
    '-threads', String(THREADS), '-i', input, '-map', '0:v:0', '-map', '0:a:0', '-vf', 'scale=-2:720',
    '-c:v', 'libx264', '-preset', X264_PRESET, '-crf', String(X264_CRF), '-profile:v', 'high',
    '-maxrate', `${RENDITION_RATES.top.videoKbps}k`, '-bufsize', `${RENDITION_RATES.top.videoKbps * 2}k`,
    '-force_key_frames', `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`, '-threads', String(THREADS),
    '-c:a', 'aac', '-b:a', `${RENDITION_RATES.top.audioKbps}k`, '-ac', '2', '-ar', '48000', ...hls(out),
  ]));

  let progressCalls = 0;
  const product = await best('transcodeToHls (720p + 360p + poster)', async (out) => {
    const video = await transcodeToHls(input, out, { threads: THREADS, onProgress: () => (progressCalls += 1) });
    if (Math.abs(video.durationSeconds - SECONDS) > 0.5) throw new Error(`transcoded ${video.durationSeconds} s of ${SECONDS}`);
  });

  // Rendition folders are named by index, the top (720) first.
  const renditions = {
    '720': await output(path.join(product.out, '0')),
    '360': await output(path.join(product.out, '1')),
  };
  const bareOutput = await output(bareEncode.out);
  for (const dir of [plainCopy.out, bareEncode.out, product.out]) rmSync(dir, { recursive: true, force: true });
  const strip = ({ out: _out, ...m }: Measured & { runs: number[]; out: string }) => m;

  console.log('');
  console.log(`${SECONDS} s of 1080p30 on ${os.availableParallelism()} cores, ${THREADS} threads, preset ${X264_PRESET}:`);
  console.log('                         wall s   × real time   CPU s   peak RSS MB');
  for (const [label, m] of [['plain copy (remux)', plainCopy], ['bare 720p encode', bareEncode], ['transcodeToHls', product]] as const) {
    console.log(`${label.padEnd(24)} ${m.wallSeconds.toFixed(2).padStart(7)} ${m.realTime.toFixed(2).padStart(12)} ${m.cpuSeconds.toFixed(1).padStart(7)} ${m.peakRssMb.toFixed(0).padStart(13)}`);
  }
  console.log('');

  writeResult('transcode', {
    config: { seconds: SECONDS, source: '1920x1080 30 fps H.264 high ~12 Mbit/s + AAC, .mov', runs: RUNS, threads: THREADS, preset: X264_PRESET, crf: X264_CRF },
    plainCopy: strip(plainCopy),
    bareEncode720: { ...strip(bareEncode), output: bareOutput },
    transcodeToHls: { ...strip(product), renditions, progressCalls: Math.round(progressCalls / RUNS) },
    ratio: {
      productToBareEncode: round(product.wallSeconds / bareEncode.wallSeconds),
      productCpuToBareEncodeCpu: round(product.cpuSeconds / bareEncode.cpuSeconds),
      productToPlainCopy: round(product.wallSeconds / plainCopy.wallSeconds, 1),
    },
  });
}

await main();
