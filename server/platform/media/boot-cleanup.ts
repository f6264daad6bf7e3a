/**
 * Boot cleanup: a restart kills the remuxers mid-broadcast and leaves playlists without
 * #EXT-X-ENDLIST in this node's live directory. Run before the RTMP server accepts publishes: each such
 * playlist whose stream no lease keeps live is closed, copied whole to the store with the segments the
 * store lacks, becomes the replay, and is reported so the streams module can end it. A leased one goes
 * on (another instance ingests it, or its encoder may still come back in grace). A closed one whose
 * copy to the store was cut short is copied again.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from '../storage/storage';
import { PLAYLIST_NAME } from './hls-playlist';
import { BroadcastCopier } from './live-copier';
import type { IngestCallbacks } from './ingest-callbacks';

const ID = /^\d+$/;
const BROADCAST_ID = /^[a-z0-9-]{1,40}$/;

const subdirs = async (dir: string) =>
  (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory()).map((e) => e.name);

export async function closeBrokenPlaylists(files: FileStore, liveDir: string, callbacks: Pick<IngestCallbacks, 'onEnded' | 'isLeased'>): Promise<number> {
  const root = path.join(liveDir, 'media');
  let closed = 0;
  for (const streamDir of (await subdirs(root)).filter((name) => ID.test(name))) {
    if (await callbacks.isLeased(Number(streamDir))) continue;
    for (const broadcastId of (await subdirs(path.join(root, streamDir))).filter((name) => BROADCAST_ID.test(name))) {
      const dirKey = `media/${streamDir}/${broadcastId}`;
      const playlistKey = `${dirKey}/${PLAYLIST_NAME}`;
      const copier = new BroadcastCopier(files, liveDir, dirKey);
      const before = await copier.read();
      if (!before) continue;
      const info = await copier.close();
      await copier.discard();
      if (before.ended) continue;
      closed += 1;
      await callbacks.onEnded({ streamId: Number(streamDir), broadcastId, playlistKey, lengthSeconds: info?.lengthSeconds ?? 0 });
    }
  }
  return closed;
}
