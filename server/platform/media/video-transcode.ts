/**
 * Uploaded videos (.mov or .mp4, any resolution) made into HLS for video posts. The file is probed
 * (ffprobe next to our ffmpeg, else ffmpeg's own report of its input), then one ffmpeg run writes
 * H.264/AAC renditions in folders named by their height (at most 720 lines, and 360 below that) as
 * VOD playlists of ~4 s segments cut on 2 s keyframes, the master playlist `index.m3u8` and a poster.
 * Only the mov/mp4 demuxer and the file protocol are allowed: an upload that is really a playlist or
 * a concat script cannot make ffmpeg read other files or the network.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { resolveFfmpegPath } from './ffmpeg-path';
import { killFfmpeg, type FfmpegRun } from './ffmpeg-process';
import { PLAYLIST_NAME, readPlaylist } from './hls-playlist';

/** A file that is not a playable video. The message is for logs; callers show their own text. */
export class VideoRefused extends Error {}

export const MASTER_PLAYLIST = PLAYLIST_NAME;
/** Each rendition's playlist, in a folder named by its index, the top one first (`0/index.m3u8`). */
export const RENDITION_PLAYLIST = PLAYLIST_NAME;
export const POSTER_FILE = 'poster.jpg';
export const SEGMENT_FILE = /^seg-\d{5}\.ts$/;
export const TOP_RENDITION_HEIGHT = 720;
export const LOW_RENDITION_HEIGHT = 360;
export const SEGMENT_SECONDS = 4;
/** Every rendition gets a keyframe at the same instants, so segments cut cleanly and line up across renditions. */
export const KEYFRAME_SECONDS = 2;
/**
 * veryfast: the uploader waits for the transcode, and it holds the machine's cores meanwhile. On the
 * 2-core machine a 1080p upload becomes 720p + 360p at ~2× real time (bench/transcode.ts); a 720p
 * encode at medium takes ~1.5× as long as at veryfast, while superfast saves only ~13 % of the time
 * and needs ~2.5× the bits at the same CRF, so it runs into the peak rate below and looks worse.
 */
export const X264_PRESET = 'veryfast';
export const X264_CRF = 23;
/** Capped CRF: each rendition's peak video rate (the master's BANDWIDTH comes from it) and its audio rate. */
export const RENDITION_RATES = {
  top: { videoKbps: 3000, audioKbps: 128 },
  low: { videoKbps: 1000, audioKbps: 96 },
} as const;

/** Beyond 8K a "video" is more likely a decoder memory bomb than a post: refused before decoding. */
const MAX_VIDEO_PIXELS = 8192 * 4320;
/** Frame rates above this (high-speed phone clips) are brought down to it. */
const MAX_FRAME_RATE = 60;
const PROBE_TIMEOUT_MS = 30_000;
const INPUT_FORMAT = ['-f', 'mov', '-protocol_whitelist', 'file'];
/** ffmpeg's complaints about its input, as against about the machine (disk, memory) or our arguments. */
const INPUT_FAULT =
  /Invalid data found|moov atom not found|error reading header|Decoder \(codec .*\) not found|Error while decoding|Could not find codec parameters|Invalid NAL|corrupt|no frame!/i;
const OUT_TIME = /^out_time_(?:us|ms)=(\d+)$/;

export interface VideoFacts {
  durationSeconds: number;
  /** As shown: after the rotation the file asks for and its pixel aspect ratio. */
  width: number;
  height: number;
  hasAudio: boolean;
}

/** What the transcode needs besides the facts. */
interface Probed extends VideoFacts {
  videoStream: number;
  audioStream: number | null;
  /** Frames per second, validated digits only (`30000/1001`, `25`); null when the file does not say. */
  frameRate: string | null;
}

export interface HlsRendition {
  width: number;
  height: number;
  /** Relative to the output directory: `0/index.m3u8`. */
  playlist: string;
}

export interface HlsVideo {
  /** Of the written top rendition (a file cut short gives less than its header claims). */
  durationSeconds: number;
  /** The top rendition's (and the poster's) size. */
  width: number;
  height: number;
  /** Highest first. */
  renditions: HlsRendition[];
  /** Relative to the output directory. */
  poster: string;
}

export interface TranscodeOptions {
  /** 0..1, never decreasing; 1 once every file is written. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Threads for decoding, filtering and each encoder; default every core. */
  threads?: number;
  ffmpegPath?: string;
}

