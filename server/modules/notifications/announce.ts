/**
 * Tells people's open pages at once: after a notification commits, a `NOTIFICATION` frame with the item
 * and the new unread count goes to each recipient's user channel (on every instance, over the bus).
 */
import { inArray } from 'drizzle-orm';
import { userChannelOf, type RealtimeMessage } from '../../../common/realtime';
import type { Db } from '../../platform/db/client';
import { unreadCounts, type Created, type NotificationReads } from './store';
import { notifications } from './tables';

export function createAnnouncer(deps: { db: Db; reads: NotificationReads; publish: (channel: string, message: RealtimeMessage) => Promise<void> }) {
  const { db } = deps;
  return {
    async created(created: readonly Created[]): Promise<void> {
      if (created.length === 0) return;
      const rows = await db.select().from(notifications).where(inArray(notifications.id, created.map((c) => c.id)));
      const [items, counts] = await Promise.all([deps.reads.itemsOf(rows), unreadCounts(db, rows.map((row) => row.userId))]);
      await Promise.all(rows.map((row, i) =>
        deps.publish(userChannelOf(row.userId), { type: 'NOTIFICATION', data: { unread: counts.get(row.userId) ?? 0, notification: items[i]! } })));
    },

    /** After some were read: the person's other pages show the new count. */
    unread: (userId: number, unread: number) => deps.publish(userChannelOf(userId), { type: 'NOTIFICATION', data: { unread } }),
  };
}

export type Announcer = ReturnType<typeof createAnnouncer>;
