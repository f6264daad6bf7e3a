/**
 * Live renditions (LIVE_RENDITIONS, decision 0070) with STORAGE=s3: one ffmpeg copies the encoder's
 * 640×360 picture and encodes a 240p rendition (480p and 360p are asked for too, but never upscaled),
 * a master playlist lists both, each plays through the viewer's signed token folder, and when the
 * broadcast ends every rendition's replay is closed and whole in the bucket.
 */
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMaster, parsePlaylist } from '../../platform/media/hls-playlist';
import { BroadcastCopier, closeStoredPlaylist } from '../../platform/media/live-copier';
import { MEDIA_CACHE } from '../../platform/media/hls-routes';
import { readText } from '../../platform/storage/storage';
import { startTestApp, type TestApp } from '../../testing/harness';
import { segmentPath, segmentPaths } from '../../testing/hls';
import type { HttpSession } from '../../testing/http-session';
import { publishTestPattern } from '../../testing/rtmp-publisher';
import { startS3Server, type TestS3Server } from '../../testing/s3-server';

let s3: TestS3Server;
let t: TestApp;
let rtmp: string;
beforeAll(async () => {
  s3 = await startS3Server();
  t = await startTestApp({ ...s3.env, RTMP_GRACE_MS: '500', LIVE_RENDITIONS: 'source,480p,360p,240p' });
  await t.app.services.media.start();
  rtmp = `rtmp://127.0.0.1:${t.app.services.media.ingest.port}/live`;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

interface Stream { stream_id: number; live: string; ended: boolean; playable: boolean; broadcast_key: string }
const lookup = async (client: HttpSession, id: number) => (await client.get('/api/streams/stream-lookup', { id })).body.stream as Stream;
const resolve = (from: string, uri: string) => new URL(uri, new URL(from, 'http://player.invalid')).pathname;

/** Each variant of the broadcast in the bucket: whether its playlist is closed and every segment it names is there. */
async function storedVariants(streamId: number) {
  const keys = await s3.keys(`media/${streamId}/`);
  const masterKey = keys.find((key) => /^media\/\d+\/[^/]+\/index\.m3u8$/.test(key))!;
  const dir = path.posix.dirname(masterKey);
  const folders = parseMaster((await readText(t.resources.files, masterKey))!) ?? [];
  return Promise.all(folders.map(async (folder) => {
    const info = parsePlaylist((await readText(t.resources.files, `${dir}/${folder}/index.m3u8`)) ?? '');
    return { folder, ended: info.ended, segments: info.segments.length, complete: info.segments.every((s) => keys.includes(`${dir}/${folder}/${s}`)) };
  }));
}

describe('live renditions', () => {
  it('plays each rendition through the signed token folder, refuses other tokens, and keeps every rendition as the replay', { timeout: 60_000 }, async () => {
    const owner = await t.given.signedIn(await t.given.user());
    const own = (await owner.post('/api/streams/get-live-stream', {})).body.stream as Stream;
    await owner.post('/api/streams/update-stream-info', { id: own.stream_id, data: { title: 'Renditions', audience: 'PUBLIC', rating: 'G' } });
    await owner.post('/api/streams/go-live', { id: own.stream_id });
    const publisher = publishTestPattern({ url: `${rtmp}/${own.broadcast_key}`, width: 640, height: 360 });
    const viewer = t.client();
    try {
      await expect.poll(async () => (await lookup(viewer, own.stream_id)).live, { timeout: 20_000, interval: 250 }).toBe('Y');
      const hls = ((await viewer.post('/api/streams/stream-join', { stream_id: own.stream_id, isHls: true })).body.url as { hls: string }).hls;

      const master = await viewer.request('GET', hls);
      expect(master.status).toBe(200);
      expect(master.headers['cache-control']).toBe(MEDIA_CACHE.livePlaylist);
      const lines = String(master.body).split('\n');
      const variants = lines.flatMap((line, i) => (line.startsWith('#EXT-X-STREAM-INF:') ? [{ attributes: line, uri: lines[i + 1]! }] : []));
      expect(variants.map((v) => v.uri)).toEqual(['source/index.m3u8', '240p/index.m3u8']);
      expect(variants[0]!.attributes).toMatch(/BANDWIDTH=\d{6,},RESOLUTION=640x360,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"$/);
      expect(variants[1]!.attributes).toMatch(/^#EXT-X-STREAM-INF:BANDWIDTH=726000,RESOLUTION=426x240,CODECS="avc1\.4d401e,mp4a\.40\.2"$/);

      const segments: string[] = [];
      for (const variant of variants) {
        const playlistUrl = resolve(hls, variant.uri);
        expect(playlistUrl).toMatch(new RegExp(`^/media/hls/${own.stream_id}/[^/]+/(source|240p)/index\\.m3u8$`));
        const playlist = await viewer.request('GET', playlistUrl);
        expect(playlist.status).toBe(200);
        expect(playlist.headers['cache-control']).toBe(MEDIA_CACHE.livePlaylist);
        // Every rendition is cut at the same one-second keyframes.
        expect(String(playlist.body)).toContain('#EXT-X-TARGETDURATION:1\n');
        const segment = segmentPath(playlistUrl, playlist.body)!;
        expect(path.posix.dirname(segment)).toBe(path.posix.dirname(playlistUrl));
        const media = await viewer.request('GET', segment);
        expect(media.status).toBe(200);
        expect(media.headers['content-type']).toBe('video/mp2t');
        expect(media.headers['cache-control']).toBe(MEDIA_CACHE.segment);
        segments.push(segment);

        // Another token, or none, is refused for the rendition as for the master.
        const withToken = (url: string, token: string) => url.replace(/^(\/media\/hls\/\d+\/)[^/]+\//, `$1${token}/`);
        expect((await viewer.request('GET', withToken(playlistUrl, '-'))).status).toBe(403);
        expect((await viewer.request('GET', withToken(segment, '-'))).status).toBe(403);
        expect((await t.client().request('GET', playlistUrl)).status).toBe(403);
      }
      // A segment's seal belongs to its rendition's folder; a folder that is no rendition is nothing.
      expect((await viewer.request('GET', segments[0]!.replace('/source/', '/240p/'))).status).toBe(404);
      expect((await viewer.request('GET', resolve(hls, '..%2Findex.m3u8/index.m3u8'))).status).toBe(404);
      expect((await viewer.request('GET', resolve(hls, 'thumbs/index.m3u8'))).status).toBe(404);
    } finally {
      await publisher.stop();
    }

    await expect.poll(async () => (await lookup(viewer, own.stream_id)).ended, { timeout: 20_000, interval: 250 }).toBe(true);
    const stored = await storedVariants(own.stream_id);
    expect(stored.map((v) => v.folder)).toEqual(['source', '240p']);
    for (const variant of stored) expect(variant).toMatchObject({ ended: true, complete: true });
    expect(stored.every((v) => v.segments > 0)).toBe(true);

    // The replay plays each rendition to its end.
    const replay = ((await viewer.post('/api/streams/stream-join', { stream_id: own.stream_id })).body.url as { hls: string }).hls;
    for (const uri of parseMaster(String((await viewer.request('GET', replay)).body))!.map((folder) => `${folder}/index.m3u8`)) {
      const playlist = await viewer.request('GET', resolve(replay, uri));
      expect(playlist.headers['cache-control']).toBe(MEDIA_CACHE.replayPlaylist);
      const last = segmentPaths(resolve(replay, uri), playlist.body).at(-1)!;
      expect((await viewer.request('GET', last)).status).toBe(200);
    }
  });

  it('continues a broadcast with renditions on another node, and closes every rendition of one whose node is gone', async () => {
    const files = t.resources.files;
    const master = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360\nsource/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=726000,RESOLUTION=426x240\n240p/index.m3u8\n';
    const open = (n: number) => `#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:1\n${Array.from({ length: n }, (_, i) => `#EXTINF:1.0,\nseg_0000${i}.ts\n`).join('')}`;
    const leftBehind = async (dirKey: string) => {
      await files.put(`${dirKey}/index.m3u8`, master);
      for (const folder of ['source', '240p']) {
        await files.put(`${dirKey}/${folder}/seg_00000.ts`, Buffer.alloc(188, 0x47));
        await files.put(`${dirKey}/${folder}/seg_00001.ts`, Buffer.alloc(188, 0x47));
        await files.put(`${dirKey}/${folder}/index.m3u8`, open(2));
      }
    };

    // Its node is gone: each rendition's playlist is closed in the store; the length is the first one's.
    await leftBehind('media/9001/gone');
    expect(await closeStoredPlaylist(files, 'media/9001/gone/index.m3u8')).toBe(2);
    for (const folder of ['source', '240p']) expect(parsePlaylist((await readText(files, `media/9001/gone/${folder}/index.m3u8`))!).ended).toBe(true);

    // The encoder reconnects to another node: the stored playlists come down for ffmpeg to append to, and
    // what it appends goes back up, each rendition's segment before its playlist.
    await leftBehind('media/9002/moved');
    const liveDir = await mkdtemp(path.join(os.tmpdir(), 'll-renditions-'));
    try {
      const copier = new BroadcastCopier(files, liveDir, 'media/9002/moved');
      const prepared = await copier.prepare();
      expect(prepared.variants).toEqual(['source', '240p']);
      expect(prepared.info?.segments).toEqual(['seg_00000.ts', 'seg_00001.ts']);
      expect(await readFile(path.join(copier.dir, '240p', 'index.m3u8'), 'utf8')).toBe(open(2));
      for (const folder of ['source', '240p']) {
        await appendFile(path.join(copier.dir, folder, 'seg_00002.ts'), Buffer.alloc(188, 0x47));
        await appendFile(path.join(copier.dir, folder, 'index.m3u8'), '#EXTINF:1.0,\nseg_00002.ts\n');
      }
      expect(await copier.close()).toMatchObject({ segments: ['seg_00000.ts', 'seg_00001.ts', 'seg_00002.ts'], ended: true, everyVariantStarted: true });
      await copier.discard();
      const keys = await s3.keys('media/9002/moved/');
      for (const folder of ['source', '240p']) {
        expect(parsePlaylist((await readText(files, `media/9002/moved/${folder}/index.m3u8`))!).ended).toBe(true);
        expect(keys).toContain(`media/9002/moved/${folder}/seg_00002.ts`);
      }
      expect(await readText(files, 'media/9002/moved/index.m3u8')).toBe(master);
    } finally {
      await rm(liveDir, { recursive: true, force: true });
    }
  });
});
