/**
 * The broadcaster's live view scaled out: an API-only instance reads the ingest health from, and
 * ends the broadcast on, the media instance that holds the encoder's connection (over Redis).
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { suiteNeeding } from '../../testing/suite-needing';
import { startSharedTestApps, type TestApp } from '../../testing/harness';
import { publishTestPattern, type RunningPublisher } from '../../testing/rtmp-publisher';

const redisUrl = process.env.TEST_REDIS_URL;

suiteNeeding('postgres', 'redis')('live view scaled out over Redis', () => {
  let media: TestApp;
  let api: TestApp;
  let publisher: RunningPublisher | undefined;

  beforeAll(async () => {
    [media, api] = (await startSharedTestApps(2, (i) => ({ REDIS_URL: redisUrl!, ROLE: i === 0 ? 'media' : 'api' }))) as [TestApp, TestApp];
    await media.app.services.media.start();
  });
  afterAll(async () => {
    await publisher?.stop();
    await api?.close();
    await media?.close();
  });

  it('answers the ingest health and ends the stream from an API-only instance', { timeout: 90_000 }, async () => {
    const user = await api.given.user();
    const owner = await api.given.signedIn(user);
    const stream = (await owner.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number; broadcast_key: string };
    const id = stream.stream_id;
    await owner.post('/api/streams/update-stream-info', { id, data: { title: 'Scaled out', audience: 'PUBLIC', rating: 'G' } });
    await owner.post('/api/streams/go-live', { id });
    publisher = publishTestPattern({ url: `rtmp://127.0.0.1:${media.app.services.media.ingest.port}/live/${stream.broadcast_key}`, width: 320, height: 180, fps: 25, gop: 75 });

    // The API instance holds no ingest: every figure comes from the media instance over the bus.
    expect(api.app.services.media.ingestHealth(id)).toBeNull();
    await expect.poll(async () => (await owner.get('/api/streams/ingest-health', { id })).body.ingest, { timeout: 40_000, interval: 500 })
      .toMatchObject({ state: 'live', width: 320, height: 180, keyframe_interval: 3 });

    const ended = await owner.post('/api/streams/end-stream', { id });
    expect(ended.status).toBe(200);
    expect(ended.body.stream).toMatchObject({ live: 'N', ended: true });
    expect(await publisher.exited).not.toBe(0);
  });
});
