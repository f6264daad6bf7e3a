/** Tip menus server state: a broadcaster's menu and saving it, a stream's queue of requests and ticking them off. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { tips } from '../../../common/api/calls';
import type { MenuItemInput, MenuRequest, TipMenuItem } from '../../../common/api/tips';
import type { RealtimeMessageOf } from '../../../common/realtime';
import { call, isApiError } from '../../api/client';
import type { ApiError } from '../../api/client';
import { queueMarked, queueWith, requestOfTip } from './menu-queue';

export const tipMenuKeys = {
  all: ['tip-menu'] as const,
  menu: (userId: number) => [...tipMenuKeys.all, 'menu', userId] as const,
  requests: (streamId: number) => [...tipMenuKeys.all, 'requests', streamId] as const,
};

const noRetryOnRefusal = (count: number, error: unknown) => !isApiError(error) && count < 2;

/** The broadcaster's actions, in order (empty: no menu). */
export function useTipMenu(userId: number) {
  return useQuery({
    queryKey: tipMenuKeys.menu(userId),
    queryFn: async () => (await call(tips.tipMenu, { user_id: userId })).items,
    retry: noRetryOnRefusal,
  });
}

/** Replaces the caller's menu; the answer is the menu saved. */
export function useSaveTipMenu(userId: number) {
  const queryClient = useQueryClient();
  return useMutation<TipMenuItem[], ApiError, MenuItemInput[]>({
    mutationFn: async (items) => (await call(tips.saveTipMenu, { items })).items,
    onSuccess: (items) => queryClient.setQueryData(tipMenuKeys.menu(userId), items),
  });
}

/** The stream's requests, oldest first (its owner's). */
export function useMenuRequests(streamId: number) {
  return useQuery({
    queryKey: tipMenuKeys.requests(streamId),
    queryFn: async () => (await call(tips.menuRequests, { id: streamId })).requests,
    retry: noRetryOnRefusal,
  });
}

/**
 * A TIP frame on the owner's stream: the action it bought joins the queue at once. Before the queue's
 * first answer, that answer is asked again, so it cannot miss a request made while it was on its way.
 */
export function addRequestOfTip(queryClient: QueryClient, streamId: number, message: RealtimeMessageOf<'TIP'>): void {
  const request = requestOfTip(message);
  if (!request) return;
  const key = tipMenuKeys.requests(streamId);
  if (queryClient.getQueryData<MenuRequest[]>(key)) queryClient.setQueryData<MenuRequest[]>(key, (queue) => queue && queueWith(queue, request));
  else void queryClient.invalidateQueries({ queryKey: key });
}

/**
 * Ticks a request off (or back) at once: the answer says what the queue shows already, and a tick and its
 * undo in quick succession would flicker if each answer were shown. A refusal reads the queue again.
 */
export function useMarkMenuRequest(streamId: number) {
  const queryClient = useQueryClient();
  const key = tipMenuKeys.requests(streamId);
  return useMutation<MenuRequest, ApiError, { requestId: number; done: boolean }>({
    mutationFn: async ({ requestId, done }) => (await call(tips.markMenuRequest, { stream_id: streamId, request_id: requestId, done })).request,
    onMutate: async ({ requestId, done }) => {
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<MenuRequest[]>(key, (queue) => queue && queueMarked(queue, requestId, done));
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}
