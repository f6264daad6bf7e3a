import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { NotificationItem } from '../../../common/api/notifications';
import { applyNotificationFrame, notificationKeys, PANEL_SIZE } from './api';
import type { Pages } from './api';
import type { NotificationPage } from './notification-rules';

const item = (id: number, read = false): NotificationItem => ({
  id,
  kind: 'stream_live',
  text: `broadcaster${id} is live: Show ${id}`,
  link: `/streams/stream-view?id=${id}`,
  actor: { id, username: `broadcaster${id}`, fullname: '', avatar: null },
  read,
  created_at: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
});

function seeded() {
  const queryClient = new QueryClient();
  const latest: NotificationPage = { notifications: Array.from({ length: PANEL_SIZE }, (_, i) => item(PANEL_SIZE - i, i > 0)), unread: 1, has_more: true };
  queryClient.setQueryData(notificationKeys.unread(), 1);
  queryClient.setQueryData(notificationKeys.latest(), latest);
  const pages: Pages = { pages: [{ ...latest, has_more: true }, { notifications: [item(0, true)], unread: 1, has_more: false }], pageParams: [undefined, 1] };
  queryClient.setQueryData(notificationKeys.pages(), pages);
  const read = () => ({
    unread: queryClient.getQueryData<number>(notificationKeys.unread()),
    latest: queryClient.getQueryData<NotificationPage>(notificationKeys.latest())!,
    pages: queryClient.getQueryData<Pages>(notificationKeys.pages())!,
  });
  return { queryClient, read };
}

describe('applyNotificationFrame', () => {
  it('puts a pushed notification on top of the panel (keeping its size) and of the first page, once, with the count', () => {
    const { queryClient, read } = seeded();
    const frame = { unread: 2, notification: item(20) };
    applyNotificationFrame(queryClient, frame);
    applyNotificationFrame(queryClient, frame);
    const { unread, latest, pages } = read();
    expect(unread).toBe(2);
    expect(latest.notifications.map((n) => n.id)).toEqual([20, 8, 7, 6, 5, 4, 3, 2]);
    expect(latest.has_more).toBe(true);
    expect(pages.pages[0]!.notifications.map((n) => n.id)).toEqual([20, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(pages.pages[1]!.notifications.map((n) => n.id)).toEqual([0]);
    expect(pages.pageParams).toEqual([undefined, 1]);
  });

  it('marks every listed one read when the count alone says none are unread', () => {
    const { queryClient, read } = seeded();
    applyNotificationFrame(queryClient, { unread: 0 });
    const { unread, latest, pages } = read();
    expect(unread).toBe(0);
    expect(latest.notifications.every((n) => n.read)).toBe(true);
    expect(pages.pages.flatMap((p) => p.notifications).every((n) => n.read)).toBe(true);
  });

  it('reads the lists again when another count says some were read elsewhere, and not for its own count', () => {
    const { queryClient, read } = seeded();
    applyNotificationFrame(queryClient, { unread: 1 });
    expect(queryClient.getQueryState(notificationKeys.latest())?.isInvalidated).toBe(false);
    queryClient.setQueryData(notificationKeys.unread(), 3);
    applyNotificationFrame(queryClient, { unread: 2 });
    expect(read().unread).toBe(2);
    expect(queryClient.getQueryState(notificationKeys.latest())?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(notificationKeys.pages())?.isInvalidated).toBe(true);
  });
});
