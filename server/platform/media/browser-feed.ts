/**
 * A broadcast sent from a browser (decision 0082): the page's MediaRecorder bytes (WebM with VP8/Opus,
 * or MP4 where the browser records that) arrive as binary WebSocket frames and are piped into one ffmpeg,
 * which transcodes them to H.264/AAC with a keyframe a second and publishes them to the RTMP ingest with
 * the broadcaster's key. The ingest then treats it as any encoder: viewers, replays and thumbnails alike.
 *
 * The ffmpeg child lives exactly as long as the socket: it starts with the first frame and ends when the
 * socket closes (its RTMP connection closes like an encoder's, and the ingest's grace period applies).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { BROWSER_BROADCAST_CLOSE, BROWSER_MEDIA_FRAME_MAX_BYTES } from '../../../common/browser-broadcast';
import { killFfmpeg, runFfmpeg, type FfmpegRun } from './ffmpeg-process';

export interface BrowserFeedOptions {
  socket: WebSocket;
  /** rtmp://host:port/live/<key>: a secret, masked in every log line. */
  pushUrl: string;
  streamKey: string;
  ffmpegPath: string;
  log: FastifyBaseLogger;
  /** Bytes waiting for ffmpeg past which the sender is too fast for this server (it cannot keep up). */
  maxBacklogBytes?: number;
  /** Silence after which the page counts as gone (it sends a chunk every timeslice). */
  idleMs?: number;
  /** The close code when ffmpeg stopped by itself: the broadcast may have been ended (End Stream, moderation). */
  closeCodeWhenStopped?: () => Promise<number>;
}

const DEFAULT_MAX_BACKLOG = 8 * 1024 * 1024;
const DEFAULT_IDLE_MS = 10_000;
/** How long ffmpeg may take to finish the FLV stream after the socket closed, before it is killed. */
const FINISH_MS = 3_000;

/** The transcode: at most 720p, H.264 (keyframe every second) and AAC, as the ingest's own remuxer expects. */
// prettier-ignore
export const browserFeedArgs = (pushUrl: string) => [
  '-loglevel', 'warning',
  '-fflags', '+genpts+nobuffer', '-probesize', '1M', '-analyzeduration', '1000000',
  '-i', 'pipe:0',
  '-map', '0:v:0', '-map', '0:a:0?',
  '-vf', "scale='min(1280,iw)':-2",
  '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p',
  '-b:v', '2500k', '-maxrate', '2500k', '-bufsize', '2500k',
  '-force_key_frames', 'expr:gte(t,n_forced*1)',
  '-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-ac', '2',
  '-f', 'flv', '-flvflags', 'no_duration_filesize', pushUrl,
];

const sizeOf = (data: RawData) => (Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength);
const bytesOf = (data: RawData) => (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));

/** Relays the socket's frames into ffmpeg until either ends; resolves once both are gone. */
export async function relayBrowserFeed(o: BrowserFeedOptions): Promise<void> {
  const { socket } = o;
  const log = o.log.child({ component: 'browser-feed' });
  const maxBacklog = o.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG;
  let run = null as FfmpegRun | null; // started by the first frame (a closure sets it)
  let closing = false;

  const close = (code: number) => {
    if (closing) return;
    closing = true;
    if (socket.readyState === socket.OPEN) socket.close(code);
  };

  const start = (): FfmpegRun => {
    const started = runFfmpeg(o.ffmpegPath, browserFeedArgs(o.pushUrl), { stdin: true, mask: o.streamKey });
    // A broken pipe is ffmpeg gone: its exit says why, the write's error adds nothing.
    started.child.stdin?.on('error', () => undefined);
    void started.exited.then(async (code) => {
      if (closing) return;
      log.info({ code, tail: started.tail() }, 'browser feed: ffmpeg stopped while the page was sending');
      close(o.closeCodeWhenStopped ? await o.closeCodeWhenStopped().catch(() => BROWSER_BROADCAST_CLOSE.unreadable) : BROWSER_BROADCAST_CLOSE.unreadable);
    });
    return started;
  };

  // A page whose network vanished sends no close: its silence ends the relay, as an encoder's timeout would.
  const idleMs = o.idleMs ?? DEFAULT_IDLE_MS;
  const idle = setTimeout(() => close(BROWSER_BROADCAST_CLOSE.idle), idleMs);
  socket.on('message', (data, isBinary) => {
    if (closing) return;
    idle.refresh();
    if (!isBinary) return close(BROWSER_BROADCAST_CLOSE.binaryOnly);
    if (sizeOf(data) > BROWSER_MEDIA_FRAME_MAX_BYTES) return close(BROWSER_BROADCAST_CLOSE.tooLarge);
    run ??= start();
    const stdin = run.child.stdin;
    if (!stdin || stdin.destroyed) return;
    stdin.write(bytesOf(data));
    if (stdin.writableLength > maxBacklog) {
      log.info({ backlog: stdin.writableLength }, 'browser feed: ffmpeg fell behind the page');
      close(BROWSER_BROADCAST_CLOSE.backlog);
    }
  });

  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  closing = true;
  clearTimeout(idle);
  if (!run) return;
  // End of input: ffmpeg flushes and closes the RTMP connection as an encoder's Stop does.
  run.child.stdin?.end();
  const finished = await Promise.race([run.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), FINISH_MS).unref())]);
  if (!finished) await killFfmpeg(run);
}
