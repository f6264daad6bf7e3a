/** Signed HLS playback: tokens bound to a stream, a viewer, a client and an expiry, in the address's path; playlist rewriting, sealed segment names, cache headers. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../http/error-handler';
import { createLocalFileStore } from '../storage/storage';
import { MEDIA_CACHE, registerHlsRoutes } from './hls-routes';
import { createPlaybackTokens } from './playback-tokens';

const root = mkdtempSync(path.join(os.tmpdir(), 'll-hls-'));
const files = createLocalFileStore(root);
const tokens = createPlaybackTokens('test-secret');
const VIEWER = 'user:1000001|limelight';
const PLAYLIST = '#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:1.000000,\nseg_00000.ts\n#EXTINF:1.000000,\nseg_00001.ts\n';
let app: FastifyInstance;

beforeAll(async () => {
  await files.put('media/5/b1/index.m3u8', PLAYLIST);
  await files.put('media/5/b1/seg_00000.ts', Buffer.alloc(188, 0x47));
  await files.put('media/5/thumb.jpg', Buffer.from([0xff, 0xd8, 0xff]));
  await files.put('media/5/secret.txt', 'not media');
  app = Fastify();
  installErrorHandling(app);
  const locator = async (streamId: number) => ({ 5: 'media/5/b1/index.m3u8', 6: 'media/6/b2/index.m3u8' })[streamId] ?? null;
  // Stream 5 is listed; stream 8 has a thumbnail on disk but may not be shown (hidden, private or 18+).
  await files.put('media/8/thumb.jpg', Buffer.from([0xff, 0xd8, 0xff]));
  const thumbnailKey = async (streamId: number) => (streamId === 5 ? 'media/5/thumb.jpg' : null);
  registerHlsRoutes(app, { files, locator, thumbnailKey, verify: (token, streamId) => tokens.verify(token, streamId) !== null, seal: tokens.seal });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url });
/** A segment's address as the playlist lists it: its name sealed for the broadcast's directory. */
const sealed = (segment: string) => `${segment.slice(0, -3)}.${tokens.seal(`media/5/b1/${segment}`)}.ts`;

describe('playback tokens', () => {
  it('are bound to the stream and the viewer, and expire', () => {
    let now = 1_000_000_000_000;
    const clock = createPlaybackTokens('test-secret', () => now);
    const token = clock.sign(5, 'user:1000001|limelight', 60);
    expect(clock.verify(token, 5)).toBe('user:1000001|limelight');
    expect(clock.sign(5, 'user:1000002|limelight', 60)).not.toBe(token);
    expect(clock.verify(token, 6)).toBeNull();
    expect(createPlaybackTokens('other-secret', () => now).verify(token, 5)).toBeNull();
    // A token signed for one client (a session, a browser) is nobody's in another.
    const bound = clock.sign(5, 'user:1000001|limelight', 60, 'session:a');
    expect(clock.verify(bound, 5, 'session:a')).toBe('user:1000001|limelight');
    expect(clock.verify(bound, 5, 'session:b')).toBeNull();
    expect(clock.verify(bound, 5)).toBeNull();
    expect(clock.verify(token, 5, 'session:a')).toBeNull();
    // Another viewer written into the token breaks its signature.
    const [expiry, , signature] = token.split('.');
    expect(clock.verify(`${expiry}.${Buffer.from('user:1000002|limelight').toString('base64url')}.${signature}`, 5)).toBeNull();
    now += 61_000;
    expect(clock.verify(token, 5)).toBeNull();
    expect(clock.verify(undefined, 5)).toBeNull();
    expect(clock.verify('garbage', 5)).toBeNull();
  });
});

