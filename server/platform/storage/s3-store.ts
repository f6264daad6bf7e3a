/**
 * The FileStore on an S3-compatible object store (STORAGE=s3, decision 0065): one bucket, keys as they
 * are. Reads stream the object (GetObject) with its length; tools get a downloaded copy in the work
 * directory, removed when they are done. Checksums are sent only where S3 requires them: stores
 * other than AWS (MinIO, Ceph, R2, …) do not all read the newer streaming checksums.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { checkKey, withScratchDir, type FileStore, type StoredFile } from './storage';

export interface S3Settings {
  bucket: string;
  region: string;
  /** Another S3-compatible service (MinIO, a test server); unset: AWS. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Unset: the SDK's own chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** The client every S3 user here makes from the settings (the store, resumable uploads). */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp', '.jpg': 'image/jpeg', '.png': 'image/png', '.m3u8': 'application/vnd.apple.mpegurl', '.ts': 'video/mp2t', '.mp4': 'video/mp4',
};
const contentType = (key: string) => CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

export function createS3FileStore(settings: S3Settings, options: { workDir: string; client?: S3Client }): FileStore {
  const client = options.client ?? new S3Client(s3ClientConfig(settings));
  const Bucket = settings.bucket;

  async function open(key: string): Promise<StoredFile | null> {
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
      return { body: answer.Body as Readable, size: Number(answer.ContentLength ?? 0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async function list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix === '' ? undefined : `${checkKey(prefix)}/`, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((o) => o.Key!).filter((k) => k !== undefined));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  const store: FileStore = {
    kind: 's3',
    async put(key, data) {
      const body = typeof data === 'string' ? Buffer.from(data) : data;
      await client.send(new PutObjectCommand({ Bucket, Key: checkKey(key), Body: body, ContentLength: body.length, ContentType: contentType(key) }));
    },
    async putFile(key, file, putOptions) {
      const { size } = await stat(file);
      await client.send(new PutObjectCommand({ Bucket, Key: checkKey(key), Body: createReadStream(file), ContentLength: size, ContentType: contentType(key) }));
      if (putOptions?.move) await rm(file, { force: true });
    },
    read: async (key) => (await open(key))?.body ?? null,
    open,
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
    async removeFolder(prefix) {
      const keys = await list(prefix);
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      }
    },
    list,
    async withLocalCopy(key, fn) {
      return withScratchDir(options.workDir, async (dir) => {
        const object = await open(key);
        if (!object) return null;
        const file = path.join(dir, path.basename(key));
        await mkdir(dir, { recursive: true });
        await pipeline(object.body, createWriteStream(file));
        return fn(file);
      });
    },
    withWorkDir: (fn) => withScratchDir(options.workDir, fn),
  };
  return store;
}
