/**
 * Moderators' stream actions (spec part 1 §6 permission table; report-stream-action, and the operator
 * console's reports queue and featured streams). Each action on a stream is recorded in the audit log
 * with the stream's state before and after.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { MODERATION_EVENTS } from '../../../common/api/streams';
import type { AuditAction } from '../../../common/console';
import type { Permission } from '../../../common/permissions';
import { recordAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { forbidden } from '../../platform/http/errors';
import type { DomainEventHub } from '../../platform/events';
import type { AccountAdmin } from '../accounts';
import type { MediaControl } from './service';
import { broadcasterChannels, streamModerationLog, streamReports, streams } from './tables';

/** The spec's events, and Hide (the console's, for holders of ALLOW REPORT_STREAM_HIDE). */
export type ModerationEvent = (typeof MODERATION_EVENTS)[number] | 'HIDE_STREAM';

const NEEDS: Record<ModerationEvent, Permission> = {
  END_STREAM: 'GRANT PERMISSION',
  DELETE_STREAM: 'GRANT PERMISSION',
  SUSPEND_USER: 'GRANT PERMISSION',
  HIDE_STREAM: 'ALLOW REPORT_STREAM_HIDE',
  MAKE_FEATURED: 'UPDATE STREAM_ANY',
  REMOVE_FEATURED: 'UPDATE STREAM_ANY',
  MAKE_FOLLOWERS_ONLY: 'UPDATE STREAM_ANY',
  MOVE_TO_18: 'UPDATE STREAM_ANY',
  CHANGE_THUMBNAIL: 'UPDATE STREAM_ANY',
  MOVE_USER_TO_MEN: 'UPDATE STREAM_ANY',
  MOVE_USER_TO_WOMEN: 'UPDATE STREAM_ANY',
};

const AUDITED_AS: Record<ModerationEvent, AuditAction> = {
  END_STREAM: 'stream.end',
  DELETE_STREAM: 'stream.delete',
  SUSPEND_USER: 'stream.suspend-owner',
  HIDE_STREAM: 'stream.hide',
  MAKE_FEATURED: 'stream.feature',
  REMOVE_FEATURED: 'stream.unfeature',
  MAKE_FOLLOWERS_ONLY: 'stream.followers-only',
  MOVE_TO_18: 'stream.move-to-18',
  CHANGE_THUMBNAIL: 'stream.thumbnail',
  MOVE_USER_TO_MEN: 'stream.move-to-men',
  MOVE_USER_TO_WOMEN: 'stream.move-to-women',
};

type StreamRow = typeof streams.$inferSelect;

/** What the audit log keeps of a stream's state. */
const stateOf = (row: StreamRow) => ({
  title: row.title, live: row.live, hidden: row.hidden, featured: row.featured, deleted: row.deletedAt !== null,
  audience: row.audience, rating: row.rating, owner_id: row.userId,
});

export function createStreamModeration(deps: { db: Db; accountAdmin: AccountAdmin; media: MediaControl; events: DomainEventHub }) {
  const { db, media } = deps;

  /** The owner's account suspended, their streams hidden and the live one ended. */
  async function suspendOwner(actorId: number, userId: number) {
    await deps.accountAdmin.suspend(actorId, { userId });
    const hidden = await db.update(streams).set({ hidden: true, updatedAt: new Date() }).where(eq(streams.userId, userId))
      .returning({ id: streams.id, live: streams.live });
    for (const stream of hidden) {
      if (stream.live) await media.stopBroadcast(stream.id);
      await deps.events.emit('stream.access-changed', { streamId: stream.id });
    }
  }

  async function apply(actorId: number, event: ModerationEvent, stream: StreamRow) {
    const now = new Date();
    const set = (values: Partial<typeof streams.$inferInsert>) =>
      db.update(streams).set({ ...values, updatedAt: now }).where(eq(streams.id, stream.id));
    switch (event) {
      case 'END_STREAM':
        return media.stopBroadcast(stream.id);
      case 'DELETE_STREAM':
        await set({ deletedAt: now, hidden: true });
        return media.stopBroadcast(stream.id);
      case 'HIDE_STREAM':
        return set({ hidden: true });
      case 'SUSPEND_USER':
        return suspendOwner(actorId, stream.userId);
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
        await apply(principal.userId, event, row);
        const [after] = await db.select().from(streams).where(eq(streams.id, row.id));
        await db.transaction(async (tx) => {
          await tx.insert(streamModerationLog).values({ streamId: row.id, moderatorId: principal.userId, event, comment: comment || null });
          await recordAudit(tx, {
            actorId: principal.userId, action: AUDITED_AS[event], targetType: 'stream', targetId: row.id,
            before: stateOf(row), after: { ...stateOf(after ?? row), ...(comment ? { comment } : {}) },
          });
        });
        // Deleted, suspended, 18+ or followers-only now: viewers already on the channel are checked again.
        await deps.events.emit('stream.access-changed', { streamId: row.id });
      }
      return rows.length;
    },

    /** Suspends a user from the console's users list: as Suspend User on a stream of theirs. */
    suspendOwner,
  };
}

export type StreamModeration = ReturnType<typeof createStreamModeration>;

/**
 * The reports of streams, for the console's queue (one row a report; the columns of posts'
 * `postReportsSql`): the stream's title as the preview and its live picture when it has a public one.
 */
export const streamReportsSql = sql`select 'stream'::text as kind, r.stream_id as item_id, r.reporter_id, r.type, r.comment, r.created_at,
    s.user_id as owner_id, s.title as preview,
    case when s.thumbnail_key is not null and s.audience = 'PUBLIC' and s.rating <> 'PLUS_18' and s.tip_viewer_min_amount = 0
      then '/media/thumbs/' || s.id || '.jpg' end as image,
    case when s.deleted_at is not null then 'deleted' when s.live then 'live' when s.hidden then 'hidden' else 'shown' end as item_state
  from ${streamReports} r join ${streams} s on s.id = r.stream_id`;

/** Featured streams and live candidates (shown, not deleted), newest first, for the console. */
export const featuredCandidatesSql = sql`select s.id, s.title, s.user_id, s.live, s.featured, s.started_at
  from ${streams} s where s.deleted_at is null and not s.hidden and (s.featured or s.live)
  order by s.featured desc, s.started_at desc nulls last limit 100`;

/** How many streams the user made (the console's user view). */
export const streamCountSql = (userId: number) => sql`(select count(*)::int from ${streams} s where s.user_id = ${userId} and s.deleted_at is null)`;
