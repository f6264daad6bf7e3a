/**
 * Notifications server state the bell needs on every page: the unread count and the NOTIFICATION
 * frames of the user's own channel that keep it, and the cached lists (list-api.ts), current without
 * a reload.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notifications } from '../../../common/api/calls';
import { userChannelOf } from '../../../common/realtime-channels';
import type { RealtimeMessageOf } from '../../../common/realtime';
import { call } from '../../api/client';
import { realtimeClient } from '../../api/realtime';
import { markRead, mergePushed } from './notification-rules';
import type { NotificationPage } from './notification-rules';

/** How many the bell's panel shows. */
export const PANEL_SIZE = 8;
/** A page of /user/notifications. */
export const PAGE_SIZE = 20;
/** The count and the newest are read again when older than this (the frames keep them current meanwhile). */
export const FRESH_MS = 60_000;

export const notificationKeys = {
  all: ['notifications'] as const,
  unread: () => [...notificationKeys.all, 'unread'] as const,
  latest: () => [...notificationKeys.all, 'latest'] as const,
  pages: () => [...notificationKeys.all, 'pages'] as const,
};

export type Pages = InfiniteData<NotificationPage, number | undefined>;

/** Every list answer carries the unread count: the bell takes it from whichever came last. */
export function setUnread(queryClient: QueryClient, unread: number): void {
  queryClient.setQueryData(notificationKeys.unread(), unread);
}

export async function fetchLatest(queryClient: QueryClient): Promise<NotificationPage> {
  const page = await call(notifications.listNotifications, { limit: PANEL_SIZE });
  setUnread(queryClient, page.unread);
  return page;
}

/** The unread count for the bell's badge (one list call of the panel's size, which the panel then shows). */
export function useUnreadCount(enabled: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: notificationKeys.unread(),
    enabled,
    staleTime: FRESH_MS,
    queryFn: async () => {
      const page = await fetchLatest(queryClient);
      queryClient.setQueryData(notificationKeys.latest(), page);
      return page.unread;
    },
  });
}

/** Applies a change to the cached newest page and to the first of the pages (where a new one goes). */
export function updateLists(queryClient: QueryClient, change: (page: NotificationPage, keep?: number) => NotificationPage, everyPage = false): void {
  queryClient.setQueryData<NotificationPage>(notificationKeys.latest(), (page) => page && change(page, PANEL_SIZE));
  queryClient.setQueryData<Pages>(notificationKeys.pages(), (data) => {
    if (!data) return data;
    return { ...data, pages: data.pages.map((page, i) => (i === 0 || everyPage ? change(page) : page)) };
  });
}

/** The count and the lists read again from the server. */
function refreshAll(queryClient: QueryClient): void {
  for (const queryKey of [notificationKeys.unread(), notificationKeys.latest(), notificationKeys.pages()]) void queryClient.invalidateQueries({ queryKey });
}

/**
 * A NOTIFICATION frame: a new one goes into the lists (once) with the count. A frame with the count
 * alone follows reads: none unread marks every listed one read; another count than the one shown means
 * some were read on another page, so the lists are read again (a read of this page's own is already
 * counted, and costs nothing more).
 */
export function applyNotificationFrame(queryClient: QueryClient, data: RealtimeMessageOf<'NOTIFICATION'>['data']): void {
  const shown = queryClient.getQueryData<number>(notificationKeys.unread());
  setUnread(queryClient, data.unread);
  if (data.notification) {
    updateLists(queryClient, (page, keep) => mergePushed(page, data.unread, data.notification, keep));
  } else if (data.unread === 0) {
    updateLists(queryClient, (page) => markRead(page, { all: true }, 0), true);
  } else if (shown !== data.unread) {
    void queryClient.invalidateQueries({ queryKey: notificationKeys.latest() });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.pages() });
  }
}

/**
 * Listens to the user's own channel while signed in. After a reconnect the count and the lists are
 * read again, since frames sent while the socket was down are lost.
 */
export function useNotificationFrames(userId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    let subscriptions = 0;
    let reconnected = false;
    return realtimeClient().subscribe(userChannelOf(userId), {
      onMessage: (message) => {
        if (message.type === 'NOTIFICATION') applyNotificationFrame(queryClient, message.data);
      },
      onSubscribed: () => {
        subscriptions += 1;
        if (subscriptions > 1) refreshAll(queryClient);
      },
      onError: (error) => {
        // A socket opened before sign-in (or as someone else) carries another session: open one with this one, once.
        if ((error.code === 'unauthorized' || error.code === 'forbidden') && !reconnected) {
          reconnected = true;
          realtimeClient().reconnect();
        }
      },
    });
  }, [userId, queryClient]);
}
