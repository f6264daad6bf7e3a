/** A broadcaster's emotes (decision 0084): listed for anyone, added (an image upload) and removed by their owner. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Emote } from '../../../common/api/chat';
import { chat as chatCalls } from '../../../common/api/calls';
import { call, upload, type ApiError } from '../../api/client';

const emotesKey = (userId: number) => ['emotes', userId] as const;

export const useEmotes = (userId: number) => useQuery({ queryKey: emotesKey(userId), queryFn: async () => (await call(chatCalls.emotes, { user_id: userId })).emotes });

export function useChangeEmotes(userId: number) {
  const queryClient = useQueryClient();
  return useMutation<Emote[], ApiError, { add: { code: string; minPlanLevel: number; file: File } } | { remove: string }>({
    mutationFn: async (change) => {
      if ('remove' in change) return (await call(chatCalls.deleteEmote, { code: change.remove })).emotes;
      const form = new FormData();
      form.append('file', change.add.file);
      return (await upload(chatCalls.uploadEmote, form, { code: change.add.code, min_plan_level: change.add.minPlanLevel })).emotes;
    },
    onSuccess: (emotes) => queryClient.setQueryData(emotesKey(userId), emotes),
  });
}
