import { useCallback, useState } from 'react';
import type { StreamGoal, StreamInfo } from '../../../common/api/streams';
import { useGoalFrames } from './goal-frames';
import { activeGoalOf, withFrame, withLookup } from './goal-state';
import type { ActiveGoal, GoalFrame } from './goal-state';

/**
 * The goal tips on the stream count towards now: the stream info's, moved by the GOAL frames of its
 * channel as tips raise it, reach it or the broadcaster saves new goals; a newer lookup is taken too.
 */
export function useActiveGoal(stream: Pick<StreamInfo, 'stream_id' | 'goal' | 'live'>): StreamGoal | null {
  const [state, setState] = useState<ActiveGoal & { base: StreamGoal | null }>(() => ({ base: stream.goal, ...activeGoalOf(stream.goal) }));
  if (state.base !== stream.goal) setState({ ...withLookup(state, stream.goal), base: stream.goal });
  const onFrame = useCallback((frame: GoalFrame) => setState((current) => ({ ...withFrame(current, frame), base: current.base })), []);
  useGoalFrames(stream.stream_id, stream.live === 'Y', onFrame);
  return state.goal;
}
