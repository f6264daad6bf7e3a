/** Uploaded videos to HLS, on short clips ffmpeg generates (lavfi testsrc2 and sine) in a temporary directory. */
import { execFile as execFileCallback } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveFfmpegPath } from './ffmpeg-path';
import { readPlaylist } from './hls-playlist';
import { MASTER_PLAYLIST, POSTER_FILE, probeVideo, renditionHeights, SEGMENT_FILE, transcodeToHls, VideoRefused } from './video-transcode';

const execFile = promisify(execFileCallback);
const FFMPEG = resolveFfmpegPath();
const FFPROBE = path.join(path.dirname(FFMPEG), 'ffprobe');
const dir = mkdtempSync(path.join(os.tmpdir(), 'll-video-transcode-'));
const clip = (name: string) => path.join(dir, name);

async function generate(name: string, o: { width: number; height: number; seconds: number; audio: boolean; extra?: string[] }) {
  // prettier-ignore
  await execFile(FFMPEG, [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${o.width}x${o.height}:rate=30`,
    ...(o.audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'] : []),
    '-t', String(o.seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...(o.audio ? ['-c:a', 'aac'] : []),
    ...(o.extra ?? []), clip(name),
  ]);
}

async function streamsOf(file: string): Promise<{ codec_type: string; codec_name: string; width?: number; height?: number }[]> {
  const { stdout } = await execFile(FFPROBE, ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height', '-of', 'json', file]);
  return (JSON.parse(stdout) as { streams: [] }).streams;
}

/** The master playlist's variants: RESOLUTION and URI. */
function variants(master: string): { resolution: string; uri: string }[] {
  const lines = master.split('\n');
  return lines.flatMap((line, i) => (line.startsWith('#EXT-X-STREAM-INF:') ? [{ resolution: /RESOLUTION=(\d+x\d+)/.exec(line)?.[1] ?? '', uri: lines[i + 1]!.trim() }] : []));
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
    generate('portrait.mp4', { width: 1080, height: 1920, seconds: 2, audio: true }),
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

describe('probeVideo', () => {
  it('reads duration, shown size and audio, turned as the file asks, with or without ffprobe', async () => {
    await expect(probeVideo(clip('landscape.mov'))).resolves.toEqual({ durationSeconds: 3, width: 1920, height: 1080, hasAudio: true });
    await expect(probeVideo(clip('turned.mov'))).resolves.toEqual({ durationSeconds: 3, width: 1080, height: 1920, hasAudio: true });
    // An ffmpeg with no ffprobe beside it (the npm-shipped one): its own report of the input is read.
    const lone = clip('lone');
    await mkdir(lone);
    await symlink(FFMPEG, path.join(lone, 'ffmpeg'));
    await expect(probeVideo(clip('turned.mov'), path.join(lone, 'ffmpeg'))).resolves.toEqual({ durationSeconds: 3, width: 1080, height: 1920, hasAudio: true });
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
    { name: 'a 1080p .mov with sound', file: 'landscape.mov', seconds: 3, audio: true, sizes: [[1280, 720], [640, 360]] },
    { name: 'a 320×240 .mp4 without sound', file: 'small.mp4', seconds: 1.5, audio: false, sizes: [[320, 240]] },
    { name: 'a portrait 1080×1920 .mp4', file: 'portrait.mp4', seconds: 2, audio: true, sizes: [[404, 720], [202, 360]] },
  ];

  it.each(cases)('makes $name into HLS renditions, a master playlist and a poster', async (c) => {
    const out = clip(`${c.file}-hls`);
    const progress: number[] = [];
    const video = await transcodeToHls(clip(c.file), out, { onProgress: (f) => progress.push(f), threads: 2 });

    const [topWidth, topHeight] = c.sizes[0]!;
    expect(video).toMatchObject({ width: topWidth, height: topHeight, poster: POSTER_FILE });
    expect(video.renditions).toEqual(c.sizes.map(([width, height], i) => ({ width, height, playlist: `${i}/index.m3u8` })));
    expect(Math.abs(video.durationSeconds - c.seconds)).toBeLessThanOrEqual(0.5);

    const master = await readFile(path.join(out, MASTER_PLAYLIST), 'utf8');
    expect(variants(master)).toEqual(c.sizes.map(([width, height], i) => ({ resolution: `${width}x${height}`, uri: `${i}/index.m3u8` })));
    expect(master.includes('mp4a')).toBe(c.audio);
    for (const rendition of video.renditions) {
      const text = await readFile(path.join(out, rendition.playlist), 'utf8');
      expect(text).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      expect(text.trim().endsWith('#EXT-X-ENDLIST')).toBe(true);
      const playlist = (await readPlaylist(path.join(out, rendition.playlist)))!;
      expect(playlist.segments.length).toBeGreaterThan(0);
      expect(playlist.segments.every((s) => SEGMENT_FILE.test(s))).toBe(true);
    }

    const top = (await readPlaylist(path.join(out, video.renditions[0]!.playlist)))!;
    const streams = await streamsOf(path.join(out, String(topHeight), top.segments[0]!));
    expect(streams.filter((s) => s.codec_type === 'video')).toEqual([{ codec_type: 'video', codec_name: 'h264', width: topWidth, height: topHeight }]);
    expect(streams.filter((s) => s.codec_type === 'audio').map((s) => s.codec_name)).toEqual(c.audio ? ['aac'] : []);

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
