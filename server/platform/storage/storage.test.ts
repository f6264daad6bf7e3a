import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { createLocalFileStore } from './storage';

describe('local file store', () => {
  const store = createLocalFileStore(mkdtempSync(path.join(os.tmpdir(), 'll-store-')));
  it('writes, reads and removes by key', async () => {
    await store.put('a/b/c.txt', 'hello');
    expect(await text((await store.read('a/b/c.txt'))!)).toBe('hello');
    await store.remove('a/b/c.txt');
    expect(await store.read('a/b/c.txt')).toBeNull();
  });
  it('refuses keys that escape the root', async () => {
    await expect(store.put('../x.txt', 'no')).rejects.toThrow(/escapes/);
  });
});
