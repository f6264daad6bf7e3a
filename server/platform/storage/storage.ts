/**
 * Where files live (decision 0065): a local directory under DATA_DIR (the embedded default), or any
 * S3-compatible object store (STORAGE=s3, ./s3-store.ts). Keys are relative paths (`posts/<id>/tile.webp`).
 *
 * Tools that need a file on disk (ffmpeg, sharp) never see the store's own paths: `withLocalCopy` hands
 * them a local copy of one file (the file itself on the local store), and what they write goes into a
 * `withWorkDir` directory whose results are stored with `putFile` / `putFolder`.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';

/** A stored file opened for reading: its bytes and how many there are. */
export interface StoredFile {
  body: Readable;
  size: number;
}

export interface FileStore {
  readonly kind: 'local' | 's3';
  put(key: string, data: Buffer | string): Promise<void>;
  /** Stores a file from local disk (streamed); `move`: the local file is removed once stored. */
  putFile(key: string, file: string, options?: { move?: boolean }): Promise<void>;
  /** The file's bytes, or null when there is no such file. */
  read(key: string): Promise<Readable | null>;
  /** The file's bytes and size, or null when there is no such file. */
  open(key: string): Promise<StoredFile | null>;
  remove(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix/`. */
  removeFolder(prefix: string): Promise<void>;
  /** The keys under `prefix/`, at any depth; every key in the store for `''`. */
  list(prefix: string): Promise<string[]>;
  /** Runs `fn` with the file at a path on local disk (a copy, removed after, unless the store is that disk); null when there is no such file. */
  withLocalCopy<T>(key: string, fn: (file: string) => Promise<T>): Promise<T | null>;
  /** Runs `fn` with an empty directory on local disk for tools to write in; removed after. */
  withWorkDir<T>(fn: (dir: string) => Promise<T>): Promise<T>;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9_.\-/]*$/;

/** A key is a relative path without `..`, empty parts or a leading slash. */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) throw new Error(`not a storage key: ${key}`);
  return key;
}

/** Every file under a local directory, as paths relative to it with `/` separators. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
}

/** A whole stored file as text (playlists), or null. */
export async function readText(files: FileStore, key: string): Promise<string | null> {
  const stream = await files.read(key);
  return stream ? text(stream) : null;
}

/** Stores every file under a local directory at `prefix/<its relative path>`. */
export async function putFolder(files: FileStore, prefix: string, dir: string, options?: { move?: boolean }): Promise<void> {
  for (const relative of await filesUnder(dir)) await files.putFile(`${prefix}/${relative}`, path.join(dir, relative), options);
}

/** A scratch directory under `root`, removed after `fn`. */
export async function withScratchDir<T>(root: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = path.join(root, randomUUID());
  await mkdir(dir, { recursive: true });
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const defaultWorkDir = () => path.join(os.tmpdir(), 'limelight-work');

export function createLocalFileStore(root: string, options: { workDir?: string } = {}): FileStore {
  const base = path.resolve(root);
  const workDir = options.workDir ?? defaultWorkDir();
  const resolveKey = (key: string) => {
    const full = path.resolve(base, checkKey(key));
    if (!full.startsWith(base + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return full;
  };
  const open = async (key: string) => {
    const full = resolveKey(key);
    const info = await stat(full).catch(() => null);
    return info?.isFile() ? { body: createReadStream(full), size: info.size } : null;
  };
  return {
    kind: 'local',
    async put(key, data) {
      const full = resolveKey(key);
      await mkdir(path.dirname(full), { recursive: true });
      // A write cut short (a full disk) leaves nothing behind: its partial file would keep the disk full.
      await writeFile(full, data).catch(async (error: unknown) => {
        await rm(full, { force: true });
        throw error;
      });
    },
    async putFile(key, file, putOptions) {
      const full = resolveKey(key);
      // Already in place: a tool that wrote straight into this directory (live HLS on the local store).
      if (path.resolve(file) === full) return;
      await mkdir(path.dirname(full), { recursive: true });
      if (putOptions?.move) {
        const moved = await rename(file, full).then(() => true, () => false);
        if (moved) return;
      }
      await copyFile(file, full).catch(async (error: unknown) => {
        await rm(full, { force: true });
        throw error;
      });
      if (putOptions?.move) await rm(file, { force: true });
    },
    read: async (key) => (await open(key))?.body ?? null,
    open,
    async remove(key) {
      await rm(resolveKey(key), { force: true });
    },
    async removeFolder(prefix) {
      await rm(resolveKey(prefix), { recursive: true, force: true });
    },
    async list(prefix) {
      if (prefix === '') return filesUnder(base);
      return (await filesUnder(resolveKey(prefix))).map((relative) => `${prefix}/${relative}`);
    },
    async withLocalCopy(key, fn) {
      const full = resolveKey(key);
      const info = await stat(full).catch(() => null);
      return info?.isFile() ? fn(full) : null;
    },
    withWorkDir: (fn) => withScratchDir(workDir, fn),
  };
}
