/**
 * Uploaded videos (.mov or .mp4, any resolution) made into HLS for video posts. The file is probed
 * (ffprobe next to our ffmpeg, else ffmpeg's own report of its input), then one ffmpeg run writes
 * H.264/AAC renditions in folders named by their index (`0/` at most 720 lines, `1/` 360 below that)
 * as VOD playlists of ~4 s segments cut on 2 s keyframes, and a poster; the master playlist
 * `index.m3u8` is written here once the renditions are done. Each rendition is an output of its own
 * rather than a variant of one HLS output (`-var_stream_map`, `-master_pl_name`): the npm-shipped
 * ffmpeg of 2018 (N-47683, used where the system has none) crashes with SIGSEGV at the end of a
 * variant-stream run whose variants differ in size, and has no `name:` in the stream map.
 * Only the mov/mp4 demuxer and the file protocol are allowed: an upload that is really a playlist or
 * a concat script cannot make ffmpeg read other files or the network.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { resolveFfmpegPath } from './ffmpeg-path';
import { killFfmpeg, type FfmpegRun } from './ffmpeg-process';
import { DISK_FULL_LOG, DiskFull, diskIsFull } from '../uploads/disk-full';
import { parsePlaylist, PLAYLIST_NAME } from './hls-playlist';
import { codecsOf, even, h264Level, masterPlaylistText, type H264Profile } from './renditions';

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
/** Capped CRF: each rendition's peak video rate (VBV, over a 2 s buffer) and its audio rate. */
export const RENDITION_RATES = {
  top: { videoKbps: 3000, audioKbps: 128 },
  low: { videoKbps: 1000, audioKbps: 96 },
} as const;
/** H.264 profile of each rendition: High for the top, Main (no 8×8 transform) for older or smaller decoders. */
export const RENDITION_PROFILES = { top: 'high', low: 'main' } as const satisfies Record<string, H264Profile>;

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

