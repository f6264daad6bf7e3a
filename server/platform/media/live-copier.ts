/**
 * Live HLS into the store (decision 0065): ffmpeg writes a broadcast's segments and playlist on the
 * media node's own disk (`liveDir/<broadcast key>/`); each segment the playlist lists (ffmpeg lists a
 * segment once it is closed) is copied to the FileStore, then the playlist as it was read — so a
 * playlist in the store never names a segment the store lacks, and any instance serves the broadcast
 * from the store. On the local store the directory ffmpeg writes in is the store: nothing is copied.
 * With live renditions (decision 0070) each variant's folder is copied so, and the master playlist last.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readText, type FileStore } from '../storage/storage';
import { closePlaylist, parseMaster, parsePlaylist, PLAYLIST_NAME, readPlaylist, type PlaylistInfo } from './hls-playlist';

const ENDLIST = '#EXT-X-ENDLIST';

/** The first variant's playlist (the one a broadcast's length is told from), and whether every variant has begun. */
export interface BroadcastInfo extends PlaylistInfo {
  everyVariantStarted: boolean;
}

export class BroadcastCopier {
  readonly dir: string;
  /** The broadcast's playlist: its only media playlist, or the master over its variants (decision 0070). */
  readonly playlistFile: string;
  /** Each variant's folder (`source`, `480p`), null when the broadcast is one playlist. */
  private variants: string[] | null = null;
  /** Relative to the broadcast's folder: `seg_00001.ts` or `480p/seg_00001.ts`. */
  private readonly copied = new Set<string>();
  private readonly copiedPlaylists = new Map<string, string>();
  private syncing: Promise<BroadcastInfo | null> = Promise.resolve(null);

  constructor(private readonly files: FileStore, liveDir: string, private readonly dirKey: string) {
    this.dir = path.join(liveDir, dirKey);
    this.playlistFile = path.join(this.dir, PLAYLIST_NAME);
  }

  /** The store is the directory ffmpeg writes in (the local store): nothing to copy or clean. */
  get inPlace() {
    return this.files.kind === 'local';
  }

  /** The variants' folders, once the remuxer is told them or the master playlist names them. */
  get variantFolders(): readonly string[] | null {
    return this.variants;
  }

  /** ffmpeg writes these variants (before their master playlist exists). */
  useVariants(folders: readonly string[]): void {
    this.variants = [...folders];
  }

  /** The first variant's playlist (the source's when offered), or the only one. */
  get mainPlaylistFile(): string {
    return path.join(this.dir, this.mediaPlaylists()[0]!);
  }

  private mediaPlaylists(): string[] {
    return this.variants ? this.variants.map((folder) => `${folder}/${PLAYLIST_NAME}`) : [PLAYLIST_NAME];
  }

  /** Learns the variants from a master playlist on this node's disk. */
  private async discover(): Promise<void> {
    if (this.variants) return;
    const text = await readFile(this.playlistFile, 'utf8').catch(() => null);
    this.variants = text === null ? null : parseMaster(text);
  }

  /** The main playlist on this node's disk, null when there is none. */
  async read(): Promise<PlaylistInfo | null> {
    await this.discover();
    return readPlaylist(this.mainPlaylistFile);
  }

  /**
   * Ready for ffmpeg: the directory exists and, when this node continues a broadcast another began (a
   * reconnect to another instance), the stored playlists are here for ffmpeg to append to. Answers the
   * main playlist so far, if any, and the variants the broadcast began with.
   */
  async prepare(): Promise<{ info: PlaylistInfo | null; variants: readonly string[] | null }> {
    await mkdir(this.dir, { recursive: true });
    const local = await this.read();
    if (local || this.inPlace) return { info: local, variants: this.variants };
    const stored = await readText(this.files, `${this.dirKey}/${PLAYLIST_NAME}`);
    if (stored === null) return { info: null, variants: null };
    this.variants = parseMaster(stored);
    for (const rel of this.mediaPlaylists()) {
      const text = rel === PLAYLIST_NAME ? stored : await readText(this.files, `${this.dirKey}/${rel}`);
      if (text === null) continue;
      const folder = path.posix.dirname(rel);
      for (const segment of parsePlaylist(text).segments) this.copied.add(folder === '.' ? segment : `${folder}/${segment}`);
      this.copiedPlaylists.set(rel, text);
      await mkdir(path.dirname(path.join(this.dir, rel)), { recursive: true });
      await writeFile(path.join(this.dir, rel), text);
    }
    if (this.variants) {
      this.copiedPlaylists.set(PLAYLIST_NAME, stored);
      await writeFile(this.playlistFile, stored);
    }
    return { info: await readPlaylist(this.mainPlaylistFile), variants: this.variants };
  }

