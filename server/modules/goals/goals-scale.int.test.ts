/**
 * Tip goals on two instances sharing PostgreSQL and Redis: tips on one, viewers on the other, both
 * delivering the event outbox. Every tip counts once and each goal is reached once, whichever instance
 * recounts. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { saveGoals, streamGoals, type StreamGoal } from '../../../common/api/goals';
import { sendTip } from '../../../common/api/tips';
import { streamChannelOf } from '../../../common/realtime';
import { eventually } from '../../testing/eventually';
import { startSharedTestApps, type TestApp } from '../../testing/harness';
import { suiteNeeding } from '../../testing/suite-needing';
import { WsClient, type Frame } from '../../testing/ws-client';

const redisUrl = process.env.TEST_REDIS_URL;

suiteNeeding('postgres', 'redis')('tip goals scaled out', () => {
  let tipping: TestApp;
  let watching: TestApp;
  let socket: WsClient | undefined;

  beforeAll(async () => {
    [tipping, watching] = (await startSharedTestApps(2, () => ({ REDIS_URL: redisUrl! }))) as [TestApp, TestApp];
  });
  afterAll(async () => {
    socket?.close();
    await watching?.close();
    await tipping?.close();
  });

  it('counts tips made on one instance for viewers on another, each goal reached once', { timeout: 60_000 }, async () => {
    const live = await tipping.given.liveStream();
    await live.client.call(saveGoals, { stream_id: live.streamId, goals: [{ amount: 40, description: 'Dance' }, { amount: 40, description: 'Song' }, { amount: 500, description: 'Encore' }] });

    socket = await WsClient.connect(await watching.app.listen({ port: 0, host: '127.0.0.1' }));
    expect(await socket.request({ op: 'subscribe', channel: streamChannelOf(live.streamId) })).toMatchObject({ op: 'subscribed' });
    const frames: Frame[] = [];
    void (async () => {
      for (;;) frames.push(await socket!.next(() => true, 60_000).catch(() => ({ op: 'closed' })));
    })();

    const fans = await Promise.all(Array.from({ length: 10 }, async () => {
      const fan = await tipping.given.signedInUser();
      await tipping.given.coins(fan.user, 30);
      return fan;
    }));
    let key = 0;
    await Promise.all(fans.map(async (fan) => {
      for (let i = 0; i < 5; i += 1) await fan.client.call(sendTip, { stream_id: live.streamId, amount: 2 }, { idempotencyKey: `scale-goal-${(key += 1)}` });
    }));
    // Both instances recount; the other's view of the goals is the same.
    await Promise.all([tipping.app.services.goals.tipped(live.streamId), watching.app.services.goals.tipped(live.streamId)]);

    const goals = await eventually(
      async () => (await watching.client().call(streamGoals, { id: live.streamId })).goals,
      (list) => list.reduce((sum, g) => sum + g.raised, 0) >= 100,
    );
    expect(goals.map(({ description, raised, state }) => ({ description, raised, state }))).toEqual([
      { description: 'Dance', raised: 40, state: 'reached' },
      { description: 'Song', raised: 40, state: 'reached' },
      { description: 'Encore', raised: 20, state: 'active' },
    ]);
    const reachedOf = () => frames
      .flatMap((f) => (f.op === 'message' ? [f.message] : f.op === 'messages' ? (f.messages as unknown[]) : []))
      .flatMap((m) => ((m as { type?: string }).type === 'GOAL' ? (m as { data: { reached: StreamGoal[] } }).data.reached : []));
    const announced = await eventually(async () => reachedOf(), (r) => r.length >= 2);
    expect(announced.map((g) => g.description)).toEqual(['Dance', 'Song']);
  });
});