/** One rendition as encoded. */
interface Rendition {
  width: number;
  height: number;
  profile: H264Profile;
  /** level_idc: 31 for 3.1. */
  level: number;
  videoKbps: number;
  audioKbps: number;
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
  // A file that does not say its rate is encoded at whatever rate it has: its level allows for the most we keep.
  const framesPerSecond = frameRateValue(facts.frameRate) ?? MAX_FRAME_RATE;
  const renditions = renditionHeights(facts.height).map((height, i): Rendition => {
    const width = Math.max(2, even(Math.round((facts.width * height) / facts.height)));
    const rank = i === 0 ? 'top' : 'low';
    const profile = RENDITION_PROFILES[rank];
    const { videoKbps, audioKbps } = RENDITION_RATES[rank];
    return { width, height, profile, level: h264Level(width, height, framesPerSecond, profile, videoKbps), videoKbps, audioKbps };
  });
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
      if (DISK_FULL_LOG.test(run.tail())) throw new DiskFull(`the disk filled up during the transcode: ${run.tail()}`);
      if (INPUT_FAULT.test(run.tail())) throw new VideoRefused(`ffmpeg refused the input (exit ${code}): ${run.tail()}`);
      throw new Error(`ffmpeg could not transcode (exit ${code}): ${run.tail()}`);
    }
    const texts = await Promise.all(renditions.map((_, i) => readFile(path.join(out, String(i), RENDITION_PLAYLIST), 'utf8').catch(() => null)));
    const playlists = texts.map((text) => (text === null ? null : parsePlaylist(text)));
    const poster = await stat(path.join(out, POSTER_FILE)).catch(() => null);
    // ffmpeg ends well on a video stream none of whose frames decode; there is then nothing to show.
    if (!poster?.size || playlists.some((p) => p?.segments.length === 0)) throw new VideoRefused(`ffmpeg decoded no video frame: ${run.tail()}`);
    if (playlists.some((p) => !p?.ended || !p.segments.every((s) => SEGMENT_FILE.test(s)))) throw new Error(`ffmpeg left an unexpected playlist: ${run.tail()}`);
    await writeFile(path.join(out, MASTER_PLAYLIST), await masterPlaylist(out, renditions, texts as string[], facts.hasAudio));
    signal?.throwIfAborted();
    report(1);
    return {
      durationSeconds: playlists[0]!.lengthSeconds,
      width: top.width,
      height: top.height,
      renditions: renditions.map((r, i) => ({ width: r.width, height: r.height, playlist: `${i}/${RENDITION_PLAYLIST}` })),
      poster: POSTER_FILE,
    };
  } catch (error) {
    await killFfmpeg(run, 1000);
    // A short output on a full disk is the disk's fault, not the video's: it is tried again later.
    const diskFull = !(error instanceof DiskFull) && !signal?.aborted && (await diskIsFull(out));
    await Promise.all(written.map((file) => rm(file, { recursive: true, force: true })));
    throw diskFull ? new DiskFull(`the disk filled up during the transcode: ${error instanceof Error ? error.message : String(error)}`) : error;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

/**
 * A written rendition as one progressive MP4 with its index first (faststart), for players that take a
 * file rather than HLS (an ad's creative in a VAST MediaFile). Copied, not encoded again: about a second.
 */
export async function renditionToMp4(playlist: string, outFile: string, ffmpegPath = resolveFfmpegPath()): Promise<void> {
  // prettier-ignore
  await promisify(execFile)(ffmpegPath, [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-protocol_whitelist', 'file', '-i', inputUrl(playlist),
    '-map', '0', '-c', 'copy', '-bsf:a', 'aac_adtstoasc', '-movflags', '+faststart', '-f', 'mp4', outFile,
  ], { timeout: PROBE_TIMEOUT_MS * 4, killSignal: 'SIGKILL' });
}

function transcodeArgs(input: string, out: string, facts: Probed, renditions: Rendition[], threads: number): string[] {
  const top = renditions[0]!;
  const low = renditions[1];
  const fps = facts.frameRate ? `fps=${facts.frameRate},` : '';
  // Scaled once to the top size (the 360 is made from that), then split into the renditions and the poster.
  const graph = low
    ? `[0:${facts.videoStream}]${fps}scale=${top.width}:${top.height},setsar=1,format=yuv420p,split=3[v0][low][poster];[low]scale=${low.width}:${low.height},setsar=1[v1]`
    : `[0:${facts.videoStream}]${fps}scale=${top.width}:${top.height},setsar=1,format=yuv420p,split=2[v0][poster]`;
  // One HLS output per rendition, each with its own encoders, in a folder named by its index (0 the top one).
  const outputs = renditions.flatMap((r, i) => {
    const folder = path.join(out, String(i));
    // prettier-ignore
    return [
      // A source without sound gets no audio track rather than a silent one: hls.js, Safari and ExoPlayer
      // all play video-only streams, the CODECS attribute then says so, and no bits or CPU go on silence.
      '-map', `[v${i}]`, ...(facts.audioStream === null ? [] : ['-map', `0:${facts.audioStream}`]), '-map_metadata', '-1', '-map_chapters', '-1',
      '-c:v', 'libx264', '-preset', X264_PRESET, '-crf', String(X264_CRF), '-profile:v', r.profile, '-level:v', (r.level / 10).toFixed(1),
      '-maxrate:v', `${r.videoKbps}k`, '-bufsize:v', `${r.videoKbps * 2}k`,
      '-force_key_frames', `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`, '-threads', String(threads),
      ...(facts.audioStream === null ? [] : ['-c:a', 'aac', '-b:a', `${r.audioKbps}k`, '-ac', '2', '-ar', '48000']),
      // Phone files often interleave sound and picture coarsely: packets wait for the other encoder to start.
      '-max_muxing_queue_size', '4096',
      '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_flags', 'independent_segments',
      '-hls_segment_filename', path.join(folder, 'seg-%05d.ts'), path.join(folder, RENDITION_PLAYLIST),
    ];
  });
  // prettier-ignore
  return [
    '-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-y', '-progress', 'pipe:1',
    '-threads', String(threads), ...INPUT_FORMAT, '-i', inputUrl(input),
    '-filter_complex', graph, '-filter_complex_threads', String(threads),
    // The poster: about a second in (past fades from black), or the first frame of a clip too short for that.
    '-map', '[poster]', '-map_metadata', '-1', '-ss', facts.durationSeconds >= 2 ? '1' : '0', '-frames:v', '1', '-update', '1', '-q:v', '3', '-threads', '1',
    path.join(out, POSTER_FILE),
    ...outputs,
  ];
}

/**
 * The master playlist over the written renditions (masterPlaylistText), each with its measured rates.
 */
async function masterPlaylist(out: string, renditions: Rendition[], playlists: string[], hasAudio: boolean): Promise<string> {
  const version = Math.max(...playlists.map((text) => Number(/^#EXT-X-VERSION:(\d+)/m.exec(text)?.[1] ?? 3)));
  const variants = await Promise.all(
    renditions.map(async (r, i) => {
      const rates = await segmentRates(path.join(out, String(i)), playlists[i]!);
      return { bandwidth: rates.peak, averageBandwidth: rates.average, width: r.width, height: r.height, codecs: codecsOf(r.profile, r.level, hasAudio), uri: `${i}/${RENDITION_PLAYLIST}` };
    }),
  );
  return masterPlaylistText(version, variants);
}

/**
 * BANDWIDTH and AVERAGE-BANDWIDTH (bit/s) of a rendition, measured on its segments as RFC 8216
 * (4.3.4.2) asks once every segment exists: the peak is the highest rate of any run of consecutive
 * segments lasting 0.5 to 1.5 target durations, the average the whole rendition's. Measured rather
 * than the configured cap plus the audio rate: the VBV lets a 4 s segment carry 4 s at the cap plus
 * its full 2 s buffer (1.5× the cap), and the transport stream adds its own overhead, so the cap is
 * not even a safe upper bound; and most pictures stay well under the cap (the bench's 720p runs at
 * about half of it), so it would make players keep to the low rendition on links that carry the top.
 */
async function segmentRates(folder: string, playlist: string): Promise<{ peak: number; average: number }> {
  const target = Number(/^#EXT-X-TARGETDURATION:(\d+)/m.exec(playlist)?.[1] ?? SEGMENT_SECONDS);
  const segments: { seconds: number; uri: string }[] = [];
  let seconds = 0;
  for (const raw of playlist.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) seconds = Number.parseFloat(line.slice(8)) || 0;
    else if (line && !line.startsWith('#')) segments.push({ seconds, uri: line });
  }
  const bits = await Promise.all(segments.map(async (s) => (await stat(path.join(folder, s.uri))).size * 8));
  const totalSeconds = segments.reduce((sum, s) => sum + s.seconds, 0);
  const average = bits.reduce((sum, b) => sum + b, 0) / Math.max(totalSeconds, 0.001);
  let peak = average;
  for (let first = 0; first < segments.length; first++) {
    let runSeconds = 0;
    let runBits = 0;
    for (let last = first; last < segments.length && runSeconds + segments[last]!.seconds <= 1.5 * target; last++) {
      runSeconds += segments[last]!.seconds;
      runBits += bits[last]!;
      if (runSeconds >= 0.5 * target) peak = Math.max(peak, runBits / runSeconds);
    }
  }
  return { peak: Math.ceil(peak), average: Math.ceil(average) };
}

/** Absolute and with an explicit protocol: it can never read as an option (`-…`) or another protocol (`concat:…`). */
function inputUrl(file: string): string {
  return `file:${path.resolve(file)}`;
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
  const value = frameRateValue(text);
  if (value === null) return null;
  return value > MAX_FRAME_RATE ? String(MAX_FRAME_RATE) : text;
}

/** Frames per second of `30000/1001`, `25` or `29.97`; null for anything else. */
function frameRateValue(text: string | null): number | null {
  const match = /^(\d+)(?:\/(\d+))?$|^(\d+\.\d+)$/.exec(text ?? '');
  if (!match) return null;
  const value = match[3] ? Number(match[3]) : Number(match[1]) / Number(match[2] ?? 1);
  return value > 0 && Number.isFinite(value) ? value : null;
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
