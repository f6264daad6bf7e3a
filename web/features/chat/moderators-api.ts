/** The moderators a broadcaster appoints for the chat of their streams (decision 0083). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatModerator } from '../../../common/api/chat';
import { chat as chatCalls } from '../../../common/api/calls';
import { call, type ApiError } from '../../api/client';

const moderatorsKey = ['chat-moderators'] as const;

export const useChatModerators = () => useQuery({ queryKey: moderatorsKey, queryFn: async () => (await call(chatCalls.chatModerators, {})).moderators });

/** Appointing (by name) or dismissing (by id): the answer is the new list. */
export function useChangeChatModerators() {
  const queryClient = useQueryClient();
  return useMutation<ChatModerator[], ApiError, { add: string } | { remove: number }>({
    mutationFn: async (change) =>
      ('add' in change ? await call(chatCalls.addChatModerator, { username: change.add }) : await call(chatCalls.removeChatModerator, { user_id: change.remove })).moderators,
    onSuccess: (moderators) => queryClient.setQueryData(moderatorsKey, moderators),
  });
}
