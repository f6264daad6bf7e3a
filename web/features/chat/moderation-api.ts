/**
 * A stream chat's moderation (decision 0083): whether the reader moderates it, and the lines held for its
 * moderators, kept live from HELD and HELD-RESOLVED on their own channel.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { HeldLine } from '../../../common/api/chat';
import { chat as chatCalls } from '../../../common/api/calls';
import type { CallOutput } from '../../../common/api/define';
import { userChannelOf } from '../../../common/realtime-channels';
import type { RealtimeMessage } from '../../../common/realtime';
import { call } from '../../api/client';
import { realtimeClient } from '../../api/realtime';

const keys = {
  moderation: (streamId: number) => ['chat-moderation', streamId] as const,
};

type Moderation = CallOutput<typeof chatCalls.chatModeration>;

/** Held lines oldest first, each once. */
function withHeld(state: Moderation, held: HeldLine): Moderation {
  if (state.held.some((h) => h.line.timetoken === held.line.timetoken)) return state;
  return { ...state, held: [...state.held, held] };
}

/**
 * Whether the signed-in person moderates the stream's chat, and its held lines, kept live. `onOwnHeld`: a
 * line of theirs was held (they are told it waits).
 */
export function useChatModeration(streamId: number, myUserId: number | null, onOwnHeld: () => void) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: keys.moderation(streamId),
    queryFn: async () => call(chatCalls.chatModeration, { stream_id: streamId }),
    enabled: myUserId !== null,
  });
  useEffect(() => {
    if (myUserId === null) return;
    return realtimeClient().subscribe(userChannelOf(myUserId), (message: RealtimeMessage) => {
      if ((message.type !== 'HELD' && message.type !== 'HELD-RESOLVED') || message.data.stream_id !== streamId) return;
      const update = (change: (state: Moderation) => Moderation) =>
        queryClient.setQueryData<Moderation>(keys.moderation(streamId), (state) => (state?.moderator ? change(state) : state));
      if (message.type === 'HELD-RESOLVED') {
        const { timetoken } = message.data;
        update((state) => ({ ...state, held: state.held.filter((h) => h.line.timetoken !== timetoken) }));
        return;
      }
      const { line, priority } = message.data;
      if (line.sender.user_id === myUserId) onOwnHeld();
      update((state) => withHeld(state, { line, priority }));
    });
  }, [streamId, myUserId, queryClient, onOwnHeld]);
  return query;
}
