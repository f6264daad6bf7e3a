import { describe, expect, it } from 'vitest';
import { userAnalytics } from '../../../common/api/analytics';
import { saveGoals, streamGoals, type GoalInput, type StreamGoal } from '../../../common/api/goals';
import { streamLookup } from '../../../common/api/streams';
import { sendTip } from '../../../common/api/tips';
import { fill, MSG } from '../../../common/messages';
import { streamChannelOf } from '../../../common/realtime';
import { eventually } from '../../testing/eventually';
import type { HttpSession } from '../../testing/http-session';
import { useListeningTestApp } from '../../testing/listening-app';
import type { Frame } from '../../testing/ws-client';

const served = useListeningTestApp();
const { socketOf } = served;

let keys = 0;
const tip = (client: HttpSession, streamId: number, amount: number) =>
  client.call(sendTip, { stream_id: streamId, amount }, { idempotencyKey: `goal-tip-${process.pid}-${(keys += 1)}` });

async function fan(coins: number) {
  const signedIn = await served.t.given.signedInUser();
  if (coins > 0) await served.t.given.coins(signedIn.user, coins);
  return signedIn;
}

const goalsOf = async (streamId: number) => (await served.t.client().call(streamGoals, { id: streamId })).goals;
/** The goals once the tips' recount (the event outbox's, moments after each tip) has counted `raised` coins in all. */
const goalsWhenRaised = (streamId: number, total: number) =>
  eventually(() => goalsOf(streamId), (goals) => goals.reduce((sum, g) => sum + g.raised, 0) >= total);

const brief = (goals: StreamGoal[]) => goals.map(({ description, amount, raised, state }) => ({ description, amount, raised, state }));

/** GOAL messages on the stream's channel, whether sent alone or coalesced with others. */
function goalMessagesOf(frames: Frame[]) {
  return frames.flatMap((f) => (f.op === 'message' ? [f.message] : f.op === 'messages' ? (f.messages as unknown[]) : []))
    .filter((m): m is { type: 'GOAL'; data: { goal: StreamGoal | null; reached: StreamGoal[] } } => (m as { type?: string }).type === 'GOAL');
}

async function watch(streamId: number) {
  const socket = await socketOf();
  expect(await socket.request({ op: 'subscribe', channel: streamChannelOf(streamId) })).toMatchObject({ op: 'subscribed' });
  const frames: Frame[] = [];
  const collect = async () => {
    for (;;) frames.push(await socket.next(() => true, 60_000).catch(() => ({ op: 'closed' })));
  };
  void collect();
  return { goals: () => goalMessagesOf(frames) };
}

const two: GoalInput[] = [{ amount: 30, description: 'New song' }, { amount: 50, description: 'Q&A' }];

