/**
 * Resumable uploads with STORAGE=s3 (decision 0065): two upload servers over one bucket, as two
 * instances behind a balancer, each taking every other chunk of the same upload; the file arrives
 * whole, and removing it leaves nothing in the bucket.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES } from '../../../common/constants';
import { startS3Server, type TestS3Server } from '../../testing/s3-server';
import { createResumableUploads, mountResumableUploads, type ResumableUploads } from './resumable';

const PATH = '/api/uploads';
const TUS = { 'tus-resumable': '1.0.0', 'x-test-user': '7' };

let s3: TestS3Server;
const instances: Array<{ app: FastifyInstance; uploads: ResumableUploads; base: string }> = [];

beforeAll(async () => {
  s3 = await startS3Server();
  for (let i = 0; i < 2; i += 1) {
    const uploads = createResumableUploads({
      directory: mkdtempSync(path.join(os.tmpdir(), 'll-uploads-unused-')),
      s3: { settings: s3.settings, workDir: mkdtempSync(path.join(os.tmpdir(), 'll-work-')) },
      path: PATH, maxBytes: 50_000_000, tooBigMessage: 'Too big', emptyMessage: 'Empty file',
    });
    const app = Fastify();
    mountResumableUploads(app, uploads, { path: PATH, uploaderOf: (request) => Number(request.headers['x-test-user']) || null });
    await app.listen({ port: 0, host: '127.0.0.1' });
    instances.push({ app, uploads, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` });
  }
}, 30_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.app.close()));
  await s3?.close();
}, 30_000);

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function create(size: number): Promise<string> {
  const res = await fetch(`${instances[0]!.base}${PATH}`, { method: 'POST', headers: { ...TUS, 'upload-length': String(size), 'upload-metadata': `filename ${Buffer.from('clip.mov').toString('base64')}` } });
  expect(res.status).toBe(201);
  return res.headers.get('location')!.split('/').pop()!;
}

describe('resumable uploads in the bucket', { timeout: 60_000 }, () => {
  it('takes the chunks of one upload on either instance, and the file arrives whole', async () => {
    // Past S3's 5 MiB part minimum: parts, and a short last one.
    const file = randomBytes(11_500_000);
    const id = await create(file.length);
    let offset = 0;
    for (let n = 0; offset < file.length; n += 1) {
      const instance = instances[n % 2]!;
      const head = await fetch(`${instance.base}${PATH}/${id}`, { method: 'HEAD', headers: TUS });
      expect(Number(head.headers.get('upload-offset'))).toBe(offset);
      const chunk = file.subarray(offset, offset + UPLOAD_CHUNK_BYTES);
      const res = await fetch(`${instance.base}${PATH}/${id}`, {
        method: 'PATCH', body: chunk, headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      });
      expect(res.status).toBe(204);
      offset = Number(res.headers.get('upload-offset'));
    }
    const finished = await instances[1]!.uploads.finished(id, 7);
    expect(finished).toMatchObject({ id, ownerId: 7, size: file.length, metadata: { filename: 'clip.mov' } });
    expect(await finished!.withLocalFile(async (p) => sha256(readFileSync(p)))).toBe(sha256(file));
    expect(await instances[0]!.uploads.finished(id, 8)).toBeNull();
    await instances[0]!.uploads.remove(id);
    expect(await s3.keys()).toEqual([]);
  });

  it("is given up on either instance, with its parts; a stranger's request finds nothing", async () => {
    const file = randomBytes(2_000_000);
    const id = await create(file.length);
    const patch = await fetch(`${instances[0]!.base}${PATH}/${id}`, {
      method: 'PATCH', body: file.subarray(0, UPLOAD_CHUNK_BYTES), headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    });
    expect(patch.status).toBe(204);
    expect(await s3.keys()).not.toEqual([]);
    const stranger = await fetch(`${instances[1]!.base}${PATH}/${id}`, { method: 'HEAD', headers: { ...TUS, 'x-test-user': '9' } });
    expect(stranger.status).toBe(404);
    const gone = await fetch(`${instances[1]!.base}${PATH}/${id}`, { method: 'DELETE', headers: TUS });
    expect(gone.status).toBe(204);
    expect(await s3.keys()).toEqual([]);
    expect((await fetch(`${instances[0]!.base}${PATH}/${id}`, { method: 'HEAD', headers: TUS })).status).toBe(404);
  });
});
