import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/posts';
import { MSG } from '../../../common/messages';
import { resolveFfmpegPath } from '../../platform/media/ffmpeg-path';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { eventually } from '../../testing/eventually';
import { HttpSession } from '../../testing/http-session';
import { uploadFile } from '../../testing/uploads';
import { postMedia } from './tables';
import { createTranscodes } from './transcodes';

let t: TestApp;
let base: string;
let clips: string;
let clip: Buffer;
beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  clips = mkdtempSync(path.join(os.tmpdir(), 'll-clips-'));
  const file = path.join(clips, 'clip.mov');
  execFileSync(resolveFfmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file]);
  clip = readFileSync(file);
});
afterAll(async () => {
  rmSync(clips, { recursive: true, force: true });
  await t.close();
});

async function person(): Promise<SignedInUser> {
  const user = await t.given.user();
  return { user, client: await HttpSession.at(base).signIn(user.username, user.password) };
}

const postOf = async (client: HttpSession, id: number) => (await client.get(api.postLookup.path, { id })).body.post as api.Post;

async function until(client: HttpSession, id: number, done: (post: api.Post) => boolean): Promise<api.Post> {
  const post = await eventually(() => postOf(client, id), done, 60_000, 250);
  if (!done(post)) throw new Error(`post ${id} stayed ${post.state}`);
  return post;
}

async function publishVideo(owner: SignedInUser, bytes: Buffer, name = 'clip.mov') {
  const upload = await uploadFile(owner.client, bytes, name, 'video/quicktime');
  return owner.client.post(api.createPost.path, { type: 'video', title: 'A short film', audience: 'public', upload_ids: [upload] });
}

