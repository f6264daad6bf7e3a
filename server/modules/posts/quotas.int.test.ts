/**
 * Per-person quotas on uploads and posts through HTTP (tus creation and post/create), with small limits:
 * the storage a person keeps, uploads started and posts published in 24 hours, and the pixels of one
 * post's images together; each refused with its message before anything is stored.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS_PATH } from '../../../common/api/posts';
import { fill, MSG } from '../../../common/messages';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { publishImagePost, startUpload, testPicture, uploadFile } from '../../testing/uploads';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ UPLOAD_MAX_MB: '1', UPLOAD_QUOTA_MB: '2', UPLOADS_PER_DAY: '6', POSTS_PER_DAY: '2', POST_MAX_MEGAPIXELS: '1' });
});
afterAll(() => t.close());

const picture = { filename: 'picture.png', filetype: 'image/png' };
const storedPostFolders = () => {
  const dir = path.join(t.resources.config.dataDir, 'files', 'posts');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

describe('the storage a person keeps', () => {
  it('refuses an upload that would pass it, counts unfinished uploads, and gives room back when one is given up', async () => {
    const me = await t.given.signedInUser();
    const first = await startUpload(me.client, 900_000, picture);
    const second = await startUpload(me.client, 900_000, picture);
    expect([first.res.status, second.res.status]).toEqual([201, 201]);
    const third = await startUpload(me.client, 900_000, picture);
    expect(third.res.status).toBe(413);
    expect(String(third.res.body)).toBe(fill(MSG.uploadQuotaFull, { size: '2 MB' }));
    // Another person's storage is their own.
    expect((await startUpload((await t.given.signedInUser()).client, 900_000, picture)).res.status).toBe(201);

    const givenUp = await me.client.request('DELETE', `${UPLOADS_PATH}/${first.id}`, { headers: { 'tus-resumable': '1.0.0' } });
    expect(givenUp.status).toBe(204);
    expect((await startUpload(me.client, 900_000, picture)).res.status).toBe(201);
  });

  it('counts a published post\'s bytes until it is deleted', async () => {
    const me = await t.given.signedInUser();
    const data = await testPicture();
    const upload = await uploadFile(me.client, data, 'kept.png', 'image/png');
    const created = await me.client.post('/api/post/create', { type: 'image', title: 'Kept', audience: 'public', upload_ids: [upload] });
    expect(created.status).toBe(200);
    expect((await startUpload(me.client, 1_000_000, picture)).res.status).toBe(201);
    // The post's bytes and the open upload leave one byte too few for this one.
    const justOver = 1_000_000 - data.length + 1;
    expect((await startUpload(me.client, justOver, picture)).res.status).toBe(413);
    expect((await me.client.post('/api/post/delete', { post_id: created.body.post_id })).status).toBe(200);
    expect((await startUpload(me.client, justOver, picture)).res.status).toBe(201);
  });
});

describe('what a person starts and publishes in a day', () => {
  it('refuses the upload past the day\'s count, given up or not', async () => {
    const me = await t.given.signedInUser();
    for (let i = 0; i < 6; i += 1) {
      const { res, id } = await startUpload(me.client, 1000, picture);
      expect(res.status).toBe(201);
      await me.client.request('DELETE', `${UPLOADS_PATH}/${id}`, { headers: { 'tus-resumable': '1.0.0' } });
    }
    const refused = await startUpload(me.client, 1000, picture);
    expect(refused.res.status).toBe(429);
    expect(String(refused.res.body)).toBe(fill(MSG.uploadsPerDay, { count: 6 }));
  });

  it('refuses the post past the day\'s count before storing anything; a deleted post still counts', async () => {
    const me = await t.given.signedInUser();
    const first = await publishImagePost(me.client);
    await publishImagePost(me.client);
    expect((await me.client.post('/api/post/delete', { post_id: first })).status).toBe(200);
    const upload = await uploadFile(me.client, await testPicture(), 'third.png', 'image/png');
    const folders = storedPostFolders();
    const refused = await me.client.post('/api/post/create', { type: 'image', title: 'One more', audience: 'public', upload_ids: [upload] });
    expect([refused.status, refused.body.message]).toEqual([429, fill(MSG.postsPerDay, { count: 2 })]);
    expect(storedPostFolders()).toBe(folders);
  });
});

describe('the pixels of one post', () => {
  it('refuses images that are too large together before decoding any, and takes each alone', async () => {
    const me: SignedInUser = await t.given.signedInUser();
    const wide = await testPicture({ r: 10, g: 200, b: 90 }, 1000, 800);
    const uploads = [await uploadFile(me.client, wide, 'a.png', 'image/png'), await uploadFile(me.client, wide, 'b.png', 'image/png')];
    const folders = storedPostFolders();
    const refused = await me.client.post('/api/post/create', { type: 'image', title: 'Two wide ones', audience: 'public', upload_ids: uploads });
    expect([refused.status, refused.body.message]).toEqual([400, fill(MSG.postTooManyPixels, { megapixels: 1 })]);
    expect(storedPostFolders()).toBe(folders);
    const alone = await uploadFile(me.client, wide, 'c.png', 'image/png');
    expect((await me.client.post('/api/post/create', { type: 'image', title: 'One wide one', audience: 'public', upload_ids: [alone] })).status).toBe(200);
  });
});
