/**
 * Resumable uploads through a real HTTP server and the tus client a page uses: chunks of 1,000,000
 * bytes, an upload cut at 40 % that resumes where it stopped, the owner rule, and the refusals that
 * store nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES } from '../../../common/constants';
import { createResumableUploads, mountResumableUploads, type ResumableUploads } from './resumable';

const MAX_BYTES = 8_000_000;
const PATH = '/api/uploads';

let app: FastifyInstance;
let uploads: ResumableUploads;
let directory: string;
let endpoint: string;

/** Who is signed in, as the test says: the product takes it from the session. */
const asUser = (userId: number) => ({ 'x-test-user': String(userId) });

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'll-uploads-'));
  uploads = createResumableUploads({ directory, path: PATH, maxBytes: MAX_BYTES, tooBigMessage: 'Too big: 8 MB at most', emptyMessage: 'Empty file' });
  app = Fastify();
  mountResumableUploads(app, uploads, { path: PATH, uploaderOf: (request) => Number(request.headers['x-test-user']) || null });
  await app.listen({ port: 0, host: '127.0.0.1' });
  endpoint = `http://127.0.0.1:${(app.server.address() as { port: number }).port}${PATH}`;
});

afterAll(async () => {
  await app?.close();
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const storedFiles = () => readdirSync(directory).filter((name) => !name.endsWith('.json'));

function send(file: Buffer, options: Partial<tus.UploadOptions> & { userId: number }): { upload: tus.Upload; done: Promise<string> } {
  let upload!: tus.Upload;
  const done = new Promise<string>((resolve, reject) => {
    upload = new tus.Upload(file, {
      endpoint,
      chunkSize: UPLOAD_CHUNK_BYTES,
      retryDelays: [],
      headers: asUser(options.userId),
      metadata: { filename: 'clip.mov', filetype: 'video/quicktime' },
      ...options,
      onSuccess: () => resolve(upload.url!),
      onError: reject,
    });
    upload.start();
  });
  return { upload, done };
}

describe('resumable uploads', () => {
  it('resumes an upload cut at 40 % where it stopped, and the file arrives whole', async () => {
    const file = randomBytes(5_500_000);
    let cut!: () => void;
    const cutAt40 = new Promise<void>((resolve) => (cut = resolve));
    const first = send(file, {
      userId: 7,
      onProgress: (sent) => {
        if (sent < file.length * 0.4) return;
        // The connection drops mid-chunk: what the server already took of that chunk is kept.
        void first.upload.abort().then(cut);
      },
    });
    await cutAt40;
    const url = first.upload.url;
    expect(url).toBeTruthy();

    const head = await fetch(url!, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', ...asUser(7) } });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(file.length);

    // A new page (a reopened tab) knows only the address: it asks the offset and sends the rest.
    const sentSecond: number[] = [];
    const second = send(file, { userId: 7, uploadUrl: url!, onProgress: (sent) => sentSecond.push(sent) });
    expect(await second.done).toBe(url);
    // It went on from the offset: nothing before it was sent again.
    expect(Math.min(...sentSecond)).toBeGreaterThanOrEqual(offset);

    const id = url!.split('/').pop()!;
    const finished = await uploads.finished(id, 7);
    expect(finished).toMatchObject({ id, ownerId: 7, size: file.length, metadata: { filename: 'clip.mov' } });
    expect(await finished!.withLocalFile(async (p) => sha256(readFileSync(p)))).toBe(sha256(file));
  });

  it("answers someone else's upload as unknown, for reading its offset, writing to it or taking it", async () => {
    const { upload, done } = send(randomBytes(1_200_000), { userId: 8 });
    await done;
    const id = upload.url!.split('/').pop()!;
    const stranger = { 'tus-resumable': '1.0.0', ...asUser(9) };
    expect((await fetch(upload.url!, { method: 'HEAD', headers: stranger })).status).toBe(404);
    const patch = await fetch(upload.url!, {
      method: 'PATCH',
      headers: { ...stranger, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.from('overwrite'),
    });
    expect(patch.status).toBe(404);
    expect(await uploads.finished(id, 9)).toBeNull();
    expect(await uploads.finished(id, 8)).not.toBeNull();
    expect(await uploads.finished('../../etc/passwd', 8)).toBeNull();
  });

  it('takes nothing from a caller who is not signed in', async () => {
    const res = await fetch(endpoint, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': '10' } });
    expect(res.status).toBe(401);
  });

  it('refuses an over-limit, empty or unsized file at creation, storing nothing', async () => {
    const before = storedFiles().length;
    const create = (headers: Record<string, string>) =>
      fetch(endpoint, { method: 'POST', headers: { 'tus-resumable': '1.0.0', ...asUser(7), ...headers } });

    const tooBig = await create({ 'upload-length': String(MAX_BYTES + 1) });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toBe('Too big: 8 MB at most');
    const empty = await create({ 'upload-length': '0' });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toBe('Empty file');
    expect((await create({ 'upload-defer-length': '1' })).status).toBe(400);

    // The client library meets the same refusal before sending a byte.
    await expect(send(randomBytes(MAX_BYTES + 10), { userId: 7 }).done).rejects.toThrow(/413/);
    expect(storedFiles().length).toBe(before);
  });
});
