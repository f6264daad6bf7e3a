import { describe, expect, it } from 'vitest';
import type { StreamGoal } from '../../../common/api/streams';
import { activeGoalOf, listWithFrame, withFrame, withLookup } from './goal-state';
import type { GoalFrame } from './goal-state';

const goal = (goal_id: number, over: Partial<StreamGoal> = {}): StreamGoal => ({
  goal_id,
  position: goal_id,
  amount: 30,
  raised: 0,
  description: `Goal ${goal_id}`,
  state: 'queued',
  reached_time: null,
  ...over,
});
const reached = (id: number) => goal(id, { state: 'reached', raised: 30, reached_time: '2026-11-30T10:00:00.000Z' });
const active = (id: number, raised = 0) => goal(id, { state: 'active', raised });
const frame = (now: StreamGoal | null, done: StreamGoal[] = []): GoalFrame => ({ stream_id: 42, goal: now, reached: done });

describe('the active goal', () => {
  it('starts from the stream info and follows each frame', () => {
    let state = activeGoalOf(active(1, 10));
    state = withFrame(state, frame(active(1, 20)));
    expect(state.goal).toEqual(active(1, 20));
    state = withFrame(state, frame(active(2, 5), [reached(1)]));
    expect(state.goal).toEqual(active(2, 5));
    state = withFrame(state, frame(null, [reached(2)]));
    expect(state.goal).toBeNull();
  });

  it('takes a newer lookup', () => {
    const state = withFrame(activeGoalOf(active(1, 10)), frame(active(1, 20)));
    expect(withLookup(state, active(1, 25)).goal).toEqual(active(1, 25));
    expect(withLookup(state, active(2, 0)).goal).toEqual(active(2, 0));
    expect(withLookup(state, null).goal).toBeNull();
  });

  it('keeps what frames said over a lookup asked before them', () => {
    const filled = withFrame(activeGoalOf(active(1, 10)), frame(active(1, 20)));
    expect(withLookup(filled, active(1, 10)).goal).toEqual(active(1, 20));
    const moved = withFrame(filled, frame(active(2, 3), [reached(1)]));
    expect(withLookup(moved, active(1, 20)).goal).toEqual(active(2, 3));
  });
});

describe("the broadcaster's list after a frame", () => {
  const list = [reached(1), active(2, 10), goal(3)];

  it('moves the active goal and marks the reached ones', () => {
    expect(listWithFrame(list, frame(active(2, 25)))).toEqual([reached(1), active(2, 25), goal(3)]);
    const done = goal(2, { state: 'reached', raised: 30, reached_time: '2026-11-30T10:05:00.000Z' });
    expect(listWithFrame(list, frame(active(3, 8), [done]))).toEqual([reached(1), done, active(3, 8)]);
  });

  it('asks for the list again when a frame speaks of a goal it does not have', () => {
    expect(listWithFrame(list, frame(active(9, 0)))).toBeNull();
  });

  it('asks again when the frame does not fit what the list has (a frame missed, goals removed elsewhere)', () => {
    expect(listWithFrame(list, frame(active(3, 0)))).toBeNull();
    expect(listWithFrame(list, frame(null))).toBeNull();
    expect(listWithFrame([reached(1), active(2, 10)], frame(null, [reached(2)]))).toEqual([reached(1), reached(2)]);
  });
});
