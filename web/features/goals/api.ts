/** Tip goals server state: a broadcast's goals and saving them. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { goals as goalCalls } from '../../../common/api/calls';
import type { GoalInput, StreamGoal } from '../../../common/api/goals';
import type { StreamInfo } from '../../../common/api/streams';
import { call, isApiError } from '../../api/client';
import type { ApiError } from '../../api/client';
import { streamKeys } from '../../api/content-keys';
import { listWithFrame } from './goal-state';
import { useGoalFrames } from './goal-frames';

export const goalKeys = {
  all: ['goals'] as const,
  list: (streamId: number) => [...goalKeys.all, 'list', streamId] as const,
};

/**
 * The broadcast's goals in order: reached, active, queued; while it is `live`, moved by its GOAL
 * frames (read again when a frame names a goal the list does not have).
 */
export function useStreamGoals(streamId: number, live = false) {
  const queryClient = useQueryClient();
  const key = goalKeys.list(streamId);
  useGoalFrames(streamId, live, (frame) => {
    const known = queryClient.getQueryData<StreamGoal[]>(key);
    const next = known && listWithFrame(known, frame);
    if (next) queryClient.setQueryData(key, next);
    else void queryClient.invalidateQueries({ queryKey: key });
  });
  return useQuery({
    queryKey: key,
    queryFn: async () => (await call(goalCalls.streamGoals, { id: streamId })).goals,
    retry: (count, error) => !isApiError(error) && count < 2,
  });
}

const activeOf = (goals: readonly StreamGoal[]) => goals.find((goal) => goal.state === 'active') ?? null;

/** Replaces the goals not reached yet; the answer is the list, and the stream's active goal follows it. */
export function useSaveGoals(streamId: number) {
  const queryClient = useQueryClient();
  return useMutation<StreamGoal[], ApiError, GoalInput[]>({
    mutationFn: async (goals) => (await call(goalCalls.saveGoals, { stream_id: streamId, goals })).goals,
    onSuccess: (goals) => {
      queryClient.setQueryData(goalKeys.list(streamId), goals);
      queryClient.setQueryData<StreamInfo>(streamKeys.lookup(streamId), (old) => old && { ...old, goal: activeOf(goals) });
    },
  });
}
