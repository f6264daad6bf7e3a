/**
 * Upload throughput through the tus server (platform/uploads/resumable.ts, the code posts take files
 * with) against copying the same file on the same disk, in one run. A file of UPLOADS_MB megabytes
 * (default 200) is sent over loopback HTTP by tus-js-client — the client pages use — in chunks of
 * 1,000,000 bytes, one at a time, as the spec says; then by curl as one tus PATCH (an ordinary client:
 * what the chunking costs); the reference is `cp` of the same file into the same directory. Each is run
 * UPLOADS_RUNS times (default 3), best kept; every upload is checked byte for byte (SHA-256).
 *
 * Env: UPLOADS_MB, UPLOADS_RUNS, UPLOADS_DIR (default a fresh directory under DATA_DIR or ./data).
 */
import { execFile as execFileCallback, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import * as tus from 'tus-js-client';
import { UPLOAD_CHUNK_BYTES } from '../common/constants';
import { createResumableUploads, mountResumableUploads } from '../server/platform/uploads/resumable';
import { writeResult } from './lib';

const MB = Number(process.env.UPLOADS_MB ?? 200);
const RUNS = Number(process.env.UPLOADS_RUNS ?? 3);
const PATH = '/api/uploads';
const USER = 1;
/** Asynchronous: the server answering curl runs in this process. */
const execFile = promisify(execFileCallback);

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function best(label: string, run: () => Promise<number>): Promise<{ seconds: number; mbPerSecond: number; runs: number[] }> {
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(await run());
    console.log(`[uploads] ${label} run ${i + 1}: ${runs.at(-1)!.toFixed(2)} s`);
  }
  const seconds = Math.min(...runs);
  return { seconds: Number(seconds.toFixed(3)), mbPerSecond: Number((MB / seconds).toFixed(1)), runs: runs.map((s) => Number(s.toFixed(3))) };
}

async function main() {
  const root = process.env.UPLOADS_DIR ?? path.join(process.env.DATA_DIR ?? 'data', 'bench');
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(path.join(root, 'uploads-'));
  const source = path.join(work, 'source.bin');
  writeFileSync(source, randomBytes(MB * 1_000_000));
  const expected = await sha256(source);

  const directory = path.join(work, 'incoming');
  const uploads = createResumableUploads({ directory, path: PATH, maxBytes: (MB + 1) * 1_000_000, tooBigMessage: 'too big', emptyMessage: 'empty' });
  const app = Fastify({ bodyLimit: 1 });
  mountResumableUploads(app, uploads, { path: PATH, uploaderOf: () => USER });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const endpoint = `http://127.0.0.1:${(app.server.address() as { port: number }).port}${PATH}`;

  const checkUpload = async (url: string) => {
    const finished = await uploads.finished(url.split('/').pop()!, USER);
    if (!finished || (await finished.withLocalFile(sha256)) !== expected) throw new Error('an upload did not arrive whole');
    await uploads.remove(finished.id);
  };

  try {
    const tusClient = await best('tus-js-client, 1 MB chunks', async () => {
      const t0 = performance.now();
      const url = await new Promise<string>((resolve, reject) => {
        const upload = new tus.Upload(createReadStream(source), {
          endpoint, chunkSize: UPLOAD_CHUNK_BYTES, uploadSize: MB * 1_000_000, retryDelays: [],
          onSuccess: () => resolve(upload.url!), onError: reject,
        });
        upload.start();
      });
      const seconds = (performance.now() - t0) / 1000;
      await checkUpload(url);
      return seconds;
    });

    const curl = await best('curl, one PATCH', async () => {
      const t0 = performance.now();
      const created = await fetch(endpoint, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': String(MB * 1_000_000) } });
      const url = new URL(created.headers.get('location')!, endpoint).toString();
      const out = await execFile('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'PATCH', '-H', 'Tus-Resumable: 1.0.0', '-H', 'Upload-Offset: 0',
        '-H', 'Content-Type: application/offset+octet-stream', '-T', source, url], { encoding: 'utf8' });
      if (out.stdout.trim() !== '204') throw new Error(`curl PATCH answered ${out.stdout} ${out.stderr}`);
      const seconds = (performance.now() - t0) / 1000;
      await checkUpload(url);
      return seconds;
    });

    const copy = await best('cp on the same disk', async () => {
      const target = path.join(work, 'copy.bin');
      const t0 = performance.now();
      const out = spawnSync('cp', [source, target]);
      if (out.status !== 0) throw new Error('cp failed');
      spawnSync('sync', [target]);
      const seconds = (performance.now() - t0) / 1000;
      rmSync(target);
      return seconds;
    });

    writeResult('uploads', {
      config: { megabytes: MB, chunkBytes: UPLOAD_CHUNK_BYTES, runs: RUNS, directory: root },
      tusClientChunks: tusClient,
      curlOnePatch: curl,
      plainCopy: copy,
      ratio: {
        tusClientToCopy: Number((tusClient.mbPerSecond / copy.mbPerSecond).toFixed(3)),
        curlToCopy: Number((curl.mbPerSecond / copy.mbPerSecond).toFixed(3)),
      },
      transcode: 'bench/transcode.ts (video posts: multiple of real time for a 1080p 60 s clip)',
    });
  } finally {
    await app.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
