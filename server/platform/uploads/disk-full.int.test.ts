/**
 * An upload meeting a full disk, through HTTP on a real small disk: a 2 MB tmpfs mounted over the
 * uploads folder (skipped where mounting is not permitted).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES } from '../../../common/constants';
import { UPLOADS_PATH } from '../../../common/api/posts';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import { startUpload, uploadFile, uploadOffset } from '../../testing/uploads';

let t: TestApp;
let uploadsDir: string;
let mounted = false;

/** A tmpfs of `size` over `dir`: false when this machine does not let the tests mount. */
function mountSmallDisk(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  t = await startTestApp({ UPLOAD_MAX_MB: '8', UPLOAD_QUOTA_MB: '100' });
  uploadsDir = path.join(t.resources.config.dataDir, 'uploads');
  mkdirSync(uploadsDir, { recursive: true });
  mounted = mountSmallDisk(uploadsDir, '2m');
});

afterAll(async () => {
  if (mounted) execFileSync('umount', [uploadsDir]);
  await t?.close();
});

const TUS = { 'tus-resumable': '1.0.0' };
const video = { filename: 'clip.mp4', filetype: 'video/mp4' };

describe('a full disk', () => {
  it('answers 507 with a plain message, removes the partial file, and takes the next upload that fits', async (context) => {
    if (!mounted) context.skip();
    const me = await t.given.signedInUser();
    const { id } = await startUpload(me.client, 3_000_000, video);
    expect(id).toBeTruthy();

    const data = Buffer.alloc(3_000_000, 7);
    let refused = null;
    for (let offset = 0; offset < data.length && !refused; offset += UPLOAD_CHUNK_BYTES) {
      const res = await me.client.request('PATCH', `${UPLOADS_PATH}/${id}`, {
        rawBody: data.subarray(offset, offset + UPLOAD_CHUNK_BYTES),
        headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      });
      if (res.status !== 204) refused = res;
    }
    expect(refused?.status).toBe(507);
    expect(String(refused?.body)).toBe(MSG.diskFull);
    expect(String(refused?.body)).not.toMatch(/ENOSPC|no space/i);

    // Nothing of it is kept: the disk has its room back, and the upload is gone.
    expect(readdirSync(uploadsDir)).toEqual([]);
    expect((await uploadOffset(me.client, id!)).status).toBe(404);
    expect(await uploadFile(me.client, Buffer.alloc(500_000, 1), 'small.mp4', 'video/mp4')).toBeTruthy();
  });
});
