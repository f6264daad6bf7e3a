/** Two instances on one PostgreSQL database and one Redis: runs when TEST_DATABASE_URL and TEST_REDIS_URL are set. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { suiteNeeding } from '../../testing/suite-needing';
import { startSharedTestApps, type TestApp } from '../../testing/harness';
import { eventually } from '../../testing/eventually';
import { WsClient } from '../../testing/ws-client';

const redisUrl = process.env.TEST_REDIS_URL;

suiteNeeding('postgres', 'redis')('chat scaled out over Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  const sockets: WsClient[] = [];

  beforeAll(async () => {
    const apps = await startSharedTestApps(2, { REDIS_URL: redisUrl! });
    a = apps[0]!;
    b = apps[1]!;
    baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await a?.close();
    await b?.close();
  });

  it('carries a COMMENT sent on instance A to a socket on instance B', async () => {
    const live = await a.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const sender = await a.given.signedIn(await a.given.user());
    const onA = await WsClient.connect(baseA, sender.cookie('ll_session'));
    const onB = await WsClient.connect(baseB);
    sockets.push(onA, onB);

    expect(await onB.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    expect(await onA.request({ op: 'send', channel, type: 'COMMENT', text: 'hello from A', id: 'x1' })).toEqual({ op: 'ack', id: 'x1' });
    expect(await onB.message('COMMENT')).toMatchObject({ channel, message: { type: 'COMMENT', text: 'hello from A' } });
  });

  it('agrees on the viewer count whichever instance is asked', async () => {
    const live = await a.given.liveStream();
    const channel = `stream:${live.streamId}`;
    // Three signed-in viewers, one on A and two on B (guests from one browser would count once per instance).
    for (const base of [baseA, baseB, baseB]) {
      const user = await a.given.signedIn(await a.given.user());
      const viewer = await WsClient.connect(base, user.cookie('ll_session'));
      sockets.push(viewer);
      expect(await viewer.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    }
    const viewersOn = async (t: TestApp) => ((await t.client().get(`/api/streams/stream-lookup?id=${live.streamId}`)).body.stream as { viewers: number }).viewers;
    // Presence is written shortly after it changes.
    const counts = await eventually(async () => [await viewersOn(a), await viewersOn(b)], ([onA, onB]) => onA === 3 && onB === 3);
    expect(counts).toEqual([3, 3]);
  });
});