/** Heights of the renditions made of a source this high: at most 720 (never upscaled, even), plus 360 when there is room. */
export function renditionHeights(sourceHeight: number): number[] {
  const top = Math.max(2, even(Math.min(sourceHeight, TOP_RENDITION_HEIGHT)));
  return top > LOW_RENDITION_HEIGHT ? [top, LOW_RENDITION_HEIGHT] : [top];
}

/** Duration, shown size and audio of a video file; VideoRefused when it is not one ffmpeg can play. */
export async function probeVideo(file: string, ffmpegPath = resolveFfmpegPath()): Promise<VideoFacts> {
  const { durationSeconds, width, height, hasAudio } = await probe(file, ffmpegPath);
  return { durationSeconds, width, height, hasAudio };
}

export async function transcodeToHls(input: string, outDir: string, options: TranscodeOptions = {}): Promise<HlsVideo> {
  const { signal, onProgress } = options;
  const ffmpegPath = options.ffmpegPath ?? resolveFfmpegPath();
  const threads = Math.max(1, Math.min(64, Math.floor(options.threads ?? os.availableParallelism())));
  const out = path.resolve(outDir);
  // ffmpeg expands % in output names (segment numbers, variant names).
  if (out.includes('%')) throw new Error('the output directory of a transcode may not contain %');
  signal?.throwIfAborted();
  const facts = await probe(input, ffmpegPath, signal);
  const renditions = renditionHeights(facts.height).map((height) => ({ height, width: Math.max(2, even(Math.round((facts.width * height) / facts.height))) }));
  const top = renditions[0]!;

  let reported = 0;
  const report = (fraction: number) => {
    if (fraction <= reported || signal?.aborted) return;
    reported = fraction;
    onProgress?.(fraction);
  };
  const written = [MASTER_PLAYLIST, POSTER_FILE, ...renditions.map((_, i) => String(i))].map((name) => path.join(out, name));
  await Promise.all(renditions.map((_, i) => mkdir(path.join(out, String(i)), { recursive: true })));
  // Until every file is written, progress stays short of 1.
  const run = runWithProgress(ffmpegPath, transcodeArgs(input, out, facts, renditions, threads), (seconds) => report(Math.min(0.99, seconds / facts.durationSeconds)));
  const abort = () => void killFfmpeg(run, 1000);
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const code = await run.exited;
    signal?.throwIfAborted();
    if (code !== 0) {
      if (INPUT_FAULT.test(run.tail())) throw new VideoRefused(`ffmpeg refused the input (exit ${code}): ${run.tail()}`);
      throw new Error(`ffmpeg could not transcode (exit ${code}): ${run.tail()}`);
    }
    const playlists = await Promise.all(renditions.map((_, i) => readPlaylist(path.join(out, String(i), RENDITION_PLAYLIST))));
    const poster = await stat(path.join(out, POSTER_FILE)).catch(() => null);
    // ffmpeg ends well on a video stream none of whose frames decode; there is then nothing to show.
    if (!poster?.size || playlists.some((p) => p?.segments.length === 0)) throw new VideoRefused(`ffmpeg decoded no video frame: ${run.tail()}`);
    if (playlists.some((p) => !p?.ended || !p.segments.every((s) => SEGMENT_FILE.test(s)))) throw new Error(`ffmpeg left an unexpected playlist: ${run.tail()}`);
    report(1);
    return {
      durationSeconds: playlists[0]!.lengthSeconds,
      width: top.width,
      height: top.height,
      renditions: renditions.map((r, i) => ({ ...r, playlist: `${i}/${RENDITION_PLAYLIST}` })),
      poster: POSTER_FILE,
    };
  } catch (error) {
    await killFfmpeg(run, 1000);
    await Promise.all(written.map((file) => rm(file, { recursive: true, force: true })));
    throw error;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

function transcodeArgs(input: string, out: string, facts: Probed, renditions: { width: number; height: number }[], threads: number): string[] {
  const top = renditions[0]!;
  const low = renditions[1];
  const fps = facts.frameRate ? `fps=${facts.frameRate},` : '';
  // Scaled once to the top size (the 360 is made from that), then split into the renditions and the poster.
  const graph = low
    ? `[0:${facts.videoStream}]${fps}scale=${top.width}:${top.height},setsar=1,format=yuv420p,split=3[v0][low][poster];[low]scale=${low.width}:${low.height},setsar=1[v1]`
    : `[0:${facts.videoStream}]${fps}scale=${top.width}:${top.height},setsar=1,format=yuv420p,split=2[v0][poster]`;
  // Folders by index (0 the top rendition): ffmpeg before 4.1 has no `name:` in the stream map.
  const variants = renditions.map((_, i) => (facts.audioStream === null ? `v:${i}` : `v:${i},a:${i}`));
  const perRendition = renditions.flatMap((_, i) => {
    const rates = i === 0 ? RENDITION_RATES.top : RENDITION_RATES.low;
    // prettier-ignore
    return [
      `-profile:v:${i}`, i === 0 ? 'high' : 'main',
      `-maxrate:v:${i}`, `${rates.videoKbps}k`, `-bufsize:v:${i}`, `${rates.videoKbps * 2}k`,
      ...(facts.audioStream === null ? [] : [`-b:a:${i}`, `${rates.audioKbps}k`]),
    ];
  });
  // A source without sound gets no audio track rather than a silent one: hls.js, Safari and ExoPlayer
  // all play video-only streams, the CODECS attribute then says so, and no bits or CPU go on silence.
  const maps = renditions.flatMap((_, i) => ['-map', `[v${i}]`, ...(facts.audioStream === null ? [] : ['-map', `0:${facts.audioStream}`])]);
  // prettier-ignore
  return [
    '-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-y', '-progress', 'pipe:1',
    '-threads', String(threads), ...INPUT_FORMAT, '-i', inputUrl(input),
    '-filter_complex', graph, '-filter_complex_threads', String(threads),
    // The poster: about a second in (past fades from black), or the first frame of a clip too short for that.
    '-map', '[poster]', '-map_metadata', '-1', '-ss', facts.durationSeconds >= 2 ? '1' : '0', '-frames:v', '1', '-update', '1', '-q:v', '3', '-threads', '1',
    path.join(out, POSTER_FILE),
    ...maps, '-map_metadata', '-1', '-map_chapters', '-1',
    '-c:v', 'libx264', '-preset', X264_PRESET, '-crf', String(X264_CRF), ...perRendition,
    '-force_key_frames', `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`, '-threads', String(threads),
    ...(facts.audioStream === null ? [] : ['-c:a', 'aac', '-ac', '2', '-ar', '48000']),
    // Phone files often interleave sound and picture coarsely: packets wait for the other encoder to start.
    '-max_muxing_queue_size', '4096',
    '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_flags', 'independent_segments',
    '-hls_segment_filename', path.join(out, '%v', 'seg-%05d.ts'),
    '-master_pl_name', MASTER_PLAYLIST, '-var_stream_map', variants.join(' '),
    path.join(out, '%v', RENDITION_PLAYLIST),
  ];
}

/** Absolute and with an explicit protocol: it can never read as an option (`-…`) or another protocol (`concat:…`). */
function inputUrl(file: string): string {
  return `file:${path.resolve(file)}`;
}

function even(n: number): number {
  return Math.floor(n / 2) * 2;
}

async function probe(file: string, ffmpegPath: string, signal?: AbortSignal): Promise<Probed> {
  const ffprobe = path.join(path.dirname(ffmpegPath), 'ffprobe');
  const usesFfprobe = existsSync(ffprobe);
  const [command, args] = usesFfprobe
    ? [ffprobe, ['-v', 'error', ...INPUT_FORMAT, '-show_streams', '-show_format', '-of', 'json', inputUrl(file)]]
    : [ffmpegPath, ['-hide_banner', '-nostdin', ...INPUT_FORMAT, '-i', inputUrl(file)]];
  const result = await promisify(execFile)(command, args, { encoding: 'utf8', maxBuffer: 8 << 20, timeout: PROBE_TIMEOUT_MS, killSignal: 'SIGKILL', signal }).then(
    (r) => ({ ...r, failed: false }),
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '', failed: true }),
  );
  signal?.throwIfAborted();
  const lastLine = result.stderr.trim().split('\n').at(-1) ?? '';
  // ffmpeg without an output always exits non-zero; its report of the input comes first.
  if (usesFfprobe && result.failed) throw new VideoRefused(`ffprobe refused the file: ${lastLine}`);
  const facts = usesFfprobe ? fromFfprobe(result.stdout) : fromFfmpegReport(result.stderr);
  if (!facts) throw new VideoRefused(`no video stream: ${lastLine}`);
  if (!(facts.durationSeconds > 0) || !Number.isFinite(facts.durationSeconds)) throw new VideoRefused('the video has no duration');
  if (facts.width * facts.height > MAX_VIDEO_PIXELS) throw new VideoRefused(`the video is ${facts.width}×${facts.height}`);
  return facts;
}

interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  side_data_list?: { rotation?: number }[];
  tags?: { rotate?: string };
}

function fromFfprobe(json: string): Probed | null {
  let parsed: { streams?: ProbeStream[]; format?: { duration?: string } };
  try {
    parsed = JSON.parse(json) as typeof parsed;
  } catch {
    return null;
  }
  const streams = parsed.streams ?? [];
  // A cover picture is also a "video" stream.
  const video = streams.find((s) => s.codec_type === 'video' && s.codec_name && s.disposition?.attached_pic !== 1);
  if (!video) return null;
  const audio = streams.find((s) => s.codec_type === 'audio');
  const rotation = video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? Number(video.tags?.rotate ?? 0);
  return shown({
    videoStream: video.index,
    audioStream: audio?.index ?? null,
    durationSeconds: Number(parsed.format?.duration ?? video.duration ?? NaN),
    width: video.width ?? 0,
    height: video.height ?? 0,
    sar: video.sample_aspect_ratio ?? '',
    rotation,
    frameRate: video.avg_frame_rate ?? '',
  });
}

/** The same facts from ffmpeg's description of its input (stderr), for an ffmpeg shipped without ffprobe. */
function fromFfmpegReport(text: string): Probed | null {
  const duration = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(text);
  let video: { index: number; width: number; height: number; sar: string; frameRate: string; rotation: number } | null = null;
  let audio: number | null = null;
  let current: 'video' | 'other' = 'other';
  for (const line of text.split('\n')) {
    const stream = /Stream #0:(\d+)\S*: (Video|Audio|\w+): /.exec(line);
    if (stream) {
      current = 'other';
      if (stream[2] === 'Audio' && audio === null) audio = Number(stream[1]);
      const size = /, (\d{1,5})x(\d{1,5})[, ]/.exec(line);
      if (stream[2] === 'Video' && !video && size && !line.includes('(attached pic)')) {
        current = 'video';
        const sar = /\[SAR (\d+):(\d+)/.exec(line);
        video = {
          index: Number(stream[1]),
          width: Number(size[1]),
          height: Number(size[2]),
          sar: sar ? `${sar[1]}:${sar[2]}` : '',
          frameRate: /, ([\d.]+) fps,/.exec(line)?.[1] ?? '',
          rotation: 0,
        };
      }
      continue;
    }
    const rotation = /displaymatrix: rotation of (-?[\d.]+) degrees|^\s+rotate\s+: (-?\d+)/.exec(line);
    if (rotation && current === 'video' && video) video.rotation = Number(rotation[1] ?? rotation[2]);
  }
  if (!video) return null;
  const seconds = duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : NaN;
  return shown({ ...video, videoStream: video.index, audioStream: audio, durationSeconds: seconds });
}

/** The size a player shows (pixel aspect ratio and rotation applied) and a frame rate safe to put in a filter. */
function shown(s: { videoStream: number; audioStream: number | null; durationSeconds: number; width: number; height: number; sar: string; rotation: number; frameRate: string }): Probed | null {
  if (!(s.width > 0 && s.height > 0)) return null;
  const [sarNum, sarDen] = s.sar.split(':').map(Number);
  const width = sarNum && sarDen ? Math.round((s.width * sarNum) / sarDen) : s.width;
  const sideways = Math.abs(Math.round(s.rotation)) % 180 === 90;
  return {
    videoStream: s.videoStream,
    audioStream: s.audioStream,
    durationSeconds: s.durationSeconds,
    width: sideways ? s.height : width,
    height: sideways ? width : s.height,
    hasAudio: s.audioStream !== null,
    frameRate: safeFrameRate(s.frameRate),
  };
}

function safeFrameRate(text: string): string | null {
  const match = /^(\d+)(?:\/(\d+))?$|^(\d+\.\d+)$/.exec(text);
  if (!match) return null;
  const value = match[3] ? Number(match[3]) : Number(match[1]) / Number(match[2] ?? 1);
  if (!(value > 0) || !Number.isFinite(value)) return null;
  return value > MAX_FRAME_RATE ? String(MAX_FRAME_RATE) : text;
}

/** Like runFfmpeg, with ffmpeg's `-progress pipe:1` report read from stdout (runFfmpeg leaves stdout closed). */
function runWithProgress(ffmpegPath: string, args: string[], onOutTime: (seconds: number) => void): FfmpegRun {
  const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    lines.push(line);
    if (lines.length > 20) lines.shift();
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const match = OUT_TIME.exec(line);
    if (match) onOutTime(Number(match[1]) / 1_000_000);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(-1));
    child.once('close', (code) => resolve(code));
  });
  return { child, exited, tail: () => lines.join('\n') };
}
