/**
 * The notification lists (the bell's panel, /user/notifications) and marking read: loaded with those
 * views only.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { notifications } from '../../../common/api/calls';
import { call } from '../../api/client';
import { fetchLatest, FRESH_MS, notificationKeys, PAGE_SIZE, setUnread, updateLists } from './api';
import type { Pages } from './api';
import { markRead, nextBefore } from './notification-rules';
import type { NotificationPage, ReadTarget } from './notification-rules';

/** The newest notifications, for the bell's panel. */
export function useLatestNotifications() {
  const queryClient = useQueryClient();
  return useQuery({ queryKey: notificationKeys.latest(), staleTime: FRESH_MS, queryFn: () => fetchLatest(queryClient) });
}

/** All notifications, newest first, a page at a time (Load more asks for those before the last shown). */
export function useNotificationPages() {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: notificationKeys.pages(),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: nextBefore,
    queryFn: async ({ pageParam }) => {
      const page = await call(notifications.listNotifications, { limit: PAGE_SIZE, ...(pageParam === undefined ? {} : { before: pageParam }) });
      if (pageParam === undefined) setUnread(queryClient, page.unread);
      return page;
    },
  });
}

/** Marks some notifications (or all) read; the lists show it at once, the count follows the answer. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: ReadTarget) => call(notifications.markNotificationsRead, 'all' in target ? { all: true } : { ids: [...target.ids] }),
    onMutate: (target) => {
      const unread = queryClient.getQueryData<number>(notificationKeys.unread()) ?? 0;
      const after = 'all' in target ? 0 : Math.max(0, unread - unreadAmong(queryClient, target.ids));
      updateLists(queryClient, (page) => markRead(page, target, after), true);
      setUnread(queryClient, after);
    },
    onSuccess: (out, target) => {
      setUnread(queryClient, out.unread);
      updateLists(queryClient, (page) => markRead(page, target, out.unread), true);
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

/** How many of these ids the cached lists show unread (before marking them). */
function unreadAmong(queryClient: QueryClient, ids: readonly number[]): number {
  const wanted = new Set(ids);
  const unread = new Set<number>();
  const latest = queryClient.getQueryData<NotificationPage>(notificationKeys.latest());
  const pages = queryClient.getQueryData<Pages>(notificationKeys.pages());
  for (const page of [...(latest ? [latest] : []), ...(pages?.pages ?? [])]) {
    for (const item of page.notifications) if (wanted.has(item.id) && !item.read) unread.add(item.id);
  }
  return unread.size;
}
