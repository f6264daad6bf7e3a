/**
 * The object half of a backup: every stored object copied into the backup's `objects/` directory under
 * its key, with a list of keys, sizes and SHA-256 digests (`objects.tsv`) that a restore checks each
 * object against before putting it back in the store.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileStore } from '../storage/storage';
import { BackupError } from './database-copy';

export interface ObjectSummary {
  count: number;
  bytes: number;
}

const SAFE_KEY = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[^\t\n\r]+$/;

export async function copyObjectsOut(files: FileStore, directory: string): Promise<ObjectSummary> {
  const lines: string[] = [];
  let bytes = 0;
  for (const key of await files.list('')) {
    if (!SAFE_KEY.test(key)) throw new BackupError(`A stored key cannot be written to a backup: ${JSON.stringify(key)}`);
    const stream = await files.read(key);
    if (!stream) continue; // removed since it was listed
    const file = path.join(directory, 'objects', key);
    await mkdir(path.dirname(file), { recursive: true });
    const digest = createHash('sha256');
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      digest.update(chunk);
      size += chunk.length;
    });
    await pipeline(stream, createWriteStream(file));
    lines.push(`${digest.digest('hex')}\t${size}\t${key}`);
    bytes += size;
  }
  await writeFile(path.join(directory, 'objects.tsv'), lines.map((line) => `${line}\n`).join(''));
  return { count: lines.length, bytes };
}

export async function copyObjectsIn(directory: string, files: FileStore): Promise<ObjectSummary> {
  const listing = await readFile(path.join(directory, 'objects.tsv'), 'utf8');
  let count = 0;
  let bytes = 0;
  for (const line of listing.split('\n').filter(Boolean)) {
    const [digest, size, key] = line.split('\t');
    if (!digest || !size || !key || !SAFE_KEY.test(key)) throw new BackupError(`objects.tsv has a line that is not an object: ${JSON.stringify(line)}`);
    const file = path.join(directory, 'objects', key);
    const hash = createHash('sha256');
    await pipeline(createReadStream(file), hash);
    if (hash.digest('hex') !== digest) throw new BackupError(`The backup's copy of ${key} is damaged (its digest differs from objects.tsv)`);
    await files.put(key, await readFile(file));
    count += 1;
    bytes += Number(size);
  }
  return { count, bytes };
}
