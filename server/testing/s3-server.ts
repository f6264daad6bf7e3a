/**
 * A local S3-compatible server for tests: s3rver on a free loopback port with one bucket, its objects
 * in a temporary directory. s3rver lacks the multipart calls that resumable uploads make besides
 * create / upload part / complete (ListParts, AbortMultipartUpload, ListMultipartUploads): they are
 * answered here from its own record of the uploads in progress.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../platform/storage/s3-store';

export interface TestS3Server {
  /** Settings for the FileStore and the config (S3_*). */
  settings: S3Settings;
  env: Record<string, string>;
  /** The keys in the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

type KoaContext = {
  method: string; path: string; query: Record<string, string | undefined>; status: number; body: unknown; type: string;
};

interface StoreInternals {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  listObjects(bucket: string, options: { prefix?: string; maxKeys?: number }): Promise<{ objects: Array<{ key: string }> }>;
}

const ACCESS = 'S3RVER';

/** The multipart calls s3rver does not make, over its own directory of uploads in progress. */
function multipartExtras(store: StoreInternals) {
  const uploadsDir = (bucket: string) => store.getResourcePath(bucket, undefined, 'uploads');
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const [, bucket, ...keyParts] = ctx.path.split('/');
    const key = decodeURIComponent(keyParts.join('/'));
    const uploadId = ctx.query.uploadId;
    if (!bucket) return next();
    if (ctx.method === 'GET' && key === '' && 'uploads' in ctx.query) {
      const ids = await readdir(uploadsDir(bucket)).catch(() => []);
      const uploads = await Promise.all(ids.map(async (id) => ({
        Key: await readFile(path.join(uploadsDir(bucket), id, 'key'), 'utf8').catch(() => ''),
        UploadId: id,
        Initiated: (await stat(path.join(uploadsDir(bucket), id))).mtime.toISOString(),
      })));
      ctx.body = { ListMultipartUploadsResult: { Bucket: bucket, IsTruncated: false, Upload: uploads.filter((u) => u.Key) } };
      return;
    }
    if (!uploadId || key === '' || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const dir = path.join(uploadsDir(bucket), uploadId);
    if (!(await stat(dir).catch(() => null))) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
      return;
    }
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    const numbers = (await readdir(dir)).filter((name) => /^\d+$/.test(name)).map(Number).sort((a, b) => a - b);
    const parts = await Promise.all(numbers.map(async (n) => ({
      PartNumber: n,
      ETag: `"${(await readFile(path.join(dir, `${n}.md5`), 'utf8')).trim()}"`,
      Size: (await stat(path.join(dir, String(n)))).size,
      LastModified: new Date().toISOString(),
    })));
    ctx.body = { ListPartsResult: { Bucket: bucket, Key: key, UploadId: uploadId, MaxParts: 10000, IsTruncated: false, Part: parts } };
  };
}

export async function startS3Server(bucket = 'limelight-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'll-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const internals = server as unknown as { middleware: unknown[]; store: StoreInternals };
  // Before s3rver's router (the last middleware), after its XML encoding of answers.
  internals.middleware.splice(internals.middleware.length - 1, 0, multipartExtras(internals.store));
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const settings: S3Settings = { bucket, region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: ACCESS, secretAccessKey: ACCESS } };
  return {
    settings,
    env: {
      STORAGE: 's3', S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: 'on', S3_ACCESS_KEY_ID: ACCESS, S3_SECRET_ACCESS_KEY: ACCESS,
    },
    async keys(prefix = '') {
      const { objects } = await internals.store.listObjects(bucket, { prefix, maxKeys: 100_000 });
      return objects.map((o) => o.key).sort();
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
