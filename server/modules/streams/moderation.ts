/** Moderators' stream actions (spec part 1 §6 permission table; report-stream-action). */
import { eq, inArray } from 'drizzle-orm';
import type { MODERATION_EVENTS } from '../../../common/api/streams';
import type { Permission } from '../../../common/permissions';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { MSG } from '../../../common/messages';
import { forbidden } from '../../platform/http/errors';
import type { DomainEventHub } from '../../platform/events';
import type { AccountsService } from '../accounts';
import type { MediaControl } from './service';
import { broadcasterChannels, streamModerationLog, streams } from './tables';

type ModerationEvent = (typeof MODERATION_EVENTS)[number];

const NEEDS: Record<ModerationEvent, Permission> = {
  END_STREAM: 'GRANT PERMISSION',
  DELETE_STREAM: 'GRANT PERMISSION',
  SUSPEND_USER: 'GRANT PERMISSION',
  MAKE_FEATURED: 'UPDATE STREAM_ANY',
  REMOVE_FEATURED: 'UPDATE STREAM_ANY',
  MAKE_FOLLOWERS_ONLY: 'UPDATE STREAM_ANY',
  MOVE_TO_18: 'UPDATE STREAM_ANY',
  CHANGE_THUMBNAIL: 'UPDATE STREAM_ANY',
  MOVE_USER_TO_MEN: 'UPDATE STREAM_ANY',
  MOVE_USER_TO_WOMEN: 'UPDATE STREAM_ANY',
};

export function createStreamModeration(deps: { db: Db; accounts: AccountsService; media: MediaControl; events: DomainEventHub }) {
  const { db, media } = deps;

  async function apply(event: ModerationEvent, stream: typeof streams.$inferSelect) {
    const now = new Date();
    const set = (values: Partial<typeof streams.$inferInsert>) =>
      db.update(streams).set({ ...values, updatedAt: now }).where(eq(streams.id, stream.id));
    switch (event) {
      case 'END_STREAM':
        return media.stopBroadcast(stream.id);
      case 'DELETE_STREAM':
        await set({ deletedAt: now, hidden: true });
        return media.stopBroadcast(stream.id);
      case 'SUSPEND_USER': {
        const owner = await deps.accounts.loadPrincipal(stream.userId);
        if (owner?.role === 'admin') throw forbidden(MSG.adminsNotSuspendable);
        await deps.accounts.suspend(stream.userId);
        await db.update(streams).set({ hidden: true, updatedAt: now }).where(eq(streams.userId, stream.userId));
        return media.stopBroadcast(stream.id);
      }
      case 'MAKE_FEATURED':
        return set({ featured: true });
      case 'REMOVE_FEATURED':
        return set({ featured: false });
      case 'MAKE_FOLLOWERS_ONLY':
        return set({ audience: 'FOLLOWERS', audienceLocked: true });
      case 'MOVE_TO_18':
        return set({ rating: 'PLUS_18', ratingLocked: true });
      case 'CHANGE_THUMBNAIL':
        return media.grabThumbnail(stream.id);
      case 'MOVE_USER_TO_MEN':
      case 'MOVE_USER_TO_WOMEN': {
        const gender = event === 'MOVE_USER_TO_MEN' ? 'men' : 'women';
        await db.insert(broadcasterChannels).values({ userId: stream.userId, gender })
          .onConflictDoUpdate({ target: broadcasterChannels.userId, set: { gender } });
        return;
      }
    }
  }

  return {
    /** Applies the event to each stream (unknown ids are skipped); answers how many were affected. */
    async act(principal: Principal, streamIds: number[], event: ModerationEvent, comment: string | undefined): Promise<number> {
      if (principal.role !== 'admin' && !principal.perms.includes(NEEDS[event])) throw forbidden();
      const rows = await db.select().from(streams).where(inArray(streams.id, [...new Set(streamIds)]));
      for (const row of rows) {
        await apply(event, row);
        await db.insert(streamModerationLog).values({ streamId: row.id, moderatorId: principal.userId, event, comment: comment || null });
        // Deleted, suspended, 18+ or followers-only now: viewers already on the channel are checked again.
        await deps.events.emit('stream.access-changed', { streamId: row.id });
      }
      return rows.length;
    },
  };
}

export type StreamModeration = ReturnType<typeof createStreamModeration>;
