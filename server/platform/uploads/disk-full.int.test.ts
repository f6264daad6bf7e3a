/**
 * An upload meeting a full disk, through HTTP on a real small disk: a 2 MB tmpfs mounted over the
 * uploads folder, and a full one over the avatars' (skipped where mounting is not permitted).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES } from '../../../common/constants';
import { UPLOADS_PATH } from '../../../common/api/posts';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartFile } from '../../testing/multipart';
import { startUpload, testPicture, uploadFile, uploadOffset } from '../../testing/uploads';

let t: TestApp;
let uploadsDir: string;
let avatarsDir: string;
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
  avatarsDir = path.join(t.resources.config.dataDir, 'files', 'avatars');
  mkdirSync(avatarsDir, { recursive: true });
  mounted = mountSmallDisk(uploadsDir, '2m') && mountSmallDisk(avatarsDir, '64k');
});

afterAll(async () => {
  if (mounted) {
    execFileSync('umount', [uploadsDir]);
    execFileSync('umount', [avatarsDir]);
  }
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

  it('answers an avatar that does not fit 507 with the plain message, keeps no partial file and leaves the avatar as it was', async (context) => {
    if (!mounted) context.skip();
    const me = await t.given.signedInUser();
    const before = (await me.client.get('/api/user/check-user-session')).body.avatar;
    // The disk all but full: what is left is too little for any avatar.
    const filler = path.join(avatarsDir, 'filler');
    try {
      writeFileSync(filler, Buffer.alloc(64 * 1024, 1));
    } catch {
      // ENOSPC: the filler took what there was.
    }
    const picture = await testPicture({ r: 10, g: 200, b: 90 }, 640, 480);
    const upload = () => {
      const file = multipartFile('file', 'me.png', 'image/png', picture);
      return me.client.request('POST', '/api/user/upload-avatar', { rawBody: file.body, headers: { 'content-type': file.contentType } });
    };
    const refused = await upload();
    expect(refused.status).toBe(507);
    expect(refused.body).toEqual({ response: 'disk_full', message: MSG.diskFull });
    expect(readdirSync(avatarsDir)).toEqual(['filler']);
    expect((await me.client.get('/api/user/check-user-session')).body.avatar).toEqual(before);

    // Room again: the same upload goes through.
    rmSync(filler);
    const stored = await upload();
    expect(stored.status).toBe(200);
    expect(readdirSync(avatarsDir)).toHaveLength(1);
  });
});
