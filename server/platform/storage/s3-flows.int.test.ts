/**
 * STORAGE=s3 (decision 0065) through the product's own flows, against a local S3-compatible server:
 * image and video posts from resumable uploads, an ad creative and an avatar are stored in the bucket
 * and served from it with their length; nothing of the uploads stays behind, and deleting removes.
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/posts';
import { adSteps } from '../../modules/ads/ads-testing';
import { postMedia } from '../../modules/posts/tables';
import { eventually } from '../../testing/eventually';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { multipartFile } from '../../testing/multipart';
import { startS3Server, type TestS3Server } from '../../testing/s3-server';
import { publishImagePost, uploadFile } from '../../testing/uploads';

let s3: TestS3Server;
let t: TestApp;

beforeAll(async () => {
  s3 = await startS3Server();
  t = await startTestApp(s3.env);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

/** Every key belongs to a medium, an offer, an avatar or a broadcast: an upload's own objects are gone once it is used. */
const looseKeys = async () => (await s3.keys()).filter((key) => !/^(posts|ads|avatars|media)\//.test(key));


async function fetched(client: HttpSession, url: string) {
  const res = await client.request('GET', url);
  expect(res.status, url).toBe(200);
  return res;
}

describe('files in an S3 bucket', { timeout: 120_000 }, () => {
  it('stores an image post in the bucket, serves it from there, and removes it with the post', async () => {
    expect(t.resources.files.kind).toBe('s3');
    const owner = await t.given.signedInUser();
    const postId = await publishImagePost(owner.client, {}, 2);
    const key = await mediumKeys(postId);
    expect(key).toHaveLength(2);
    for (const folder of key) expect(await s3.keys(`${folder}/`)).toEqual([`${folder}/full.webp`, `${folder}/locked.webp`, `${folder}/tile.webp`]);
    expect(await looseKeys()).toEqual([]);

    const post = (await owner.client.get(api.postLookup.path, { id: postId })).body.post as api.Post;
    const full = await fetched(owner.client, post.media[0]!.url);
    expect(full.headers['content-type']).toBe('image/webp');
    expect(Number(full.headers['content-length'])).toBeGreaterThan(0);
    expect((await sharp(full.body as unknown as Buffer).metadata()).format).toBe('webp');

    expect((await owner.client.post(api.deletePost.path, { post_id: postId })).status).toBe(200);
    for (const folder of key) expect(await s3.keys(`${folder}/`)).toEqual([]);
  });

  it('transcodes a video post from the bucket into the bucket, and plays it from there', async () => {
    const owner = await t.given.signedInUser();
    const upload = await uploadFile(owner.client, adSteps(t).testClip(), 'clip.mp4', 'video/mp4');
    const created = await owner.client.post(api.createPost.path, { type: 'video', title: 'From the bucket', audience: 'public', upload_ids: [upload] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const postId = Number(created.body.post_id);
    const post = await eventually(async () => (await owner.client.get(api.postLookup.path, { id: postId })).body.post as api.Post, (p) => p.state !== 'processing', 90_000, 250);
    expect(post.state).toBe('ready');
    const [folder] = await mediumKeys(postId);
    // The source goes once the post is ready (right after its commit).
    const stored = await eventually(() => s3.keys(`${folder}/`), (keys) => !keys.includes(`${folder}/source`), 10_000, 100);
    expect(stored).toEqual(expect.arrayContaining([`${folder}/hls/index.m3u8`, `${folder}/hls/poster.jpg`, `${folder}/hls/0/index.m3u8`, `${folder}/hls/0/seg-00000.ts`, `${folder}/tile.webp`, `${folder}/locked.webp`]));
    expect(stored).not.toContain(`${folder}/source`);
    expect(await looseKeys()).toEqual([]);

    const viewer = await t.given.signedInUser();
    const seen = (await viewer.client.get(api.postLookup.path, { id: postId })).body.post as api.Post;
    const master = String((await fetched(viewer.client, seen.media[0]!.url)).body);
    const variant = master.split('\n').find((line) => line && !line.startsWith('#'))!;
    const base = new URL(seen.media[0]!.url, 'http://host');
    const rendition = String((await fetched(viewer.client, new URL(variant, base).pathname + new URL(variant, base).search)).body);
    const segment = rendition.split('\n').find((line) => line && !line.startsWith('#'))!;
    const segmentUrl = new URL(segment, new URL(variant, base));
    const bytes = await fetched(viewer.client, segmentUrl.pathname + segmentUrl.search);
    expect(bytes.headers['content-type']).toBe('video/mp2t');
    expect(Number(bytes.headers['content-length'])).toBeGreaterThan(1000);
  });

  it("stores an ad creative's video and poster in the bucket and serves them", async () => {
    const admin = await t.given.signedInUser({ role: 'admin' });
    const offer = await adSteps(t).createOffer(admin.client, { type: 'PREROLL' });
    const stored = (await s3.keys('ads/')).filter((key) => /\/(creative\.mp4|poster\.jpg)$/.test(key));
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(await looseKeys()).toEqual([]);
    const video = await fetched(admin.client, offer.video!);
    expect(video.headers['content-type']).toBe('video/mp4');
    expect(Number(video.headers['content-length'])).toBe((video.body as unknown as Buffer).length);
    expect((await fetched(admin.client, offer.thumbnail)).headers['content-type']).toBe('image/jpeg');
  });

  it('stores an avatar in the bucket, serves it, and removes the one it replaces', async () => {
    const user = await t.given.signedInUser();
    const upload = async (colour: string) => {
      const file = multipartFile('file', 'me.png', 'image/png', await sharp({ create: { width: 300, height: 200, channels: 3, background: colour } }).png().toBuffer());
      const res = await user.client.request('POST', '/api/user/upload-avatar', { rawBody: file.body, headers: { 'content-type': file.contentType } });
      expect(res.status).toBe(200);
      return res.body.avatar as string;
    };
    const first = await upload('#3a7');
    expect(await s3.keys('avatars/')).toContain(first.slice('/media/'.length));
    const served = await fetched(t.client(), first);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(Number(served.headers['content-length'])).toBe((served.body as unknown as Buffer).length);
    const second = await upload('#a37');
    expect(await s3.keys('avatars/')).not.toContain(first.slice('/media/'.length));
    expect((await t.client().request('GET', first)).status).toBe(404);
    expect((await t.client().request('GET', second)).status).toBe(200);
  });
});

async function mediumKeys(postId: number): Promise<string[]> {
  const rows = await t.resources.database.db.select({ key: postMedia.key }).from(postMedia).where(eq(postMedia.postId, postId)).orderBy(postMedia.id);
  return rows.map((r) => r.key);
}
