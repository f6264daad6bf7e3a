/**
 * The broadcaster's live view, for real: ffmpeg publishes a test pattern over RTMP, the owner reads
 * the ingest's health (what the ingest measured of the feed) and ends the broadcast.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { publishTestPattern, TEST_PATTERN_AUDIO_KBPS, type RunningPublisher } from '../../testing/rtmp-publisher';

let t: TestApp;
let rtmp: string;
const publishers: RunningPublisher[] = [];
beforeAll(async () => {
  t = await startTestApp({ RTMP_GRACE_MS: '1500' });
  await t.app.services.media.start();
  rtmp = `rtmp://127.0.0.1:${t.app.services.media.ingest.port}/live`;
});
afterAll(async () => {
  await Promise.all(publishers.map((p) => p.stop()));
  await t.close();
});

interface Health {
  state: string;
  bitrate_kbps: number | null;
  frame_rate: number | null;
  width: number | null;
  height: number | null;
  keyframe_interval: number | null;
  measured_seconds: number;
  video_codec: string | null;
  audio_codec: string | null;
  warnings: string[];
}

/** A broadcaster set up, shown, and publishing the test pattern with this keyframe interval (in frames at 30 fps). */
async function publishing(gop: number, videoKbps?: number) {
  const { user, client, stream } = await (async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const own = await client.post('/api/streams/get-live-stream', {});
    return { user, client, stream: own.body.stream as { stream_id: number; broadcast_key: string } };
  })();
  await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Health check', audience: 'PUBLIC', rating: 'G' } });
  await client.post('/api/streams/go-live', { id: stream.stream_id });
  const publisher = publishTestPattern({ url: `${rtmp}/${stream.broadcast_key}`, width: 640, height: 360, fps: 30, gop, videoKbps });
  publishers.push(publisher);
  return { user, client, id: stream.stream_id, publisher };
}

const health = async (client: HttpSession, id: number) => {
  const res = await client.get('/api/streams/ingest-health', { id });
  expect(res.status).toBe(200);
  return res.body.ingest as Health | null;
};

/** Polls until two keyframes were measured. */
const measured = (client: HttpSession, id: number) =>
  expect.poll(async () => (await health(client, id))?.keyframe_interval ?? null, { timeout: 40_000, interval: 500 }).not.toBeNull();

describe('ingest health, read from the RTMP session', () => {
  it('measures a 4 s keyframe interval (-g 120 at 30 fps) and warns; only the owner reads it', { timeout: 90_000 }, async () => {
    const idle = await t.given.signedInUser();
    const idleStream = (await idle.client.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number };
    expect(await health(idle.client, idleStream.stream_id)).toBeNull(); // no encoder publishes

    const { client, id } = await publishing(120);
    await measured(client, id);
    const ingest = (await health(client, id))!;
    expect(ingest).toMatchObject({ state: 'live', width: 640, height: 360, keyframe_interval: 4, video_codec: 'H.264', audio_codec: 'AAC' });
    expect(ingest.frame_rate).toBeGreaterThanOrEqual(29);
    expect(ingest.frame_rate).toBeLessThanOrEqual(31);
    expect(ingest.bitrate_kbps).toBeGreaterThan(96); // the 96 kb/s audio alone, plus the video
    expect(ingest.warnings).toEqual([MSG.keyframeIntervalTooLong.replace('{seconds}', '4').replace('{max}', '2')]);

    expect((await t.client().get('/api/streams/ingest-health', { id })).status).toBe(401);
    const other = await t.given.signedInUser();
    expect((await other.client.get('/api/streams/ingest-health', { id })).status).toBe(404);
    const admin = await t.given.signedInUser({ role: 'admin' });
    expect((await admin.client.get('/api/streams/ingest-health', { id })).status).toBe(404);
    expect((await client.get('/api/streams/ingest-health', { id: 'x' })).status).toBe(400);
  });

  it('measures a 1 s keyframe interval without a warning, and the bitrate pushed within 15 %', { timeout: 90_000 }, async () => {
    const videoKbps = 1200;
    const { client, id } = await publishing(30, videoKbps);
    await measured(client, id);
    const ingest = (await health(client, id))!;
    expect(ingest).toMatchObject({ keyframe_interval: 1, width: 640, height: 360, warnings: [] });
    // A constant 1,200 kb/s of video and 96 kb/s of audio: what arrived each second, over the last few.
    const pushed = videoKbps + TEST_PATTERN_AUDIO_KBPS;
    // Once a full window of arrivals was measured, several readings in a row.
    await expect.poll(async () => (await health(client, id))?.measured_seconds ?? 0, { timeout: 30_000, interval: 500 }).toBeGreaterThanOrEqual(5);
    for (let i = 0; i < 3; i++) {
      const { bitrate_kbps: kbps } = (await health(client, id))!;
      expect(kbps).toBeGreaterThanOrEqual(pushed * 0.85);
      expect(kbps).toBeLessThanOrEqual(pushed * 1.15);
    }
  });
});

describe('end stream', () => {
  it('the owner ends the broadcast: the encoder is disconnected and the stream ends as a replay', { timeout: 90_000 }, async () => {
    const { client, id, publisher } = await publishing(30);
    await expect.poll(async () => (await client.get('/api/streams/stream-lookup', { id })).body.stream, { timeout: 30_000, interval: 250 })
      .toMatchObject({ live: 'Y' });

    expect((await t.client().post('/api/streams/end-stream', { id })).status).toBe(401);
    const other = await t.given.signedInUser();
    expect((await other.client.post('/api/streams/end-stream', { id })).status).toBe(404);
    const admin = await t.given.signedInUser({ role: 'admin' });
    expect((await admin.client.post('/api/streams/end-stream', { id })).status).toBe(404);
    expect((await client.post('/api/streams/end-stream', {})).status).toBe(400);
    expect((await client.get('/api/streams/stream-lookup', { id })).body.stream).toMatchObject({ live: 'Y' });

    const ended = await client.post('/api/streams/end-stream', { id });
    expect(ended.status).toBe(200);
    expect(ended.body.stream).toMatchObject({ stream_id: id, live: 'N', ended: true });
    // The encoder's connection was closed: ffmpeg stops on its own.
    expect(await publisher.exited).not.toBe(0);
    expect(await health(client, id)).toBeNull();
    const again = await client.post('/api/streams/end-stream', { id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MSG.streamNotLive);
    // The next get-live-stream is a new, hidden stream.
    const next = (await client.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number; hidden: boolean };
    expect(next.stream_id).not.toBe(id);
    expect(next.hidden).toBe(true);
    await expect.poll(async () => (await client.get('/api/streams/stream-lookup', { id })).body.stream, { timeout: 20_000, interval: 250 })
      .toMatchObject({ playable: true, ended: true });
  });
});
