/**
 * Uploaded videos to HLS, on short clips ffmpeg generates (lavfi testsrc2 and sine) in a temporary
 * directory. Outputs are checked with ffmpeg alone (no ffprobe ships with the npm ffmpeg): run with
 * FFMPEG_PATH set to that one too.
 */
import { execFile as execFileCallback } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveFfmpegPath } from './ffmpeg-path';
import { DiskFull } from '../uploads/disk-full';
import { readPlaylist } from './hls-playlist';
import { codecsOf, h264Level } from './renditions';
import { MASTER_PLAYLIST, POSTER_FILE, probeVideo, renditionHeights, SEGMENT_FILE, transcodeToHls, VideoRefused } from './video-transcode';

const execFile = promisify(execFileCallback);
const FFMPEG = resolveFfmpegPath();
const dir = mkdtempSync(path.join(os.tmpdir(), 'll-video-transcode-'));
const clip = (name: string) => path.join(dir, name);

async function generate(name: string, o: { width: number; height: number; seconds: number; audio: boolean; rate?: number; extra?: string[] }) {
  // prettier-ignore
  await execFile(FFMPEG, [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${o.width}x${o.height}:rate=${o.rate ?? 30}`,
    ...(o.audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'] : []),
    '-t', String(o.seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...(o.audio ? ['-c:a', 'aac'] : []),
    ...(o.extra ?? []), clip(name),
  ]);
}

/** A file's streams, from ffmpeg's report of its input (ffmpeg without an output exits 1 after it). */
async function streamsOf(file: string): Promise<{ type: string; codec: string; width?: number; height?: number }[]> {
  const { stderr } = await execFile(FFMPEG, ['-hide_banner', '-nostdin', '-i', file]).catch((error: { stderr: string }) => error);
  return stderr.split('\n').flatMap((line) => {
    const stream = /Stream #\d+:\d+\S*: (Video|Audio|\w+): (\w+)/.exec(line);
    if (!stream) return [];
    const size = /, (\d+)x(\d+)[, ]/.exec(line);
    return [{ type: stream[1]!.toLowerCase(), codec: stream[2]!, ...(stream[1] === 'Video' && size ? { width: Number(size[1]), height: Number(size[2]) } : {}) }];
  });
}

/** `avc1.PPCCLL` from the first sequence parameter set of a file's video: profile_idc, constraint flags, level_idc. */
async function avc1Of(file: string): Promise<string> {
  const { stdout } = await execFile(FFMPEG, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'h264', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 << 20,
  });
  for (let i = 0; i + 6 < stdout.length; i++) {
    if (stdout[i] === 0 && stdout[i + 1] === 0 && stdout[i + 2] === 1 && (stdout[i + 3]! & 0x1f) === 7) return `avc1.${stdout.subarray(i + 4, i + 7).toString('hex')}`;
  }
  throw new Error(`no SPS in ${file}`);
}

/** The master playlist's variants: attributes and URI. */
function variants(master: string): { bandwidth: number; averageBandwidth: number; resolution: string; codecs: string; uri: string }[] {
  const lines = master.split('\n');
  return lines.flatMap((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return [];
    return [
      {
        bandwidth: Number(/[:,]BANDWIDTH=(\d+)/.exec(line)?.[1]),
        averageBandwidth: Number(/AVERAGE-BANDWIDTH=(\d+)/.exec(line)?.[1]),
        resolution: /RESOLUTION=(\d+x\d+)/.exec(line)?.[1] ?? '',
        codecs: /CODECS="([^"]*)"/.exec(line)?.[1] ?? '',
        uri: lines[i + 1]!.trim(),
      },
    ];
  });
}

/** A rendition playlist's segments with their EXTINF durations, and its target duration. */
function segmentsOf(playlist: string): { target: number; segments: { uri: string; seconds: number }[] } {
  const segments: { uri: string; seconds: number }[] = [];
  let seconds = 0;
  for (const line of playlist.split('\n').map((l) => l.trim())) {
    if (line.startsWith('#EXTINF:')) seconds = Number.parseFloat(line.slice(8));
    else if (line && !line.startsWith('#')) segments.push({ uri: line, seconds });
  }
  return { target: Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(playlist)?.[1]), segments };
}

/** Processes whose command line names the test directory (ffmpeg or ffprobe left running). */
function processesOnTestFiles(): number[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

beforeAll(async () => {
  await Promise.all([
    generate('landscape.mov', { width: 1920, height: 1080, seconds: 3, audio: true }),
    generate('small.mp4', { width: 320, height: 240, seconds: 1.5, audio: false }),
    // 60 fps: its top rendition needs level 3.1 where 30 fps would do with 3.0.
    generate('portrait.mp4', { width: 1080, height: 1920, seconds: 2, audio: true, rate: 60 }),
  ]);
  // A phone's portrait clip: stored landscape, shown turned.
  await execFile(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-i', clip('landscape.mov'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', clip('turned.mov')]);
  await writeFile(clip('text.mp4'), 'This is not a video, whatever its name says.\n'.repeat(100));
  const mov = await readFile(clip('landscape.mov'));
  await writeFile(clip('truncated.mov'), mov.subarray(0, 2048));
  // Intact header (ffmpeg writes it last), noise for pictures and sound: probing passes, decoding fails.
  const moov = mov.indexOf('moov');
  await writeFile(clip('garbled.mov'), Buffer.concat([mov.subarray(0, 200), randomBytes(moov - 208), mov.subarray(moov - 8)]));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('renditionHeights', () => {
  it('caps the top at 720 without upscaling, adds 360 only below a taller top, keeps heights even', () => {
    expect(renditionHeights(2160)).toEqual([720, 360]);
    expect(renditionHeights(1080)).toEqual([720, 360]);
    expect(renditionHeights(720)).toEqual([720, 360]);
    expect(renditionHeights(480)).toEqual([480, 360]);
    expect(renditionHeights(361)).toEqual([360]);
    expect(renditionHeights(360)).toEqual([360]);
    expect(renditionHeights(241)).toEqual([240]);
    expect(renditionHeights(1)).toEqual([2]);
  });
});

describe('h264Level and codecsOf', () => {
  it('name the lowest level from 3.0 on that holds the size, the frame rate and the rate cap', () => {
    expect(h264Level(1280, 720, 30, 'high', 3000)).toBe(31);
    expect(h264Level(1280, 720, 60, 'high', 3000)).toBe(32);
    expect(h264Level(640, 360, 30, 'main', 1000)).toBe(30);
    expect(h264Level(640, 360, 60, 'main', 1000)).toBe(31);
    expect(h264Level(320, 240, 30000 / 1001, 'high', 3000)).toBe(30);
    expect(h264Level(404, 720, 30, 'high', 3000)).toBe(30);
    expect(h264Level(404, 720, 60, 'high', 3000)).toBe(31);
    // A panorama: 6072 macroblocks would fit 4.0, but 264 of them on a side are more than 4.2 allows (√(8 × 8704)).
    expect(h264Level(4224, 360, 30, 'high', 3000)).toBe(50);
    // The rate cap alone: a 6 Mbit/s cap's 12 Mbit buffer is over Main 3.0's 10 but within High 3.0's 12.5.
    expect(h264Level(320, 240, 30, 'main', 6000)).toBe(31);
    expect(h264Level(320, 240, 30, 'high', 6000)).toBe(30);
  });

  it('write the CODECS attribute from profile and level, with AAC only when there is sound', () => {
    expect(codecsOf('high', 31, true)).toBe('avc1.64001f,mp4a.40.2');
    expect(codecsOf('main', 30, true)).toBe('avc1.4d401e,mp4a.40.2');
    expect(codecsOf('high', 32, false)).toBe('avc1.640020');
  });
});

describe('probeVideo', () => {
  it('reads duration, shown size and audio, turned as the file asks, with or without ffprobe', async () => {
    // Clips with sound made by the npm ffmpeg of 2018 last 3.022 s: its mov muxer counts the AAC priming in.
    const threeSeconds = expect.closeTo(3, 1);
    await expect(probeVideo(clip('landscape.mov'))).resolves.toEqual({ durationSeconds: threeSeconds, width: 1920, height: 1080, hasAudio: true });
    await expect(probeVideo(clip('turned.mov'))).resolves.toEqual({ durationSeconds: threeSeconds, width: 1080, height: 1920, hasAudio: true });
    // An ffmpeg with no ffprobe beside it (the npm-shipped one): its own report of the input is read.
    const lone = clip('lone');
    await mkdir(lone);
    await symlink(FFMPEG, path.join(lone, 'ffmpeg'));
    await expect(probeVideo(clip('turned.mov'), path.join(lone, 'ffmpeg'))).resolves.toEqual({ durationSeconds: threeSeconds, width: 1080, height: 1920, hasAudio: true });
    await expect(probeVideo(clip('small.mp4'), path.join(lone, 'ffmpeg'))).resolves.toEqual({ durationSeconds: 1.5, width: 320, height: 240, hasAudio: false });
    await expect(probeVideo(clip('text.mp4'), path.join(lone, 'ffmpeg'))).rejects.toThrow(VideoRefused);
  });

  it('never reads a path as an option', async () => {
    await copyFile(clip('small.mp4'), clip('-i.mp4'));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await expect(probeVideo('-i.mp4')).resolves.toMatchObject({ width: 320, height: 240 });
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('transcodeToHls', () => {
  const cases = [
    { name: 'a 1080p .mov with sound', file: 'landscape.mov', seconds: 3, audio: true, sizes: [[1280, 720], [640, 360]], avc1: ['avc1.64001f', 'avc1.4d401e'] },
    { name: 'a 320×240 .mp4 without sound', file: 'small.mp4', seconds: 1.5, audio: false, sizes: [[320, 240]], avc1: ['avc1.64001e'] },
    { name: 'a portrait 1080×1920 60 fps .mp4', file: 'portrait.mp4', seconds: 2, audio: true, sizes: [[404, 720], [202, 360]], avc1: ['avc1.64001f', 'avc1.4d401e'] },
  ];

  it.each(cases)('makes $name into HLS renditions, a master playlist and a poster', async (c) => {
    const out = clip(`${c.file}-hls`);
    const progress: number[] = [];
    const video = await transcodeToHls(clip(c.file), out, { onProgress: (f) => progress.push(f), threads: 2 });

    const [topWidth, topHeight] = c.sizes[0]!;
    expect(video).toMatchObject({ width: topWidth, height: topHeight, poster: POSTER_FILE });
    expect(video.renditions).toEqual(c.sizes.map(([width, height], i) => ({ width, height, playlist: `${i}/index.m3u8` })));
    expect(Math.abs(video.durationSeconds - c.seconds)).toBeLessThanOrEqual(0.5);

    // What hls.js needs of the master: each rendition with its size and codecs, then its playlist's URI.
    const master = await readFile(path.join(out, MASTER_PLAYLIST), 'utf8');
    expect(master.startsWith('#EXTM3U\n#EXT-X-VERSION:')).toBe(true);
    const listed = variants(master);
    expect(listed.map(({ resolution, uri }) => ({ resolution, uri }))).toEqual(c.sizes.map(([width, height], i) => ({ resolution: `${width}x${height}`, uri: `${i}/index.m3u8` })));
    expect(listed.map((v) => v.codecs)).toEqual(c.avc1.map((avc1) => (c.audio ? `${avc1},mp4a.40.2` : avc1)));

    for (const [i, rendition] of video.renditions.entries()) {
      const text = await readFile(path.join(out, rendition.playlist), 'utf8');
      expect(text).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      expect(text.trim().endsWith('#EXT-X-ENDLIST')).toBe(true);
      const playlist = (await readPlaylist(path.join(out, rendition.playlist)))!;
      expect(playlist.segments.length).toBeGreaterThan(0);
      expect(playlist.segments.every((s) => SEGMENT_FILE.test(s))).toBe(true);

      const folder = path.dirname(path.join(out, rendition.playlist));
      expect(folder).toBe(path.join(out, String(i)));
      const first = path.join(folder, playlist.segments[0]!);
      const streams = await streamsOf(first);
      expect(streams.filter((s) => s.type === 'video')).toEqual([{ type: 'video', codec: 'h264', width: rendition.width, height: rendition.height }]);
      expect(streams.filter((s) => s.type === 'audio').map((s) => s.codec)).toEqual(c.audio ? ['aac'] : []);
      // The CODECS attribute names the profile and level the stream really has.
      expect(await avc1Of(first)).toBe(c.avc1[i]);

      // BANDWIDTH: at least every segment's rate (all of these last over half the target), AVERAGE-BANDWIDTH the whole rendition's.
      const { target, segments } = segmentsOf(text);
      const bits = await Promise.all(segments.map(async (s) => (await stat(path.join(folder, s.uri))).size * 8));
      const seconds = segments.reduce((sum, s) => sum + s.seconds, 0);
      expect(listed[i]!.averageBandwidth).toBe(Math.ceil(bits.reduce((sum, b) => sum + b, 0) / seconds));
      for (const [j, s] of segments.entries()) if (s.seconds >= target / 2) expect(listed[i]!.bandwidth).toBeGreaterThanOrEqual(bits[j]! / s.seconds);
      expect(listed[i]!.bandwidth).toBeGreaterThanOrEqual(listed[i]!.averageBandwidth);
    }

    const poster = await sharp(path.join(out, POSTER_FILE)).metadata();
    expect(poster).toMatchObject({ format: 'jpeg', width: topWidth, height: topHeight });

    expect(progress.at(-1)).toBe(1);
    expect(progress.every((f, i) => f > 0 && f <= 1 && (i === 0 || f > progress[i - 1]!))).toBe(true);
  }, 30_000);

  it('refuses a text file named .mp4, a cut-off .mov and one of noise, leaving no ffmpeg behind and no output', async () => {
    for (const file of ['text.mp4', 'truncated.mov', 'garbled.mov']) {
      const out = clip(`${file}-hls`);
      await expect(transcodeToHls(clip(file), out, { threads: 1 })).rejects.toThrow(VideoRefused);
      expect(processesOnTestFiles()).toEqual([]);
      expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    }
  }, 20_000);

  it('stops ffmpeg when the signal aborts, and removes what it wrote', async () => {
    const out = clip('aborted-hls');
    const controller = new AbortController();
    const started = performance.now();
    // One thread keeps the run long enough to be caught in the middle.
    const run = transcodeToHls(clip('landscape.mov'), out, { threads: 1, signal: controller.signal, onProgress: () => controller.abort() });
    setTimeout(() => controller.abort(), 1500);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(processesOnTestFiles()).toEqual([]);
    expect(readdirSync(out)).toEqual([]);
  }, 20_000);
});

describe('transcodeToHls on a full disk', () => {
  it('stops with DiskFull (not a refused video) and leaves none of its output', async (context) => {
    const out = clip('full-disk-hls');
    await mkdir(out, { recursive: true });
    const mounted = await execFile('mount', ['-t', 'tmpfs', '-o', 'size=128k', 'tmpfs', out]).then(() => true, () => false);
    if (!mounted) context.skip();
    try {
      const failed = await transcodeToHls(clip('landscape.mov'), out, { threads: 2 }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(DiskFull);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      await execFile('umount', [out]);
    }
  }, 60_000);
});
