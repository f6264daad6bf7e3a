/** Which ffmpeg to run: FFMPEG_PATH, else the system binary (Debian's, see .ci/run), else the npm-shipped one. */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const SYSTEM_FFMPEG = '/usr/bin/ffmpeg';

export function resolveFfmpegPath(env: Record<string, string | undefined> = process.env): string {
  if (env.FFMPEG_PATH) return env.FFMPEG_PATH;
  if (existsSync(SYSTEM_FFMPEG)) return SYSTEM_FFMPEG;
  // Loaded lazily: the installer package resolves a platform binary and throws where none exists.
  const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
  return installer.path;
}
