/** A broadcaster's chat rules: read (the words only for themself) and saved. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatRules } from '../../../common/api/chat';
import type { CallInput } from '../../../common/api/define';
import { chat as chatCalls } from '../../../common/api/calls';
import { call, type ApiError } from '../../api/client';

const chatRulesKey = (userId: number) => ['chat-rules', userId] as const;

export function useChatRules(userId: number) {
  return useQuery({ queryKey: chatRulesKey(userId), queryFn: async () => (await call(chatCalls.getChatRules, { user_id: userId })).rules });
}

export function useSaveChatRules(userId: number) {
  const queryClient = useQueryClient();
  return useMutation<ChatRules, ApiError, CallInput<typeof chatCalls.saveChatRules>>({
    mutationFn: async (rules) => (await call(chatCalls.saveChatRules, rules)).rules,
    onSuccess: (rules) => queryClient.setQueryData(chatRulesKey(userId), rules),
  });
}
