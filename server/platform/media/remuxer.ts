/**
 * One ffmpeg per publish that plays the stream back from our own RTMP server and copies it into HLS
 * (with LIVE_RENDITIONS, also encodes scaled renditions beside the copy: live-renditions.ts).
 * It is ended by closing its subscriber connection: ffmpeg then sees end of input and writes the
 * last segment and the playlist (a signal would leave an empty or truncated playlist).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { killFfmpeg, runFfmpeg } from './ffmpeg-process';
import { PLAYLIST_NAME } from './hls-playlist';
import { liveVariantOutputs, type LiveVariant } from './live-renditions';

const END_OF_INPUT_TIMEOUT_MS = 8000;
const VIDEO_SIZE = /Stream #0:\d+.*: Video: .*?\b(\d{2,5})x(\d{2,5})\b/;

/**
 * The HLS muxer's options for a live broadcast (also the latency bench's reference output).
 * `append`: continue an existing playlist (a reconnect within the grace window).
 */
export function liveHlsOptions(append: boolean): Record<string, string> {
  return {
    hls_time: '1',
    hls_list_size: '0',
    hls_playlist_type: 'event',
    // Every segment starts on a keyframe (-c copy cuts there), and the playlist says so; each segment's
    // wall-clock start is written, so a stretch of the broadcast (a private show) can be left out of it.
    hls_flags: `${append ? 'append_list+' : ''}omit_endlist+independent_segments+program_date_time`,
  };
}

export interface RemuxerSubscriber {
  close(): void;
}

export interface Remuxer {
  /** Carried in the play URL's query: lets the ingest recognise (and admit) this subscriber. */
  readonly nonce: string;
  readonly exited: Promise<number | null>;
  attachSubscriber(subscriber: RemuxerSubscriber): void;
  videoSize(): { width: number; height: number } | null;
  stop(): Promise<void>;
  tail(): string;
}

export interface RemuxerOptions {
  ffmpegPath: string;
  /** rtmp://127.0.0.1:<port> */
  rtmpBase: string;
  streamKey: string;
  /** Absolute directory of this broadcast's playlist and segments. */
  dir: string;
  /** Continue an existing playlist (a reconnect within the grace window). */
  append: boolean;
  /** Renditions (decision 0070), each in its folder under `dir`; absent: the stream copied into `dir` itself. */
  variants?: readonly LiveVariant[];
}

/** ffmpeg's arguments for one publish: its input, then one copied HLS output, or one per variant. */
export function remuxerArgs(input: string, options: Pick<RemuxerOptions, 'dir' | 'append' | 'variants'>): string[] {
  const hls = liveHlsOptions(options.append);
  const outputs = options.variants
    ? liveVariantOutputs(options.variants, options.dir, hls)
    // prettier-ignore
    : [
      '-map', '0:v?', '-map', '0:a?', '-c', 'copy',
      '-f', 'hls', ...Object.entries(hls).flatMap(([name, value]) => [`-${name}`, value]),
      '-hls_segment_filename', path.join(options.dir, 'seg_%05d.ts'),
      path.join(options.dir, PLAYLIST_NAME),
    ];
  return ['-loglevel', 'info', '-i', input, ...outputs];
}

export function startRemuxer(options: RemuxerOptions): Remuxer {
  const nonce = randomBytes(12).toString('hex');
  let size: { width: number; height: number } | null = null;
  let subscriber: RemuxerSubscriber | null = null;
  const input = `${options.rtmpBase}/live/${options.streamKey}?remux=${nonce}`;
  const args = remuxerArgs(input, options);
  const run = runFfmpeg(options.ffmpegPath, args, {
    mask: options.streamKey,
    onLine: (line) => {
      const match = size ? null : VIDEO_SIZE.exec(line);
      if (match) size = { width: Number(match[1]), height: Number(match[2]) };
    },
  });
  return {
    nonce,
    exited: run.exited,
    attachSubscriber: (s) => {
      subscriber = s;
    },
    videoSize: () => size,
    tail: run.tail,
    async stop() {
      if (run.child.exitCode !== null) return;
      if (subscriber) {
        subscriber.close();
        const timer = new Promise((resolve) => setTimeout(resolve, END_OF_INPUT_TIMEOUT_MS).unref());
        await Promise.race([run.exited, timer]);
      }
      await killFfmpeg(run);
    },
  };
}
