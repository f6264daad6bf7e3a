/**
 * A finished broadcast made of a generated test pattern: ffmpeg writes a closed (VOD) HLS playlist in
 * the layout the ingest writes (`index.m3u8` + `seg_NNNNN.ts`), so it plays exactly like a replay.
 * About a quarter of a second of CPU per 8 s at 640×360 (ultrafast x264).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { runFfmpeg } from './ffmpeg-process';
import { PLAYLIST_NAME, readPlaylist, type PlaylistInfo } from './hls-playlist';

export interface TestPatternRecording {
  /** An ffmpeg lavfi video source, such as `testsrc2` or `smptehdbars`. */
  pattern: string;
  seconds: number;
  /** Pitch of the tone on the audio track. */
  toneHz: number;
  width?: number;
  height?: number;
}

export async function recordTestPattern(ffmpegPath: string, dir: string, o: TestPatternRecording): Promise<PlaylistInfo> {
  const { width = 640, height = 360 } = o;
  await mkdir(dir, { recursive: true });
  // prettier-ignore
  const run = runFfmpeg(ffmpegPath, [
    '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `${o.pattern}=size=${width}x${height}:rate=30`,
    '-f', 'lavfi', '-i', `sine=frequency=${o.toneHz}:sample_rate=44100`,
    '-t', String(o.seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '700k', '-maxrate', '700k', '-bufsize', '1400k', '-pix_fmt', 'yuv420p', '-g', '30',
    '-c:a', 'aac', '-b:a', '64k',
    '-f', 'hls', '-hls_time', '2', '-hls_list_size', '0', '-hls_playlist_type', 'vod',
    '-hls_segment_filename', path.join(dir, 'seg_%05d.ts'),
    path.join(dir, PLAYLIST_NAME),
  ]);
  const code = await run.exited;
  const info = code === 0 ? await readPlaylist(path.join(dir, PLAYLIST_NAME)) : null;
  if (!info?.ended || info.segments.length === 0) throw new Error(`ffmpeg could not record the ${o.pattern} test pattern (exit ${code}): ${run.tail()}`);
  return info;
}
