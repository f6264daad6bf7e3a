/** Publishes a generated test pattern (video + 440 Hz tone) over RTMP with ffmpeg: OBS's stand-in. */
import { killFfmpeg, runFfmpeg } from '../platform/media/ffmpeg-process';
import { resolveFfmpegPath } from '../platform/media/ffmpeg-path';

export interface TestPatternOptions {
  url: string;
  /** Stop by itself after this many seconds; unset: until stop(). */
  seconds?: number;
  width?: number;
  height?: number;
  fps?: number;
  /** Frames from one keyframe to the next (the encoder's keyframe interval is gop / fps seconds); default fps (1 s). */
  gop?: number;
  /** A constant video bitrate (x264 CBR with filler), so the feed's rate is known; unset: x264's own rate control. */
  videoKbps?: number;
  ffmpegPath?: string;
  /** In its own process group: a Ctrl-C in the terminal does not reach it (the caller stops it). */
  ownProcessGroup?: boolean;
}

export interface RunningPublisher {
  stop(): Promise<void>;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  tail(): string;
}

/**
 * Where an encoder pushes: the RTMP URL the dashboard shows and the stream key. "localhost" may
 * resolve to ::1 first, where the ingest (bound to IPv4 by default) does not listen, and some ffmpeg
 * builds crash on it: the push goes to 127.0.0.1 instead.
 */
export function rtmpPushUrl(rtmpUrl: string, streamKey: string): string {
  const rtmp = rtmpUrl.replace(/\/$/, '').replace(/^rtmp:\/\/localhost(?=[:/]|$)/i, 'rtmp://127.0.0.1');
  return rtmp.endsWith(`/${streamKey}`) ? rtmp : `${rtmp}/${streamKey}`;
}

/** The audio the test pattern carries, in kb/s. */
export const TEST_PATTERN_AUDIO_KBPS = 96;

export function publishTestPattern(o: TestPatternOptions): RunningPublisher {
  const { width = 1280, height = 720, fps = 30, gop = fps } = o;
  // prettier-ignore
  const args = [
    '-loglevel', 'warning', '-re',
    '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}`,
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100',
    ...(o.seconds ? ['-t', String(o.seconds)] : []),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p',
    '-g', String(gop), '-keyint_min', String(gop), '-sc_threshold', '0',
    ...(o.videoKbps ? ['-b:v', `${o.videoKbps}k`, '-minrate', `${o.videoKbps}k`, '-maxrate', `${o.videoKbps}k`, '-bufsize', `${o.videoKbps / 2}k`, '-x264-params', 'nal-hrd=cbr'] : []),
    '-c:a', 'aac', '-b:a', `${TEST_PATTERN_AUDIO_KBPS}k`,
    '-f', 'flv', o.url,
  ];
  const run = runFfmpeg(o.ffmpegPath ?? resolveFfmpegPath(), args, { detached: o.ownProcessGroup ?? false });
  return {
    exited: run.exited,
    tail: run.tail,
    // SIGTERM lets ffmpeg finish the FLV stream and close the connection like an encoder's Stop.
    stop: () => killFfmpeg(run),
  };
}