describe('HLS routes', () => {
  it('refuse the playlist and segments without a valid token for that stream', async () => {
    const expired = createPlaybackTokens('test-secret', () => Date.now() - 120_000).sign(5, VIEWER, 60);
    const forged = `${tokens.sign(5, VIEWER, 60).split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`;
    for (const token of ['-', 'garbage', tokens.sign(6, VIEWER, 60), expired, forged]) {
      for (const file of ['index.m3u8', sealed('seg_00000.ts')]) {
        const res = await get(`/media/hls/5/${token}/${file}`);
        expect(res.statusCode, `${token}/${file}`).toBe(403);
        expect(res.json()).toMatchObject({ response: 'forbidden' });
      }
    }
  });

  it('serve the same playlist to every viewer, its segments relative to the token folder', async () => {
    const token = tokens.sign(5, VIEWER, 60);
    const res = await get(`/media/hls/5/${token}/index.m3u8`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    // A live playlist: a shared cache keeps it a second, a browser asks again each time (decision 0066).
    expect(res.headers['cache-control']).toBe(MEDIA_CACHE.livePlaylist);
    expect(res.body).toContain(`\n${sealed('seg_00000.ts')}\n`);
    expect(res.body).toContain(`\n${sealed('seg_00001.ts')}\n`);
    expect(res.body).not.toContain('seg_00000.ts');
    expect(res.body).not.toContain(token);
    expect(res.body).toContain('#EXTINF:1.000000,');
    const other = await get(`/media/hls/5/${tokens.sign(5, 'user:1000002|limelight', 60)}/index.m3u8`);
    expect(other.body).toBe(res.body);
    expect(other.headers.etag).toBe(res.headers.etag);
    const unchanged = await app.inject({ method: 'GET', url: `/media/hls/5/${token}/index.m3u8`, headers: { 'if-none-match': String(res.headers.etag) } });
    expect(unchanged.statusCode).toBe(304);
    // Revalidating is no way round the token.
    const refused = await app.inject({ method: 'GET', url: '/media/hls/5/garbage/index.m3u8', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(refused.statusCode).toBe(403);

    const segment = await get(`/media/hls/5/${token}/${sealed('seg_00000.ts')}`);
    expect(segment.statusCode).toBe(200);
    expect(segment.headers['content-type']).toBe('video/mp2t');
    // A listed segment never changes: browsers and shared caches keep it.
    expect(segment.headers['cache-control']).toBe(MEDIA_CACHE.segment);
    expect(segment.rawPayload).toHaveLength(188);
  });

  it('mark a replay playlist cacheable longer than a live one', async () => {
    await files.put('media/6/b2/index.m3u8', `${PLAYLIST}#EXT-X-ENDLIST\n`);
    const res = await get(`/media/hls/6/${tokens.sign(6, VIEWER, 60)}/index.m3u8`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(MEDIA_CACHE.replayPlaylist);
  });

  it('serve nothing outside the playlist directory', async () => {
    const token = tokens.sign(5, VIEWER, 60);
    for (const name of ['secret.txt', '..%2Fthumb.jpg', '..%2F..%2F5%2Fb1%2Fseg_00000.ts', 'seg_00000.ts%00', 'seg_0.ts', 'index.m3u8.tmp', 'seg_00000.ts']) {
      const res = await get(`/media/hls/5/${token}/${name}`);
      expect(res.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, name).not.toBe(200);
    }
    expect((await get(`/media/hls/5/${token}/${sealed('seg_00001.ts')}`)).statusCode).toBe(404);
    // A name needs its own seal: counting from one listed segment finds nothing.
    const [, tag] = sealed('seg_00000.ts').split('.');
    expect((await get(`/media/hls/5/${token}/seg_00001.${tag}.ts`)).statusCode).toBe(404);
    expect((await get(`/media/hls/5/${token}/seg_00000.${'A'.repeat(16)}.ts`)).statusCode).toBe(404);
    expect((await get(`/media/hls/7/${tokens.sign(7, VIEWER, 60)}/index.m3u8`)).statusCode).toBe(404);
    // The address of 0039 (the token in the query) is gone.
    expect((await get(`/media/hls/5/index.m3u8?token=${token}`)).statusCode).toBe(404);
  });

  it('answer 403, not 500, to a malformed or over-long token', async () => {
    const long = (await get(`/media/hls/5/${'x'.repeat(300)}/index.m3u8`)).statusCode;
    expect(long).toBeGreaterThanOrEqual(400);
    expect(long).toBeLessThan(500);
    expect((await get('/media/hls/5/a%2Fb/index.m3u8')).statusCode).toBe(403);
    expect((await get('/media/hls/5/a%00b/index.m3u8')).statusCode).toBe(403);
  });

  it('serve thumbnails of listed streams only', async () => {
    const res = await get('/media/thumbs/5.jpg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toContain('public');
    expect((await get('/media/thumbs/6.jpg')).statusCode).toBe(404);
    expect((await get('/media/thumbs/8.jpg')).statusCode).toBe(404);
    expect((await get('/media/thumbs/..%2F5%2Fthumb.jpg')).statusCode).toBe(404);
  });
});
