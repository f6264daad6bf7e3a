/** What a viewer does to a stream (rate, bookmark, report) and moderators' actions; each keeps the cached lookup in step. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { streamInteractions, streams } from '../../../common/api/calls';
import type { StreamInfo } from '../../../common/api/streams';
import { call } from '../../api/client';
import { streamKeys } from '../../api/content-keys';
import type { ComplaintType, ModerationEvent } from './stream-interactions';

export function useSendRating(streamId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, rating }: { userId: number; rating: number }) => call(streamInteractions.sendRating, { id: userId, stream_id: streamId, rating }),
    onSuccess: ({ rating }) =>
      queryClient.setQueryData<StreamInfo>(streamKeys.lookup(streamId), (old) => old && { ...old, has_rated: true, viewer_rating: rating }),
  });
}

/** Bookmark on / off, shown at once and put back when the server refuses (spec part 1 §4 Bookmark). */
export function useSaveStream(streamId: number) {
  const queryClient = useQueryClient();
  const key = streamKeys.lookup(streamId);
  const setSaved = (saved: boolean) => queryClient.setQueryData<StreamInfo>(key, (old) => old && { ...old, saved });
  return useMutation({
    mutationFn: ({ userId, save }: { userId: number; save: boolean }) => call(streamInteractions.saveStream, { user_id: userId, stream_id: streamId, save }),
    onMutate: async ({ save }) => {
      // A lookup arriving mid-flight would put the old flag back.
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<StreamInfo>(key)?.saved ?? !save;
      setSaved(save);
      return { before };
    },
    onError: (_error, _vars, context) => {
      if (context) setSaved(context.before);
    },
    onSuccess: ({ saved }) => setSaved(saved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: streamKeys.saved() }),
  });
}

export function useReportStream(streamId: number) {
  return useMutation({
    mutationFn: (input: { type: ComplaintType; user_comment?: string }) => call(streamInteractions.reportStream, { id: streamId, ...input }),
  });
}

/** report-stream-action on this one stream; the lookup is read again since most actions change it. */
export function useModerationAction(streamId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ event, comment }: { event: ModerationEvent; comment?: string }) =>
      call(streams.reportStreamAction, { stream_ids: [streamId], event, ...(comment ? { user_comment: comment } : {}) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: streamKeys.lookup(streamId) }),
  });
}
