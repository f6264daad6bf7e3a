/**
 * A broadcast's goals as GOAL frames change them: the stream page's active goal, read from the stream's
 * lookups and moved by frames, and the broadcaster's list of goals, moved by the same frames.
 */
import type { StreamGoal } from '../../../common/api/streams';
import type { RealtimeMessageOf } from '../../../common/realtime';

export type GoalFrame = RealtimeMessageOf<'GOAL'>['data'];

export interface ActiveGoal {
  goal: StreamGoal | null;
  /** The goals frames said were reached. */
  reachedIds: readonly number[];
}

export const activeGoalOf = (goal: StreamGoal | null): ActiveGoal => ({ goal, reachedIds: [] });

/** A frame is the latest word: its goal is the active one now. */
export function withFrame(state: ActiveGoal, frame: GoalFrame): ActiveGoal {
  return { goal: frame.goal, reachedIds: [...state.reachedIds, ...frame.reached.map((goal) => goal.goal_id)] };
}

/**
 * A lookup asked before a frame may answer after it: one that shows a goal a frame reached, or the
 * same goal with fewer coins, is older than what the page has and is not taken.
 */
export function withLookup(state: ActiveGoal, goal: StreamGoal | null): ActiveGoal {
  if (goal && state.reachedIds.includes(goal.goal_id)) return state;
  if (goal && state.goal?.goal_id === goal.goal_id && goal.raised < state.goal.raised) return state;
  return { ...state, goal };
}

/**
 * The broadcast's goals after a frame, or null when the frame speaks of goals the list does not have
 * (saved in another tab): the list is then read again.
 */
export function listWithFrame(goals: readonly StreamGoal[], frame: GoalFrame): StreamGoal[] | null {
  const changed = new Map([...frame.reached, ...(frame.goal ? [frame.goal] : [])].map((goal) => [goal.goal_id, goal]));
  const known = new Set(goals.map((goal) => goal.goal_id));
  if ([...changed.keys()].some((id) => !known.has(id))) return null;
  const next = goals.map((goal) => changed.get(goal.goal_id) ?? goal);
  const open = next.filter((goal) => goal.state !== 'reached');
  // Whatever is not reached waits behind the frame's active goal; without one, nothing may wait.
  const consistent = frame.goal ? open[0]?.goal_id === frame.goal.goal_id && open[0].state === 'active' : open.length === 0;
  return consistent ? next : null;
}
