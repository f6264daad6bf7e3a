/**
 * Reading and closing the HLS playlists ffmpeg writes (media/<streamId>/<broadcastId>/index.m3u8). With
 * live renditions that file is a master playlist and each variant's is in a folder beside it
 * (`<broadcastId>/source/index.m3u8`).
 */
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';

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

/** A stretch of wall-clock time, in epoch milliseconds: [from, to). */
export interface Period {
  from: number;
  to: number;
}

const PROGRAM_DATE_TIME = '#EXT-X-PROGRAM-DATE-TIME:';

/**
 * A media playlist without the segments recorded in `periods` (by their EXT-X-PROGRAM-DATE-TIME; a
 * segment without one is kept). A replay (`#EXT-X-ENDLIST`) loses them, the next segment kept marked as a
 * discontinuity; a live playlist keeps their places, each marked EXT-X-GAP and named by its plain file
 * name, so the media sequence numbers a player holds stay right and the segment cannot be fetched (its
 * sealed name is not given). Call it after the segments' names are sealed.
 */
export function withoutPeriods(text: string, periods: readonly Period[]): string {
  if (periods.length === 0 || !text.includes(PROGRAM_DATE_TIME)) return text;
  const replay = /^#EXT-X-ENDLIST\s*$/m.test(text);
  const out: string[] = [];
  let tags: string[] = [];
  let cutBefore = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      // Tags before a segment belong to it; the playlist's own header and ENDLIST pass through.
      if (trimmed.startsWith('#EXTINF:') || tags.length > 0 || trimmed.startsWith(PROGRAM_DATE_TIME)) tags.push(line);
      else out.push(line);
      continue;
    }
    const started = Date.parse(tags.find((tag) => tag.startsWith(PROGRAM_DATE_TIME))?.slice(PROGRAM_DATE_TIME.length) ?? '');
    const seconds = Number.parseFloat(tags.find((tag) => tag.startsWith('#EXTINF:'))?.slice('#EXTINF:'.length) ?? '0') || 0;
    const cut = Number.isFinite(started) && periods.some((p) => started < p.to && started + seconds * 1000 > p.from);
    if (!cut) {
      if (cutBefore) out.push('#EXT-X-DISCONTINUITY');
      out.push(...tags, line);
      cutBefore = false;
    } else if (replay) {
      cutBefore = true;
    } else {
      out.push(...tags, '#EXT-X-GAP', path.basename(trimmed).replace(/\.[A-Za-z0-9_-]+\.ts$/, '.ts'));
    }
    tags = [];
  }
  out.push(...tags);
  return out.join('\n');
}

/**
 * Where a moment `recordedMs` into a broadcast is in its replay once `cuts` (left out, as offsets from the
 * start, in order) are gone: earlier cuts' lengths less; a moment inside a cut is where the cut was.
 */
export function playedOffset(recordedMs: number, cuts: readonly Period[]): number {
  let gone = 0;
  for (const cut of cuts) {
    if (cut.from >= recordedMs) break;
    gone += Math.min(recordedMs, cut.to) - cut.from;
  }
  return recordedMs - gone;
}

/** The first moment of the broadcast played at `playedMs` into its replay (playedOffset the other way: a cut's start, not its end). */
export function recordedOffset(playedMs: number, cuts: readonly Period[]): number {
  let recorded = playedMs;
  for (const cut of cuts) {
    if (cut.from >= recorded) break;
    recorded += cut.to - cut.from;
  }
  return recorded;
}

/** `periods` (wall-clock) as offsets from `startMs`, in order, clipped to the broadcast. */
export function cutsFrom(startMs: number, periods: readonly Period[]): Period[] {
  return periods.map((p) => ({ from: Math.max(0, p.from - startMs), to: Math.max(0, p.to - startMs) }))
    .filter((p) => p.to > p.from).sort((a, b) => a.from - b.from);
}
