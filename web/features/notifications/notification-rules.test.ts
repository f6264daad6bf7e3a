import { describe, expect, it } from 'vitest';
import type { NotificationItem } from '../../../common/api/notifications';
import { badgeText, bellLabel, flattenPages, markRead, mergePushed, nextBefore } from './notification-rules';
import type { NotificationPage } from './notification-rules';

const item = (id: number, read = false): NotificationItem => ({
  id,
  kind: 'new_follower',
  text: `viewer${id} started following you`,
  link: `/u/${id}`,
  actor: { id, username: `viewer${id}`, fullname: '', avatar: null },
  read,
  created_at: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
});
const page = (ids: number[], unread: number, has_more = false): NotificationPage => ({ notifications: ids.map((id) => item(id)), unread, has_more });
const ids = (p: NotificationPage) => p.notifications.map((n) => n.id);

describe('badgeText', () => {
  it('says nothing at 0 (or a count that is not one), the count up to 99, then 99+', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-3)).toBeNull();
    expect(badgeText(Number.NaN)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(12_345)).toBe('99+');
  });

  it('names the bell with the unread count when there is one', () => {
    expect(bellLabel(0)).toBe('Notifications');
    expect(bellLabel(3)).toBe('Notifications, 3 unread');
    expect(bellLabel(250)).toBe('Notifications, 99+ unread');
  });
});

describe('mergePushed', () => {
  it('puts a new notification on top with the unread count after it', () => {
    const merged = mergePushed(page([5, 4], 2), 3, item(6));
    expect(ids(merged)).toEqual([6, 5, 4]);
    expect(merged.unread).toBe(3);
  });

  it('lists a notification once when the frame repeats it or the list already had it', () => {
    const once = mergePushed(page([5, 4], 2), 3, item(6));
    const twice = mergePushed(once, 3, item(6));
    expect(ids(twice)).toEqual([6, 5, 4]);
    const listed = mergePushed(page([6, 5], 1), 1, { ...item(5), read: true });
    expect(ids(listed)).toEqual([6, 5]);
    expect(listed.notifications[1]?.read).toBe(true);
  });

  it('places an older pushed notification by its id, newest first', () => {
    expect(ids(mergePushed(page([9, 5, 2], 0), 1, item(7)))).toEqual([9, 7, 5, 2]);
    expect(ids(mergePushed(page([9, 5], 0), 1, item(1)))).toEqual([9, 5, 1]);
  });

  it('only changes the count when the frame has no notification (some were read elsewhere)', () => {
    const before = page([5, 4], 2);
    const after = mergePushed(before, 0);
    expect(after.notifications).toBe(before.notifications);
    expect(after.unread).toBe(0);
  });

  it('keeps at most `keep` and then says there are more', () => {
    const merged = mergePushed(page([3, 2, 1], 3), 4, item(4), 3);
    expect(ids(merged)).toEqual([4, 3, 2]);
    expect(merged.has_more).toBe(true);
    expect(mergePushed(page([1], 1), 2, item(2), 3).has_more).toBe(false);
  });
});

describe('markRead', () => {
  it('marks the named ones read, or all, and takes the unread count answered', () => {
    const some = markRead(page([3, 2, 1], 3), { ids: [2] }, 2);
    expect(some.notifications.map((n) => n.read)).toEqual([false, true, false]);
    expect(some.unread).toBe(2);
    const all = markRead(page([3, 2, 1], 3), { all: true }, 0);
    expect(all.notifications.every((n) => n.read)).toBe(true);
    expect(all.unread).toBe(0);
  });

  it('keeps the same list when nothing changed', () => {
    const before = { ...page([], 0), notifications: [item(2, true)] };
    expect(markRead(before, { all: true }, 0).notifications).toBe(before.notifications);
  });
});

describe('paging', () => {
  it('asks for the page before the last id shown while there are more', () => {
    expect(nextBefore(page([9, 8, 7], 0, true))).toBe(7);
    expect(nextBefore(page([9, 8, 7], 0, false))).toBeUndefined();
    expect(nextBefore(page([], 0, true))).toBeUndefined();
  });

  it('lists each notification once across pages', () => {
    expect(flattenPages([page([9, 8], 0, true), page([8, 7], 0)]).map((n) => n.id)).toEqual([9, 8, 7]);
  });
});
