/**
 * A live broadcast with STORAGE=s3 (decision 0065): ffmpeg writes on the media node's disk, each closed
 * segment and then the playlist are copied to the bucket as they appear, viewers are served from the
 * bucket, and once the broadcast ends its replay is whole there and the node's own copy is gone.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlaylist } from '../../platform/media/hls-playlist';
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
  t = await startTestApp({ ...s3.env, RTMP_GRACE_MS: '1500' });
  await t.app.services.media.start();
  rtmp = `rtmp://127.0.0.1:${t.app.services.media.ingest.port}/live`;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

interface Stream { stream_id: number; live: string; ended: boolean; playable: boolean; broadcast_key: string; thumbnail_url: string | null }
const lookup = async (client: HttpSession, id: number) => (await client.get('/api/streams/stream-lookup', { id })).body.stream as Stream;

/** The broadcast's playlist in the bucket, and whether every segment it names is in the bucket too. */
async function storedBroadcast(streamId: number) {
  const keys = await s3.keys(`media/${streamId}/`);
  const playlistKey = keys.find((key) => key.endsWith('/index.m3u8'));
  if (!playlistKey) return null;
  const text = (await readText(t.resources.files, playlistKey))!;
  const info = parsePlaylist(text);
  const dir = path.posix.dirname(playlistKey);
  return { playlistKey, info, keys, complete: info.segments.every((segment) => keys.includes(`${dir}/${segment}`)) };
}

describe('live over RTMP into an S3 bucket', () => {
  it('copies segments to the bucket as they close, plays from the bucket, and leaves the whole replay there', { timeout: 120_000 }, async () => {
    const owner = await t.given.signedIn(await t.given.user());
    const own = (await owner.post('/api/streams/get-live-stream', {})).body.stream as Stream;
    await owner.post('/api/streams/update-stream-info', { id: own.stream_id, data: { title: 'Into the bucket', audience: 'PUBLIC', rating: 'G' } });
    await owner.post('/api/streams/go-live', { id: own.stream_id });
    const publisher = publishTestPattern({ url: `${rtmp}/${own.broadcast_key}`, width: 320, height: 180 });
    const viewer = t.client();
    let localDir: string | undefined;
    try {
      await expect.poll(async () => (await lookup(viewer, own.stream_id)).live, { timeout: 30_000, interval: 250 }).toBe('Y');
      // Live means the first segment is already in the bucket; more follow, and the stored playlist never runs ahead of them.
      const first = await storedBroadcast(own.stream_id);
      expect(first?.info.segments.length).toBeGreaterThan(0);
      expect(first?.complete).toBe(true);
      await expect.poll(async () => (await storedBroadcast(own.stream_id))?.info.segments.length ?? 0, { timeout: 30_000, interval: 250 }).toBeGreaterThan(first!.info.segments.length + 1);
      for (let i = 0; i < 5; i += 1) expect((await storedBroadcast(own.stream_id))?.complete).toBe(true);
      localDir = path.join(t.resources.config.storage.liveDir, path.posix.dirname(first!.playlistKey));
      expect((await stat(localDir)).isDirectory()).toBe(true);

      const join = await viewer.post('/api/streams/stream-join', { stream_id: own.stream_id, isHls: true });
      const address = (join.body.url as { hls: string }).hls;
      const playlist = await viewer.request('GET', address);
      expect(playlist.status).toBe(200);
      const segment = segmentPath(address, playlist.body)!;
      const media = await viewer.request('GET', segment);
      expect(media.status).toBe(200);
      expect(media.headers['content-type']).toBe('video/mp2t');

      await expect.poll(async () => (await lookup(viewer, own.stream_id)).thumbnail_url, { timeout: 20_000, interval: 500 }).toBeTruthy();
      expect(await s3.keys(`media/${own.stream_id}/`)).toContain(`media/${own.stream_id}/thumb.jpg`);
    } finally {
      await publisher.stop();
    }

    await expect.poll(async () => (await lookup(viewer, own.stream_id)).ended, { timeout: 30_000, interval: 250 }).toBe(true);
    expect(await lookup(viewer, own.stream_id)).toMatchObject({ live: 'N', playable: true });
    const replay = await storedBroadcast(own.stream_id);
    expect(replay).toMatchObject({ complete: true, info: { ended: true } });
    expect(localDir && (await stat(localDir).catch(() => null))).toBeNull();

    const rejoin = await viewer.post('/api/streams/stream-join', { stream_id: own.stream_id });
    const replayAddress = (rejoin.body.url as { hls: string }).hls;
    const closed = String((await viewer.request('GET', replayAddress)).body);
    expect(closed).toContain('#EXT-X-ENDLIST');
    const served = segmentPaths(replayAddress, closed);
    expect(served).toHaveLength(replay!.info.segments.length);
    const last = served.at(-1)!;
    expect((await viewer.request('GET', last)).status).toBe(200);
  });
});