  /**
   * Copies, variant by variant, the segments its local playlist lists that the store lacks, then the
   * playlist; then the master playlist once it exists. One at a time.
   */
  sync(): Promise<BroadcastInfo | null> {
    this.syncing = this.syncing.catch(() => null).then(() => this.copyNew());
    return this.syncing;
  }

  private async copyNew(): Promise<BroadcastInfo | null> {
    await this.discover();
    const infos: (PlaylistInfo | null)[] = [];
    for (const rel of this.mediaPlaylists()) {
      const text = await readFile(path.join(this.dir, rel), 'utf8').catch(() => null);
      const info = text === null ? null : parsePlaylist(text);
      infos.push(info);
      if (text === null || info === null || this.inPlace || text === this.copiedPlaylists.get(rel)) continue;
      const folder = path.posix.dirname(rel);
      for (const segment of info.segments) {
        const name = folder === '.' ? segment : `${folder}/${segment}`;
        if (this.copied.has(name) || segment.includes('/')) continue;
        await this.files.putFile(`${this.dirKey}/${name}`, path.join(this.dir, name));
        this.copied.add(name);
      }
      await this.files.put(`${this.dirKey}/${rel}`, text);
      this.copiedPlaylists.set(rel, text);
    }
    if (this.variants && !this.inPlace) {
      const master = await readFile(this.playlistFile, 'utf8').catch(() => null);
      if (master !== null && master !== this.copiedPlaylists.get(PLAYLIST_NAME)) {
        await this.files.put(`${this.dirKey}/${PLAYLIST_NAME}`, master);
        this.copiedPlaylists.set(PLAYLIST_NAME, master);
      }
    }
    const main = infos[0];
    return main ? { ...main, everyVariantStarted: infos.every((info) => (info?.segments.length ?? 0) > 0) } : null;
  }

  /** Closes every variant's playlist (#EXT-X-ENDLIST: the replay) and copies the rest: the replay is whole in the store. */
  async close(): Promise<BroadcastInfo | null> {
    await this.discover();
    for (const rel of this.mediaPlaylists()) await closePlaylist(path.join(this.dir, rel));
    return this.sync();
  }

  /** Drops the node's own copy once everything is in the store (never the local store itself). */
  async discard(): Promise<void> {
    if (!this.inPlace) await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * Closes a broadcast's playlist in the store itself (its node is gone), every variant's when it has
 * several: the main playlist's length in seconds, or null when there is none.
 */
export async function closeStoredPlaylist(files: FileStore, playlistKey: string): Promise<number | null> {
  const text = await readText(files, playlistKey);
  if (text === null) return null;
  const folders = parseMaster(text);
  if (!folders) return closeStoredMediaPlaylist(files, playlistKey, text);
  const directory = path.posix.dirname(playlistKey);
  let length: number | null = null;
  for (const folder of folders) {
    const key = `${directory}/${folder}/${PLAYLIST_NAME}`;
    const variant = await readText(files, key);
    const seconds = variant === null ? null : await closeStoredMediaPlaylist(files, key, variant);
    length ??= seconds;
  }
  return length;
}

async function closeStoredMediaPlaylist(files: FileStore, key: string, text: string): Promise<number> {
  const info = parsePlaylist(text);
  if (!info.ended) await files.put(key, `${text.endsWith('\n') || text === '' ? text : `${text}\n`}${ENDLIST}\n`);
  return info.lengthSeconds;
}
