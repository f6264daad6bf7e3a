import { useEffect, useRef } from 'react';
import { streamChannelOf } from '../../../common/realtime-channels';
import { realtimeClient } from '../../api/realtime';
import type { GoalFrame } from './goal-state';

/** Calls `onFrame` with each GOAL frame of the stream's channel while `enabled`. */
export function useGoalFrames(streamId: number, enabled: boolean, onFrame: (frame: GoalFrame) => void) {
  const latest = useRef(onFrame);
  useEffect(() => {
    latest.current = onFrame;
  });
  useEffect(() => {
    if (!enabled) return;
    return realtimeClient().subscribe(streamChannelOf(streamId), (message) => {
      if (message.type === 'GOAL' && message.data.stream_id === streamId) latest.current(message.data);
    });
  }, [streamId, enabled]);
}