describe('tip goals', () => {
  it('fill from tips, announce the goal reached, and start the next with what went past', async () => {
    const live = await served.t.given.liveStream();
    const watcher = await watch(live.streamId);
    const saved = await live.client.call(saveGoals, { stream_id: live.streamId, goals: two });
    expect(brief(saved.goals)).toEqual([
      { description: 'New song', amount: 30, raised: 0, state: 'active' },
      { description: 'Q&A', amount: 50, raised: 0, state: 'queued' },
    ]);
    const viewer = await fan(100);
    expect((await viewer.client.call(streamLookup, { id: live.streamId })).stream.goal).toMatchObject({ description: 'New song', raised: 0 });

    await tip(viewer.client, live.streamId, 20);
    expect(brief(await goalsWhenRaised(live.streamId, 20))).toEqual([
      { description: 'New song', amount: 30, raised: 20, state: 'active' },
      { description: 'Q&A', amount: 50, raised: 0, state: 'queued' },
    ]);
    await tip(viewer.client, live.streamId, 15);
    const after = await goalsWhenRaised(live.streamId, 35);
    expect(brief(after)).toEqual([
      { description: 'New song', amount: 30, raised: 30, state: 'reached' },
      { description: 'Q&A', amount: 50, raised: 5, state: 'active' },
    ]);
    expect(after[0]!.reached_time).not.toBeNull();
    expect((await viewer.client.call(streamLookup, { id: live.streamId })).stream.goal).toMatchObject({ description: 'Q&A', raised: 5, amount: 50 });

    // Every viewer saw it live: the goal reached once, then the next one active.
    const seen = await eventually(async () => watcher.goals(), (goals) => goals.some((g) => g.data.reached.length > 0));
    const reached = seen.flatMap((g) => g.data.reached);
    expect(reached.map((g) => g.description)).toEqual(['New song']);
    expect(seen.at(-1)!.data.goal).toMatchObject({ description: 'Q&A', raised: 5 });
    expect(fill(MSG.goalReached, { description: reached[0]!.description })).toBe('Goal reached: New song');
  });

  it('counts a redelivered tip once: the recount reads the ledger, not the event', async () => {
    const live = await served.t.given.liveStream();
    await live.client.call(saveGoals, { stream_id: live.streamId, goals: two });
    const viewer = await fan(100);
    await tip(viewer.client, live.streamId, 40);
    const once = await goalsWhenRaised(live.streamId, 40);
    // The outbox delivers at least once: the same tip's recount, again and at once from several callers.
    await Promise.all([1, 2, 3].map(() => served.t.app.services.goals.tipped(live.streamId)));
    expect(await goalsOf(live.streamId)).toEqual(once);
    expect(brief(once)).toEqual([
      { description: 'New song', amount: 30, raised: 30, state: 'reached' },
      { description: 'Q&A', amount: 50, raised: 10, state: 'active' },
    ]);
  });

  it('counts tips from many viewers at once exactly, reaching each goal once', async () => {
    const live = await served.t.given.liveStream();
    const watcher = await watch(live.streamId);
    await live.client.call(saveGoals, { stream_id: live.streamId, goals: [{ amount: 25, description: 'Dance' }, { amount: 25, description: 'Song' }, { amount: 1000, description: 'Encore' }] });
    const viewers = await Promise.all(Array.from({ length: 8 }, () => fan(50)));
    await Promise.all(viewers.map(async (v) => {
      for (let i = 0; i < 3; i += 1) await tip(v.client, live.streamId, 3);
    }));
    const goals = await goalsWhenRaised(live.streamId, 72);
    expect(brief(goals)).toEqual([
      { description: 'Dance', amount: 25, raised: 25, state: 'reached' },
      { description: 'Song', amount: 25, raised: 25, state: 'reached' },
      { description: 'Encore', amount: 1000, raised: 22, state: 'active' },
    ]);
    const announced = await eventually(async () => watcher.goals().flatMap((g) => g.data.reached), (r) => r.length >= 2);
    expect(announced.map((g) => g.description)).toEqual(['Dance', 'Song']);
  });

  it('keeps what was raised when the owner changes the goals, and reaches a goal already covered', async () => {
    const live = await served.t.given.liveStream();
    await live.client.call(saveGoals, { stream_id: live.streamId, goals: two });
    const viewer = await fan(100);
    await tip(viewer.client, live.streamId, 12);
    await goalsWhenRaised(live.streamId, 12);
    const changed = await live.client.call(saveGoals, { stream_id: live.streamId, goals: [{ amount: 40, description: 'Dance' }] });
    expect(brief(changed.goals)).toEqual([{ description: 'Dance', amount: 40, raised: 12, state: 'active' }]);
    const covered = await live.client.call(saveGoals, { stream_id: live.streamId, goals: [{ amount: 10, description: 'Wave' }, { amount: 20, description: 'Sing' }] });
    expect(brief(covered.goals)).toEqual([
      { description: 'Wave', amount: 10, raised: 10, state: 'reached' },
      { description: 'Sing', amount: 20, raised: 2, state: 'active' },
    ]);
    const cleared = await live.client.call(saveGoals, { stream_id: live.streamId, goals: [] });
    expect(brief(cleared.goals)).toEqual([{ description: 'Wave', amount: 10, raised: 10, state: 'reached' }]);
    expect((await live.client.call(streamLookup, { id: live.streamId })).stream.goal).toBeNull();
  });

  it('may be set before the show, and stay with the broadcast after it ends', async () => {
    const live = await served.t.given.liveStream();
    await live.client.call(saveGoals, { stream_id: live.streamId, goals: [{ amount: 5, description: 'Hello' }] });
    const viewer = await fan(20);
    await tip(viewer.client, live.streamId, 5);
    await goalsWhenRaised(live.streamId, 5);
    await served.t.app.services.broadcastCallbacks.onEnded({ streamId: live.streamId, broadcastId: 'b1', playlistKey: `media/${live.streamId}/b1/index.m3u8`, lengthSeconds: 5 });
    expect(brief(await goalsOf(live.streamId))).toEqual([{ description: 'Hello', amount: 5, raised: 5, state: 'reached' }]);
    // The creator's analytics list the broadcast with its goals.
    await served.t.app.services.analytics.fold.run(new Date(Date.now() + 60_000));
    const today = new Date().toISOString().slice(0, 10);
    const analytics = await live.client.call(userAnalytics, { event: ['TOP_STREAMS_BY_TIP'], from: today, to: today });
    expect(analytics.result.TOP_STREAMS_BY_TIP!.list).toEqual([expect.objectContaining({ stream_id: live.streamId, tip_coin: 5, goals_set: 1, goals_reached: 1 })]);
    const refused = await live.client.refusal(saveGoals, { stream_id: live.streamId, goals: two });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(MSG.goalsOfEndedStream);

    // A stream set up but not live yet takes goals.
    const owner = await served.t.given.signedInUser();
    const own = await owner.client.post('/api/streams/get-live-stream', {});
    const streamId = (own.body.stream as { stream_id: number }).stream_id;
    const early = await owner.client.call(saveGoals, { stream_id: streamId, goals: two });
    expect(early.goals.map((g) => g.state)).toEqual(['active', 'queued']);
  });

  it('refuses anyone but the owner, and input that breaks the rules', async () => {
    const live = await served.t.given.liveStream();
    const other = await fan(0);
    expect((await other.client.refusal(saveGoals, { stream_id: live.streamId, goals: two })).status).toBe(404);
    expect((await served.t.client().refusal(saveGoals, { stream_id: live.streamId, goals: two })).status).toBe(401);
    const cases: Array<[unknown, string]> = [
      [[{ amount: 0, description: 'x' }], MSG.coinsAtLeastOne],
      [[{ amount: 2.5, description: 'x' }], MSG.coinsWhole],
      [[{ amount: 10, description: '   ' }], MSG.goalDescriptionNeeded],
      [[{ amount: 10, description: 'x'.repeat(121) }], fill(MSG.atMostChars, { max: 120 })],
      [Array.from({ length: 6 }, () => ({ amount: 10, description: 'x' })), fill(MSG.goalsTooMany, { max: 5 })],
    ];
    for (const [goals, message] of cases) {
      const refused = await live.client.refusal(saveGoals, { stream_id: live.streamId, goals } as never);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(message);
    }
    expect(await goalsOf(live.streamId)).toEqual([]);
  });
});
