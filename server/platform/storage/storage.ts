/** Where files live: local disk under DATA_DIR by default (S3-compatible later, same interface). */
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface FileStore {
  put(key: string, data: Buffer | string): Promise<void>;
  read(key: string): Promise<Readable | null>;
  remove(key: string): Promise<void>;
  /** Absolute path on disk, for tools like ffmpeg that need one. */
  localPath(key: string): string;
}

export function createLocalFileStore(root: string): FileStore {
  const resolveKey = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return full;
  };
  return {
    async put(key, data) {
      const full = resolveKey(key);
      await mkdir(path.dirname(full), { recursive: true });
      // A write cut short (a full disk) leaves nothing behind: its partial file would keep the disk full.
      await writeFile(full, data).catch(async (error: unknown) => {
        await rm(full, { force: true });
        throw error;
      });
    },
    async read(key) {
      const full = resolveKey(key);
      const info = await stat(full).catch(() => null);
      return info?.isFile() ? createReadStream(full) : null;
    },
    async remove(key) {
      await rm(resolveKey(key), { force: true });
    },
    localPath: resolveKey,
  };
}
