/** The operator's words refused in every chat (decision 0083). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { chat as chatCalls } from '../../../common/api/calls';
import { call, type ApiError } from '../../api/client';

const platformWordsKey = ['platform-chat-filter'] as const;

export const usePlatformChatWords = () => useQuery({ queryKey: platformWordsKey, queryFn: async () => (await call(chatCalls.platformChatFilter, {})).words });

export function useSavePlatformChatWords() {
  const queryClient = useQueryClient();
  return useMutation<string[], ApiError, string[]>({
    mutationFn: async (words) => (await call(chatCalls.setPlatformChatFilter, { words })).words,
    onSuccess: (words) => queryClient.setQueryData(platformWordsKey, words),
  });
}
