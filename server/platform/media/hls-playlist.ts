/** Reading and closing the HLS playlists ffmpeg writes (media/<streamId>/<broadcastId>/index.m3u8). */
import { appendFile, readFile } from 'node:fs/promises';

export const PLAYLIST_NAME = 'index.m3u8';
export const SEGMENT_NAME = /^seg_\d{5,9}\.ts$/;
const ENDLIST = '#EXT-X-ENDLIST';
/** Segments an open playlist is served with: 12 s at 1 s keyframes, four times what players hold back. */
export const LIVE_WINDOW_SEGMENTS = 12;
/** Tags of the playlist itself; any other tag belongs to the segment it precedes. */
const PLAYLIST_TAG = /^#(EXTM3U|EXT-X-(VERSION|TARGETDURATION|MEDIA-SEQUENCE|DISCONTINUITY-SEQUENCE|PLAYLIST-TYPE|INDEPENDENT-SEGMENTS))\b/;

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

const tagNumber = (lines: string[], tag: string) => Number(lines.find((line) => line.startsWith(`${tag}:`))?.slice(tag.length + 1) ?? 0) || 0;

/**
 * An open playlist as live players get it: its last `size` segments, a sliding window (no longer an
 * EVENT playlist, whose head may not move), numbered on from the dropped ones. The file keeps every
 * segment for the replay, but a player reloads the playlist every second: the whole of a long
 * broadcast's would grow by a line per second for every viewer. A closed playlist is the replay: whole.
 */
export function liveWindow(text: string, size: number = LIVE_WINDOW_SEGMENTS): string {
  const header: string[] = [];
  const segments: string[][] = [];
  let pending: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === ENDLIST) return text;
    if (!line) continue;
    if (!line.startsWith('#')) {
      segments.push([...pending, line]);
      pending = [];
    } else if (PLAYLIST_TAG.test(line)) header.push(line);
    else pending.push(line);
  }
  if (segments.length <= size) return text;
  const dropped = segments.slice(0, segments.length - size);
  const sequence = tagNumber(header, '#EXT-X-MEDIA-SEQUENCE') + dropped.length;
  const discontinuities = tagNumber(header, '#EXT-X-DISCONTINUITY-SEQUENCE') + dropped.filter((lines) => lines.includes('#EXT-X-DISCONTINUITY')).length;
  const kept = header.filter((line) => !/^#EXT-X-(MEDIA-SEQUENCE|DISCONTINUITY-SEQUENCE|PLAYLIST-TYPE)\b/.test(line));
  kept.push(`#EXT-X-MEDIA-SEQUENCE:${sequence}`);
  if (discontinuities > 0) kept.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${discontinuities}`);
  return [...kept, ...segments.slice(-size).flat(), ...pending, ''].join('\n');
}
