/**
 * Reading and closing the HLS playlists ffmpeg writes (media/<streamId>/<broadcastId>/index.m3u8). With
 * live renditions that file is a master playlist and each variant's is in a folder beside it
 * (`<broadcastId>/source/index.m3u8`).
 */
import { appendFile, readFile } from 'node:fs/promises';

export const PLAYLIST_NAME = 'index.m3u8';
export const SEGMENT_NAME = /^seg_\d{5,9}\.ts$/;
const ENDLIST = '#EXT-X-ENDLIST';

export interface PlaylistInfo {
  segments: string[];
  lengthSeconds: number;
  ended: boolean;
}

export function parsePlaylist(text: string): PlaylistInfo {
  const segments: string[] = [];
  let length = 0;
  let ended = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) length += Number.parseFloat(line.slice(8)) || 0;
    else if (line === ENDLIST) ended = true;
    else if (line && !line.startsWith('#')) segments.push(line);
  }
  return { segments, lengthSeconds: Math.round(length * 1000) / 1000, ended };
}

/** The variant folders a master playlist lists (`source/index.m3u8` → `source`); null when the text is a media playlist. */
export function parseMaster(text: string): string[] | null {
  if (!/^#EXT-X-STREAM-INF:/m.test(text)) return null;
  const folders: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const match = /^([A-Za-z0-9_-]+)\/index\.m3u8$/.exec(line);
    if (match) folders.push(match[1]!);
  }
  return folders;
}

export async function readPlaylist(file: string): Promise<PlaylistInfo | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  return text === null ? null : parsePlaylist(text);
}

/** Closes a playlist left open (ffmpeg runs with omit_endlist so a reconnect can append): it becomes the replay. */
export async function closePlaylist(file: string): Promise<PlaylistInfo | null> {
  const info = await readPlaylist(file);
  if (!info || info.ended) return info;
  await appendFile(file, `${ENDLIST}\n`);
  return { ...info, ended: true };
}

/** Points every segment line at `uri(segment)`; tags pass through unchanged. */
export function rewriteSegmentUris(text: string, uri: (segment: string) => string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() && !line.startsWith('#') ? uri(line.trim()) : line))
    .join('\n');
}
