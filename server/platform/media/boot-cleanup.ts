/**
 * Boot cleanup: a restart kills the remuxers mid-broadcast and leaves playlists without
 * #EXT-X-ENDLIST. Run before the RTMP server accepts publishes: each such playlist whose stream no
 * lease keeps live is closed, becomes the replay, and is reported so the streams module can end it.
 * A leased one goes on (another instance ingests it, or its encoder may still come back in grace).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from '../storage/storage';
import { closePlaylist, PLAYLIST_NAME, readPlaylist } from './hls-playlist';
import type { IngestCallbacks } from './ingest-callbacks';

const ID = /^\d+$/;
const BROADCAST_ID = /^[a-z0-9-]{1,40}$/;

const subdirs = async (dir: string) =>
  (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory()).map((e) => e.name);

export async function closeBrokenPlaylists(files: FileStore, callbacks: Pick<IngestCallbacks, 'onEnded' | 'isLeased'>): Promise<number> {
  const root = files.localPath('media');
  let closed = 0;
  for (const streamDir of (await subdirs(root)).filter((name) => ID.test(name))) {
    if (await callbacks.isLeased(Number(streamDir))) continue;
    for (const broadcastId of (await subdirs(path.join(root, streamDir))).filter((name) => BROADCAST_ID.test(name))) {
      const playlistKey = `media/${streamDir}/${broadcastId}/${PLAYLIST_NAME}`;
      const file = files.localPath(playlistKey);
      const before = await readPlaylist(file);
      if (!before || before.ended) continue;
      const info = await closePlaylist(file);
      closed += 1;
      await callbacks.onEnded({ streamId: Number(streamDir), broadcastId, playlistKey, lengthSeconds: info?.lengthSeconds ?? 0 });
    }
  }
  return closed;
}
