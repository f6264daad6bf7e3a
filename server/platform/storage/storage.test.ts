import { mkdtempSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../testing/s3-server';
import { createS3FileStore } from './s3-store';
import { createLocalFileStore, putFolder, readText, type FileStore } from './storage';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'll-work-'));
let s3: TestS3Server;
const stores: Record<'local' | 's3', () => FileStore> = {
  local: () => createLocalFileStore(mkdtempSync(path.join(os.tmpdir(), 'll-store-')), { workDir }),
  s3: () => createS3FileStore(s3.settings, { workDir }),
};

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => s3?.close());

describe.each(['local', 's3'] as const)('%s file store', (kind) => {
  let store: FileStore;
  beforeAll(() => {
    store = stores[kind]();
  });

  it('writes, reads and removes by key', async () => {
    await store.put('a/b/c.txt', 'hello');
    expect(await text((await store.read('a/b/c.txt'))!)).toBe('hello');
    const opened = await store.open('a/b/c.txt');
    expect(opened?.size).toBe(5);
    opened?.body.destroy();
    await store.remove('a/b/c.txt');
    expect(await store.read('a/b/c.txt')).toBeNull();
    expect(await store.open('a/b/c.txt')).toBeNull();
    await store.remove('a/b/c.txt');
  });

  it('refuses keys that escape the root or are not relative paths', async () => {
    for (const key of ['../x.txt', 'a/../../x', '/abs', 'a//b', '']) await expect(store.put(key, 'no')).rejects.toThrow(/storage key/);
  });

  it('stores files from disk, moved or copied, and folders with their structure', async () => {
    const dir = path.join(workDir, `${kind}-src`);
    await mkdir(path.join(dir, 'hls', '0'), { recursive: true });
    await writeFile(path.join(dir, 'hls', 'index.m3u8'), '#EXTM3U\n');
    await writeFile(path.join(dir, 'hls', '0', 'seg-00000.ts'), Buffer.alloc(4096, 0x47));
    await writeFile(path.join(dir, 'kept.bin'), Buffer.from([1, 2, 3]));
    await store.putFile('f/kept.bin', path.join(dir, 'kept.bin'));
    expect((await stat(path.join(dir, 'kept.bin'))).size).toBe(3);
    await putFolder(store, 'f/media', path.join(dir, 'hls'), { move: true });
    expect(await stat(path.join(dir, 'hls', 'index.m3u8')).catch(() => null)).toBeNull();
    expect(await store.list('f')).toEqual(['f/kept.bin', 'f/media/0/seg-00000.ts', 'f/media/index.m3u8']);
    expect(await readText(store, 'f/media/index.m3u8')).toBe('#EXTM3U\n');
    expect((await store.open('f/media/0/seg-00000.ts'))?.size).toBe(4096);
    await store.removeFolder('f/media');
    expect(await store.list('f')).toEqual(['f/kept.bin']);
    await store.removeFolder('f');
    expect(await store.list('f')).toEqual([]);
  });

  it('gives tools a local copy, and a work directory, and leaves nothing behind', async () => {
    await store.put('t/source.bin', Buffer.alloc(100_000, 7));
    let seen = '';
    const size = await store.withLocalCopy('t/source.bin', async (file) => {
      seen = file;
      return (await readFile(file)).length;
    });
    expect(size).toBe(100_000);
    if (kind === 's3') expect(await stat(seen).catch(() => null)).toBeNull();
    expect(await store.withLocalCopy('t/none.bin', async () => 1)).toBeNull();
    let work = '';
    await store.withWorkDir(async (dir) => {
      work = dir;
      await writeFile(path.join(dir, 'out'), 'x');
    });
    expect(await stat(work).catch(() => null)).toBeNull();
    await expect(store.withWorkDir(async () => {
      throw new Error('tool failed');
    })).rejects.toThrow('tool failed');
  });
});

describe('s3 file store', () => {
  it('refuses a write to a bucket that is not there', async () => {
    const store = createS3FileStore({ ...s3.settings, bucket: 'no-such-bucket' }, { workDir });
    const error = (await store.put('x.txt', 'x').catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('NoSuchBucket');
    expect(await s3.keys()).not.toContain('x.txt');
  });
});
