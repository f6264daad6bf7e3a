/**
 * A browser's MediaRecorder, stood in for by ffmpeg: a test pattern with a tone recorded live (`-re`) as
 * WebM with VP8 and Opus, handed over in chunks every timeslice and cut to the socket's frame limit, as
 * the dashboard's broadcaster panel sends them (decision 0082).
 */
import { BROWSER_MEDIA_FRAME_MAX_BYTES, BROWSER_RECORDER_TIMESLICE_MS } from '../../common/browser-broadcast';
import { killFfmpeg, runFfmpeg } from '../platform/media/ffmpeg-process';
import { resolveFfmpegPath } from '../platform/media/ffmpeg-path';

export interface BrowserRecording {
  /** Each frame as the page would send it (at most BROWSER_MEDIA_FRAME_MAX_BYTES), with the wall time of its send. */
  onFrame(frame: Buffer): void;
  seconds?: number;
  width?: number;
  height?: number;
  ffmpegPath?: string;
}

export interface RunningRecorder {
  stop(): Promise<void>;
  exited: Promise<number | null>;
  /** Wall time (ms) of the first frame handed over: the recording's time 0. */
  startedAt(): number | null;
}

/** Cuts a chunk into frames the server takes. */
export function framesOf(chunk: Buffer, max = BROWSER_MEDIA_FRAME_MAX_BYTES): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at < chunk.length; at += max) frames.push(chunk.subarray(at, at + max));
  return frames;
}

/**
 * Bytes as a MediaRecorder hands them over: gathered for a timeslice, then given as one chunk cut into
 * frames. `startedAt` is the wall time of the first frame handed over.
 */
export function timesliced(onFrame: (frame: Buffer) => void) {
  let pending: Buffer[] = [];
  let startedAt: number | null = null;
  const handOver = () => {
    if (pending.length === 0) return;
    const chunk = Buffer.concat(pending);
    pending = [];
    startedAt ??= Date.now();
    for (const frame of framesOf(chunk)) onFrame(frame);
  };
  const timer = setInterval(handOver, BROWSER_RECORDER_TIMESLICE_MS);
  return {
    push: (bytes: Buffer) => void pending.push(bytes),
    startedAt: () => startedAt,
    /** Hands over what is left and stops the timeslices. */
    end() {
      clearInterval(timer);
      handOver();
    },
  };
}

export function recordLikeABrowser(o: BrowserRecording): RunningRecorder {
  const { width = 640, height = 360 } = o;
  // prettier-ignore
  const run = runFfmpeg(o.ffmpegPath ?? resolveFfmpegPath(), [
    '-loglevel', 'error', '-re',
    '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=30`,
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    ...(o.seconds ? ['-t', String(o.seconds)] : []),
    '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M', '-g', '60',
    '-c:a', 'libopus', '-b:a', '64k',
    '-f', 'webm', '-live', '1', '-cluster_time_limit', String(BROWSER_RECORDER_TIMESLICE_MS), 'pipe:1',
  ], { stdout: true });
  const chunks = timesliced(o.onFrame);
  run.child.stdout?.on('data', chunks.push);
  const exited = run.exited.then((code) => {
    chunks.end();
    return code;
  });
  return { exited, startedAt: chunks.startedAt, stop: () => killFfmpeg(run) };
}
