/**
 * Playback scaled out: a ban made on one instance stops the segments another instance serves at its
 * next fetch (the revocation crosses over Redis). Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { suiteNeeding } from '../../testing/suite-needing';
import { SESSION_COOKIE } from '../../platform/http/sessions';
import { CSRF_COOKIE } from '../../platform/http/csrf';
import { startSharedTestApps, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { REVOKED_CHANNEL } from './playback-gate';
import { segmentPath } from '../../testing/hls';

const redisUrl = process.env.TEST_REDIS_URL;

suiteNeeding('postgres', 'redis')('playback revoked on every instance', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    [first, second] = (await startSharedTestApps(2, { REDIS_URL: redisUrl! })) as [TestApp, TestApp];
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** The same browser (its cookies) speaking to the second instance. */
  function onSecond(client: HttpSession): HttpSession {
    const there = second.client();
    for (const name of [SESSION_COOKIE, CSRF_COOKIE]) {
      const value = client.cookie(name);
      if (value) there.setCookie(name, value);
    }
    return there;
  }

  it('refuses the next segment on the other instance right after a ban', async () => {
    const live = await first.given.liveStream();
    for (const app of [first, second]) {
      await app.resources.files.put(`media/${live.streamId}/b1/index.m3u8`, '#EXTM3U\n#EXTINF:1.0,\nseg_00000.ts\n');
      await app.resources.files.put(`media/${live.streamId}/b1/seg_00000.ts`, Buffer.alloc(188, 0x47));
    }
    const viewer = await first.given.signedInUser();
    const join = await viewer.client.post('/api/streams/stream-join', { stream_id: live.streamId });
    expect(join.status).toBe(200);
    const elsewhere = onSecond(viewer.client);
    const playlist = await elsewhere.request('GET', (join.body.url as { hls: string }).hls);
    expect(playlist.status).toBe(200);
    const segment = segmentPath((join.body.url as { hls: string }).hls, playlist.body, 'seg_00000.')!;
    expect((await elsewhere.request('GET', segment)).status).toBe(200);

    // Redis delivers the revocation a moment after the ban answered: the second instance's gate hears it
    // before this later listener does. Its kept decision (a few seconds) would still let the segment through.
    const heard = new Promise<unknown>((resolve) => void second.resources.bus.subscribe(REVOKED_CHANNEL, resolve));
    expect((await live.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: viewer.user.id })).status).toBe(200);
    expect(await heard).toEqual({ streamId: live.streamId, userId: viewer.user.id });
    expect((await elsewhere.request('GET', segment)).status).toBe(403);
    expect((await elsewhere.request('GET', (join.body.url as { hls: string }).hls)).status).toBe(403);
  });
});