describe('video posts', () => {
  it('transcodes a .mov to HLS with a poster, shown as processing until ready, and plays it to its viewer only', async () => {
    const owner = await person();
    const created = await publishVideo(owner, clip);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const postId = Number(created.body.post_id);
    const stranger = await person();
    expect((await stranger.client.get(api.postLookup.path, { id: postId })).status).toBe(404);

    const ready = await until(owner.client, postId, (p) => p.state === 'ready');
    expect(ready).toMatchObject({ kind: 'video', progress: 100, media_count: 1 });
    const [video] = ready.media;
    expect(video!.duration).toBeCloseTo(3, 0);
    // Its tile in the owner's listing: its own poster and its length, for the play badge.
    const tiles = (await owner.client.get(api.userPosts.path, { id: owner.user.id })).body.posts as api.PostTile[];
    expect(tiles).toHaveLength(1);
    expect(tiles[0]!.thumb_url).toContain(`/posts/${video!.media_id}/`);
    expect(tiles[0]!.duration).toBeCloseTo(3, 0);
    const viewer = await person();
    const seen = await postOf(viewer.client, postId);
    const master = await viewer.client.request('GET', seen.media[0]!.url);
    expect(master.status).toBe(200);
    const variants = String(master.body).split('\n').filter((l) => l && !l.startsWith('#'));
    expect(variants.length).toBeGreaterThanOrEqual(1);
    expect(variants.every((l) => l.includes('?token='))).toBe(true);
    const playlistUrl = new URL(variants[0]!, new URL(seen.media[0]!.url, base)).pathname + variants[0]!.slice(variants[0]!.indexOf('?'));
    const playlist = await viewer.client.request('GET', playlistUrl);
    expect(String(playlist.body)).toContain('#EXT-X-ENDLIST');
    const segment = String(playlist.body).split('\n').find((l) => l.startsWith('seg-'))!;
    const segmentUrl = playlistUrl.replace(/index\.m3u8\?.*$/, segment);
    const bytes = await viewer.client.request('GET', segmentUrl);
    expect([bytes.status, bytes.headers['content-type']]).toEqual([200, 'video/mp2t']);
    expect((await stranger.client.request('GET', segmentUrl)).status).toBe(403);
    const poster = await viewer.client.request('GET', seen.media[0]!.thumb_url);
    expect([poster.status, poster.headers['content-type']]).toEqual([200, 'image/jpeg']);
  });

  it('refuses a file that is not a video, and fails a post whose video breaks, never leaving it processing', async () => {
    const owner = await person();
    const text = await publishVideo(owner, Buffer.from('just some words, not a film'));
    expect([text.status, text.body.message]).toEqual([400, MSG.notAVideo]);
    const wrongName = await publishVideo(owner, clip, 'clip.avi');
    expect([wrongName.status, wrongName.body.message]).toEqual([400, MSG.notAVideo]);

    // The header is a film, the rest is noise: it probes, then the transcode fails it.
    const broken = Buffer.concat([clip.subarray(0, Math.floor(clip.length / 3)), Buffer.alloc(clip.length, 0x5a)]);
    const created = await publishVideo(owner, broken);
    if (created.status === 400) {
      expect(created.body.message).toBe(MSG.notAVideo);
      return;
    }
    const failed = await until(owner.client, Number(created.body.post_id), (p) => p.state !== 'processing');
    expect(failed.state === 'failed' ? failed.failure : 'ready').toBe(failed.state === 'failed' ? MSG.videoBroken : 'ready');
  });

  it('takes up a video again after the instance transcoding it died (its lease ran out)', async () => {
    const transcodes = t.app.services.transcodes;
    await transcodes.stop();
    const owner = await person();
    const created = await publishVideo(owner, clip);
    const postId = Number(created.body.post_id);
    // As a killed runner leaves it: claimed, with a lease that has run out.
    const db = t.resources.database.db;
    await db.update(postMedia).set({ transcodeState: 'running', transcodeAttempts: 1, leaseUntil: sql`now() - interval '1 second'` }).where(eq(postMedia.postId, postId));
    expect((await postOf(owner.client, postId)).state).toBe('processing');
    transcodes.start();
    const ready = await until(owner.client, postId, (p) => p.state !== 'processing');
    expect(ready.state).toBe('ready');
    const [row] = await db.select().from(postMedia).where(eq(postMedia.postId, postId));
    expect(row).toMatchObject({ transcodeState: 'done', transcodeAttempts: 2, leaseUntil: null });
    await transcodes.stop();
  });

  it('stops a transcode on a full disk, tells the owner, and takes it up again once there is room', async (context) => {
    const transcodes = t.app.services.transcodes;
    await transcodes.stop();
    const owner = await person();
    const postId = Number((await publishVideo(owner, clip)).body.post_id);
    const db = t.resources.database.db;
    // The work directory transcodes write in, on a disk with little room.
    const work = t.resources.config.storage.workDir;
    mkdirSync(work, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', work], { stdio: 'ignore' });
    } catch {
      context.skip();
    }
    try {
      transcodes.start();
      const waiting = await until(owner.client, postId, (p) => p.failure !== null);
      expect(waiting).toMatchObject({ state: 'processing', failure: MSG.videoWaitsForRoom });
      await transcodes.stop();
      const [row] = await db.select().from(postMedia).where(eq(postMedia.postId, postId));
      expect(row).toMatchObject({ transcodeState: 'running', transcodeAttempts: 0 });
      expect(row!.leaseUntil!.getTime()).toBeGreaterThan(Date.now());
    } finally {
      execFileSync('umount', [work]);
    }
    // Room again, and the retry time come.
    await db.update(postMedia).set({ leaseUntil: sql`now() - interval '1 second'` }).where(eq(postMedia.postId, postId));
    transcodes.start();
    const ready = await until(owner.client, postId, (p) => p.state !== 'processing');
    expect(ready).toMatchObject({ state: 'ready', failure: null });
    await transcodes.stop();
  });

  it('shares the queue between runners without ever handing one video to two of them', async () => {
    await t.app.services.transcodes.stop();
    const owner = await person();
    const postIds: number[] = [];
    for (let i = 0; i < 3; i += 1) postIds.push(Number((await publishVideo(owner, clip)).body.post_id));
    const runners = [1, 2].map(() => createTranscodes({ db: t.resources.database.db, files: t.resources.files, log: t.app.log, concurrency: 1, pollMs: 100 }));
    for (const runner of runners) runner.start();
    for (const id of postIds) expect((await until(owner.client, id, (p) => p.state !== 'processing')).state).toBe('ready');
    await Promise.all(runners.map((runner) => runner.stop()));
    const rows = await t.resources.database.db.select().from(postMedia).where(inArray(postMedia.postId, postIds));
    expect(rows.map((r) => [r.transcodeState, r.transcodeAttempts])).toEqual(postIds.map(() => ['done', 1]));
  });
});
