/** Going live for real: ffmpeg pushes a test pattern over RTMP through the whole app, then it replays. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { publishTestPattern } from '../../testing/rtmp-publisher';
import type { HttpSession } from '../../testing/http-session';
import { WsClient } from '../../testing/ws-client';
import { segmentPath } from '../../testing/hls';
import { streams } from './tables';

let t: TestApp;
let rtmp: string;
let baseUrl: string;
const sockets: WsClient[] = [];
beforeAll(async () => {
  t = await startTestApp({ RTMP_GRACE_MS: '1500' });
  await t.app.services.media.start();
  rtmp = `rtmp://127.0.0.1:${t.app.services.media.ingest.port}/live`;
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

interface Stream {
  stream_id: number;
  live: string;
  ended: boolean;
  playable: boolean;
  stream_length: number;
  thumbnail_url: string | null;
  broadcast_key: string;
  rtmp_url: string;
}

const lookup = async (client: HttpSession, id: number) => (await client.get('/api/streams/stream-lookup', { id })).body.stream as Stream;

describe('live over RTMP', () => {
  it('publishes, plays live through signed URLs only, and ends as a replay', { timeout: 90_000 }, async () => {
    const user = await t.given.user();
    const owner = await t.given.signedIn(user);
    const own = (await owner.post('/api/streams/get-live-stream', {})).body.stream as Stream;
    expect(own.rtmp_url).toMatch(/^rtmp:\/\/.+\/live$/);
    await owner.post('/api/streams/update-stream-info', { id: own.stream_id, data: { title: 'Pattern test', audience: 'PUBLIC', rating: 'G' } });
    await owner.post('/api/streams/go-live', { id: own.stream_id });

    const publisher = publishTestPattern({ url: `${rtmp}/${own.broadcast_key}`, width: 640, height: 360 });
    const viewer = t.client();
    try {
      await expect.poll(async () => (await lookup(viewer, own.stream_id)).live, { timeout: 20_000, interval: 250 }).toBe('Y');

      const join = await viewer.post('/api/streams/stream-join', { stream_id: own.stream_id, isHls: true });
      expect(join.status).toBe(200);
      const hls = (join.body.url as { hls: string; width: number; height: number });
      expect(hls).toMatchObject({ width: 640, height: 360 });

      const playlist = await viewer.request('GET', hls.hls);
      expect(playlist.status).toBe(200);
      expect(String(playlist.headers['content-type'])).toContain('mpegurl');
      const text = String(playlist.body);
      const segment = segmentPath(hls.hls, text);
      expect(segment).toMatch(new RegExp(`^/media/hls/${own.stream_id}/[^/]+/seg_\\d+\\.[\\w-]+\\.ts$`));
      const media = await viewer.request('GET', segment!);
      expect(media.status).toBe(200);
      expect(media.headers['content-type']).toBe('video/mp2t');

      const unsigned = await viewer.request('GET', `/media/hls/${own.stream_id}/-/index.m3u8`);
      expect(unsigned.status).toBe(403);
      expect((await viewer.request('GET', segment!.replace(/\/[^/]+\/(seg_[^/]+)$/, '/-/$1'))).status).toBe(403);
      const otherStream = await viewer.request('GET', hls.hls.replace(`/hls/${own.stream_id}/`, `/hls/${own.stream_id + 1}/`));
      expect(otherStream.status).toBe(403);

      await expect.poll(async () => (await lookup(viewer, own.stream_id)).thumbnail_url, { timeout: 20_000, interval: 500 }).toBeTruthy();
    } finally {
      await publisher.stop();
    }

    await expect.poll(async () => (await lookup(viewer, own.stream_id)).ended, { timeout: 30_000, interval: 250 }).toBe(true);
    const replay = await lookup(viewer, own.stream_id);
    expect(replay).toMatchObject({ live: 'N', playable: true });
    expect(replay.stream_length).toBeGreaterThan(0);
    const rejoin = await viewer.post('/api/streams/stream-join', { stream_id: own.stream_id });
    const closed = await viewer.request('GET', (rejoin.body.url as { hls: string }).hls);
    expect(String(closed.body)).toContain('#EXT-X-ENDLIST');
  });

  it('puts an 18+ stream set up in AfterDark on air, after the main skin\'s dashboard was opened first', { timeout: 90_000 }, async () => {
    const { streamId, key } = await adultStreamSetUpInAfterDark();
    const publisher = publishTestPattern({ url: `${rtmp}/${key}`, width: 320, height: 180 });
    try {
      await expect.poll(() => isLive(streamId), { timeout: 20_000, interval: 250 }).toBe(true);
    } finally {
      await publisher.stop();
    }
  });

  it('tells the owner at once why the ingest refused their encoder (the rating may not be broadcast where the stream belongs)', { timeout: 90_000 }, async () => {
    const { owner, streamId, key, userId } = await adultStreamSetUpInAfterDark();
    // As a stream saved before the skin followed its setup: 18+ stored, but it belongs to the main skin.
    await t.resources.database.db.update(streams).set({ skin: 'limelight' }).where(eq(streams.id, streamId));
    const socket = await WsClient.connect(baseUrl, owner.cookie('ll_session'));
    sockets.push(socket);
    const channel = `user:${userId}`;
    await socket.request({ op: 'subscribe', channel });

    const publisher = publishTestPattern({ url: `${rtmp}/${key}`, seconds: 5, width: 320, height: 180 });
    try {
      expect(await socket.message('STREAM-STOPPED', 20_000)).toEqual({
        op: 'message', channel, message: { type: 'STREAM-STOPPED', data: { stream_id: streamId, reason: 'rating-not-allowed' } },
      });
      expect(await publisher.exited).not.toBe(0);
      expect(await isLive(streamId)).toBe(false);
    } finally {
      await publisher.stop();
    }
  });

  it('refuses an unknown key: nothing goes live', async () => {
    const publisher = publishTestPattern({ url: `${rtmp}/live_not-a-real-key`, seconds: 3, width: 320, height: 180 });
    const code = await publisher.exited;
    expect(code).not.toBe(0);
  });
});

const isLive = async (streamId: number) =>
  (await t.resources.database.db.select({ live: streams.live }).from(streams).where(eq(streams.id, streamId)))[0]?.live === true;

/** A broadcaster allowed 18+ opens the main skin's dashboard, then AfterDark's, and sets up an 18+ stream there. */
async function adultStreamSetUpInAfterDark() {
  const user = await t.given.user({ perms: ['ALLOW CUSTOM_STREAM_CLIENT', 'CREATE STREAM_LIVE_G', 'CREATE STREAM_LIVE_PLUS18'] });
  const owner = await t.given.signedIn(user);
  const inAfterDark = (path: string, body: unknown) => owner.request('POST', path, { body, headers: { 'x-service': 'afterdark' } });
  const main = (await owner.post('/api/streams/get-live-stream', {})).body.stream as Stream;
  const own = (await inAfterDark('/api/streams/get-live-stream', {})).body.stream as Stream;
  expect(own.stream_id).toBe(main.stream_id);
  const saved = await inAfterDark('/api/streams/update-stream-info', { id: own.stream_id, data: { title: 'After dark', audience: 'PUBLIC', rating: 'PLUS_18' } });
  expect(saved.status).toBe(200);
  expect((await inAfterDark('/api/streams/go-live', { id: own.stream_id })).status).toBe(200);
  return { owner, streamId: own.stream_id, key: own.broadcast_key, userId: user.id };
}
