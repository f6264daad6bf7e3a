/**
 * Live HLS into the store (decision 0065): ffmpeg writes a broadcast's segments and playlist on the
 * media node's own disk (`liveDir/<broadcast key>/`); each segment the playlist lists (ffmpeg lists a
 * segment once it is closed) is copied to the FileStore, then the playlist as it was read — so a
 * playlist in the store never names a segment the store lacks, and any instance serves the broadcast
 * from the store. On the local store the directory ffmpeg writes in is the store: nothing is copied.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readText, type FileStore } from '../storage/storage';
import { closePlaylist, parsePlaylist, PLAYLIST_NAME, readPlaylist, type PlaylistInfo } from './hls-playlist';

const ENDLIST = '#EXT-X-ENDLIST';

export class BroadcastCopier {
  readonly dir: string;
  readonly playlistFile: string;
  private readonly copied = new Set<string>();
  private copiedPlaylist: string | null = null;
  private syncing: Promise<PlaylistInfo | null> = Promise.resolve(null);

  constructor(private readonly files: FileStore, liveDir: string, private readonly dirKey: string) {
    this.dir = path.join(liveDir, dirKey);
    this.playlistFile = path.join(this.dir, PLAYLIST_NAME);
  }

  /** The store is the directory ffmpeg writes in (the local store): nothing to copy or clean. */
  get inPlace() {
    return this.files.kind === 'local';
  }

  /**
   * Ready for ffmpeg: the directory exists and, when this node continues a broadcast another began (a
   * reconnect to another instance), the stored playlist is here for ffmpeg to append to. Answers the
   * playlist so far, if any.
   */
  async prepare(): Promise<PlaylistInfo | null> {
    await mkdir(this.dir, { recursive: true });
    const local = await readPlaylist(this.playlistFile);
    if (local || this.inPlace) return local;
    const stored = await readText(this.files, `${this.dirKey}/${PLAYLIST_NAME}`);
    if (stored === null) return null;
    const info = parsePlaylist(stored);
    for (const segment of info.segments) this.copied.add(segment);
    this.copiedPlaylist = stored;
    await writeFile(this.playlistFile, stored);
    return info;
  }

  /** Copies the segments the local playlist lists that the store lacks, then the playlist. One at a time. */
  sync(): Promise<PlaylistInfo | null> {
    this.syncing = this.syncing.catch(() => null).then(() => this.copyNew());
    return this.syncing;
  }

  private async copyNew(): Promise<PlaylistInfo | null> {
    const text = await readFile(this.playlistFile, 'utf8').catch(() => null);
    if (text === null) return null;
    const info = parsePlaylist(text);
    if (this.inPlace || text === this.copiedPlaylist) return info;
    for (const segment of info.segments) {
      if (this.copied.has(segment) || segment.includes('/')) continue;
      await this.files.putFile(`${this.dirKey}/${segment}`, path.join(this.dir, segment));
      this.copied.add(segment);
    }
    await this.files.put(`${this.dirKey}/${PLAYLIST_NAME}`, text);
    this.copiedPlaylist = text;
    return info;
  }

  /** Closes the playlist (#EXT-X-ENDLIST: the replay) and copies the rest: the replay is whole in the store. */
  async close(): Promise<PlaylistInfo | null> {
    await closePlaylist(this.playlistFile);
    return this.sync();
  }

  /** Drops the node's own copy once everything is in the store (never the local store itself). */
  async discard(): Promise<void> {
    if (!this.inPlace) await rm(this.dir, { recursive: true, force: true });
  }
}

/** Closes a broadcast's playlist in the store itself (its node is gone): its length in seconds, or null when there is none. */
export async function closeStoredPlaylist(files: FileStore, playlistKey: string): Promise<number | null> {
  const text = await readText(files, playlistKey);
  if (text === null) return null;
  const info = parsePlaylist(text);
  if (!info.ended) await files.put(playlistKey, `${text.endsWith('\n') || text === '' ? text : `${text}\n`}${ENDLIST}\n`);
  return info.lengthSeconds;
}
