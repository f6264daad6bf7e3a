/**
 * Pure rules of the notification bell and list: the badge's text, a pushed notification merged into
 * the cached lists, items marked read, and paging.
 */
import type { NotificationItem } from '../../../common/api/notifications';

/** What the bell's badge says: nothing at 0, the count up to 99, then "99+". */
export function badgeText(unread: number): string | null {
  if (!Number.isFinite(unread) || unread <= 0) return null;
  return unread > 99 ? '99+' : String(Math.floor(unread));
}

/** The bell's accessible name: "Notifications", with how many are unread when some are. */
export function bellLabel(unread: number): string {
  const text = badgeText(unread);
  if (!text) return 'Notifications';
  return `Notifications, ${text} unread`;
}

/** One answer of GET /api/user/notifications, as cached. */
export interface NotificationPage {
  notifications: NotificationItem[];
  unread: number;
  has_more: boolean;
}

/**
 * The newest page with a pushed notification first (once: a notification already listed is replaced
 * by the pushed copy in its place) and the unread count after it. With `keep`, the page holds at most
 * that many, and says there are more when one fell off its end.
 */
export function mergePushed(page: NotificationPage, unread: number, pushed?: NotificationItem, keep?: number): NotificationPage {
  if (!pushed) return { ...page, unread };
  const at = page.notifications.findIndex((item) => item.id === pushed.id);
  if (at >= 0) {
    const notifications = [...page.notifications];
    notifications[at] = pushed;
    return { ...page, notifications, unread };
  }
  // Newest first: a pushed one newer than all those listed goes on top, else in its place by id.
  const notifications = [...page.notifications];
  const before = notifications.findIndex((item) => item.id < pushed.id);
  notifications.splice(before < 0 ? notifications.length : before, 0, pushed);
  if (keep !== undefined && notifications.length > keep) return { notifications: notifications.slice(0, keep), unread, has_more: true };
  return { ...page, notifications, unread };
}

/** Which notifications a read call named: some ids, or all of them. */
export type ReadTarget = { ids: readonly number[] } | { all: true };

/** The page with the named notifications marked read and the unread count the server answered. */
export function markRead(page: NotificationPage, target: ReadTarget, unread: number): NotificationPage {
  const named = 'all' in target ? null : new Set(target.ids);
  let changed = false;
  const notifications = page.notifications.map((item) => {
    if (item.read || (named && !named.has(item.id))) return item;
    changed = true;
    return { ...item, read: true };
  });
  return { ...page, notifications: changed ? notifications : page.notifications, unread };
}

/** Pages of a longer list (the Load more pattern): the last shown id is the next page's `before`. */
export function nextBefore(page: NotificationPage): number | undefined {
  if (!page.has_more || page.notifications.length === 0) return undefined;
  return page.notifications[page.notifications.length - 1]?.id;
}

/** The notifications of several pages, each once (a pushed one may also arrive on a later page). */
export function flattenPages(pages: readonly NotificationPage[]): NotificationItem[] {
  const seen = new Set<number>();
  const out: NotificationItem[] = [];
  for (const page of pages) {
    for (const item of page.notifications) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
    }
  }
  return out;
}
