/**
 * A broadcaster whose every frame carries the wall-clock time it was made (frame-stamp.ts): raw grey
 * frames generated here in real time, piped into ffmpeg, which encodes them the way an OBS user with
 * 1 s keyframes does (libx264, zerolatency, constant bitrate, a keyframe every second) with a tone, and
 * writes the one encoding to each output of a tee: the RTMP push to the ingest and, for the reference,
 * HLS straight to disk. Or, as a browser's MediaRecorder records (decision 0082): WebM with VP8 and Opus,
 * its bytes handed over as ffmpeg writes them.
 */
import { spawn } from 'node:child_process';
import { drawFrame, stampLayout } from './frame-stamp';

export interface StampedEncoderOptions {
  ffmpegPath: string;
  width: number;
  height: number;
  fps: number;
  /** tee outputs of the H.264/AAC encoding, e.g. `[f=flv]rtmp://…`; or `{ webm }`: VP8/Opus WebM bytes as they come. */
  outputs: string[] | { webm: (bytes: Buffer) => void };
}

export interface StampedEncoder {
  /** Frames the generator could not hand over in time (ffmpeg fell behind). */
  late(): number;
  tail(): string;
  stop(): Promise<void>;
}

export function startStampedEncoder(o: StampedEncoderOptions): StampedEncoder {
  const layout = stampLayout(o.width, o.height);
  const kbps = Math.round((o.width * o.height * o.fps) / 6000);
  const webm = Array.isArray(o.outputs) ? null : o.outputs.webm;
  // prettier-ignore
  const encoding = webm ? [
    // What Chrome's MediaRecorder makes of a camera: realtime VP8, a keyframe every few seconds, Opus.
    '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', `${kbps}k`, '-g', String(o.fps * 3), '-pix_fmt', 'yuv420p',
    '-c:a', 'libopus', '-b:a', '96k',
    '-f', 'webm', '-live', '1', '-cluster_time_limit', '250', 'pipe:1',
  ] : [
    '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p',
    '-b:v', `${kbps}k`, '-maxrate', `${kbps}k`, '-bufsize', `${kbps}k`,
    '-g', String(o.fps), '-keyint_min', String(o.fps), '-sc_threshold', '0',
    '-c:a', 'aac', '-b:a', '96k',
    // tee does not say the outputs want global headers (FLV does): ask for them.
    '-flags', '+global_header',
    '-f', 'tee', (o.outputs as string[]).join('|'),
  ];
  // prettier-ignore
  const args = [
    '-hide_banner', '-loglevel', 'warning', '-nostats',
    '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${o.width}x${o.height}`, '-framerate', String(o.fps), '-i', 'pipe:0',
    '-re', '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${webm ? 48000 : 44100}`,
    '-map', '0:v', '-map', '1:a',
    ...encoding,
  ];
  const child = spawn(o.ffmpegPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  if (webm) child.stdout.on('data', webm);
  else child.stdout.resume();
  const lines: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    lines.push(...chunk.split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 20));
  });
  child.stdin.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const frame = new Uint8Array(o.width * o.height);
  const started = performance.now();
  let sent = 0;
  let late = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (stopped) return;
    // Real time, however the timers drift: every frame due by now is made now and stamped now.
    const due = Math.floor(((performance.now() - started) * o.fps) / 1000) + 1;
    if (due - sent > 1) late += due - sent - 1;
    while (sent < due) {
      drawFrame(frame, layout, Date.now());
      child.stdin.write(Buffer.from(frame));
      sent += 1;
    }
    const next = started + (sent * 1000) / o.fps;
    timer = setTimeout(tick, Math.max(0, next - performance.now()));
  };
  tick();

  return {
    late: () => late,
    tail: () => lines.join('\n'),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      child.stdin.end();
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(kill);
    },
  };
}
