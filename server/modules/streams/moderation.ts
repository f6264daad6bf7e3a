/**
 * Moderators' stream actions (spec part 1 §6 permission table; report-stream-action, and the operator
 * console's reports queue and featured streams, a moderator's Delete Stream). Who may do what is the
 * shared rule (`common/rules/moderation.ts`). Each action is recorded in the audit log, with the stream's
 * state before and after, in the transaction of its change; the media server (ending a broadcast,
 * grabbing a picture) acts after that commits.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { MODERATION_EVENTS } from '../../../common/api/streams';
import type { AuditAction } from '../../../common/console';
import { MSG } from '../../../common/messages';
import { mayModerate, type ModerationRight } from '../../../common/rules/moderation';
import { PRICE_STEP } from '../../../common/rules/pay-wall';
import { recordAudit } from '../../platform/audit/audit';
import type { Db, Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import type { DomainEventHub } from '../../platform/events';
import type { AccountAdmin, SuspensionTerms } from '../accounts';
import type { MediaControl } from './media-control';
import { broadcasterChannels, streamModerationLog, streamReports, streams } from './tables';

/** The spec's events, and Hide (the console's, for holders of ALLOW REPORT_STREAM_HIDE). */
export type ModerationEvent = (typeof MODERATION_EVENTS)[number] | 'HIDE_STREAM';

/** The right each event needs (the shared rule, `common/rules/moderation.ts`). */
const NEEDS: Record<ModerationEvent, ModerationRight> = {
  END_STREAM: 'stream.end',
  DELETE_STREAM: 'stream.delete',
  SUSPEND_USER: 'user.suspend',
  HIDE_STREAM: 'stream.hide',
  MAKE_FEATURED: 'stream.edit',
  REMOVE_FEATURED: 'stream.edit',
  MAKE_FOLLOWERS_ONLY: 'stream.edit',
  MOVE_TO_18: 'stream.edit',
  CHANGE_THUMBNAIL: 'stream.edit',
  SET_STREAM_PAID: 'stream.edit',
  MOVE_USER_TO_MEN: 'stream.edit',
  MOVE_USER_TO_WOMEN: 'stream.edit',
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
  SET_STREAM_PAID: 'stream.set-paid',
  MOVE_USER_TO_MEN: 'stream.move-to-men',
  MOVE_USER_TO_WOMEN: 'stream.move-to-women',
};

type StreamRow = typeof streams.$inferSelect;

/** What the audit log keeps of a stream's state. */
const stateOf = (row: StreamRow) => ({
  title: row.title, live: row.live, hidden: row.hidden, featured: row.featured, deleted: row.deletedAt !== null,
  audience: row.audience, rating: row.rating, owner_id: row.userId, tip_viewer_min_amount: row.tipViewerMinAmount,
});

/** What the media server does once the change committed (it is no part of the database's transaction). */
type MediaStep = 'stop' | 'thumbnail' | 'price' | null;

export function createStreamModeration(deps: { db: Db; accountAdmin: AccountAdmin; media: MediaControl; events: DomainEventHub }) {
  const { db, media } = deps;

  /** Hides the user's streams inside the transaction; answers them (the live ones are ended after it commits). */
  const hideStreamsOf = (tx: Executor, userId: number) =>
    tx.update(streams).set({ hidden: true, updatedAt: new Date() }).where(eq(streams.userId, userId)).returning({ id: streams.id, live: streams.live });

  /** After a suspension committed: live streams ended, viewers checked again. */
  async function afterHidden(hidden: Array<{ id: number; live: boolean }>) {
    for (const stream of hidden) {
      if (stream.live) await media.stopBroadcast(stream.id);
      await deps.events.emit('stream.access-changed', { streamId: stream.id });
    }
  }

  /**
   * The owner's account suspended and their streams hidden, in one transaction with the audit entries
   * (`alongside`: more of the same transaction, e.g. the stream the suspension came from); then the live one ended.
   */
  async function suspendOwner(actorId: number, userId: number, alongside?: (tx: Executor) => Promise<void>, terms?: SuspensionTerms) {
    let hidden: Array<{ id: number; live: boolean }> = [];
    await deps.accountAdmin.suspend(actorId, { userId }, async (tx) => {
      hidden = await hideStreamsOf(tx, userId);
      await alongside?.(tx);
    }, terms);
    await afterHidden(hidden);
  }

  /** The event's change to the stream's row (none for End Stream and Change Thumbnail: the media server's). */
  async function change(tx: Executor, event: ModerationEvent, stream: StreamRow): Promise<MediaStep> {
    const now = new Date();
    const set = (values: Partial<typeof streams.$inferInsert>) =>
      tx.update(streams).set({ ...values, updatedAt: now }).where(eq(streams.id, stream.id));
    switch (event) {
      case 'END_STREAM':
        return 'stop';
      case 'DELETE_STREAM':
        await set({ deletedAt: now, hidden: true });
        return 'stop';
      case 'HIDE_STREAM':
        await set({ hidden: true });
        return null;
      case 'SUSPEND_USER':
        return null;
      case 'MAKE_FEATURED':
        await set({ featured: true });
        return null;
      case 'REMOVE_FEATURED':
        await set({ featured: false });
        return null;
      case 'MAKE_FOLLOWERS_ONLY':
        await set({ audience: 'FOLLOWERS', audienceLocked: true });
        return null;
      case 'MOVE_TO_18':
        await set({ rating: 'PLUS_18', ratingLocked: true });
        return null;
      case 'CHANGE_THUMBNAIL':
        return 'thumbnail';
      case 'SET_STREAM_PAID':
        // The smallest price; a paid stream keeps its own (paid stays paid, spec part 1 §4 Stream lifecycle).
        if (stream.tipViewerMinAmount > 0) return null;
        await set({ tipViewerMinAmount: PRICE_STEP });
        return 'price';
      case 'MOVE_USER_TO_MEN':
      case 'MOVE_USER_TO_WOMEN': {
        const gender = event === 'MOVE_USER_TO_MEN' ? 'men' : 'women';
        await tx.insert(broadcasterChannels).values({ userId: stream.userId, gender })
          .onConflictDoUpdate({ target: broadcasterChannels.userId, set: { gender } });
        return null;
      }
    }
  }

  /** The moderation log's row and the audit entry, in the change's transaction. */
  async function record(tx: Executor, actorId: number, event: ModerationEvent, row: StreamRow, comment: string | undefined, step: MediaStep = null) {
    const [after] = await tx.select().from(streams).where(eq(streams.id, row.id));
    await tx.insert(streamModerationLog).values({ streamId: row.id, moderatorId: actorId, event, comment: comment || null });
    await recordAudit(tx, {
      actorId, action: AUDITED_AS[event], targetType: 'stream', targetId: row.id,
      // A broadcast being ended is ended once this commits (the media server's stop follows).
      before: stateOf(row), after: { ...stateOf(after ?? row), ...(step === 'stop' ? { live: false } : {}), ...(comment ? { comment } : {}) },
    });
  }

  /** A stream that was not deleted. */
  async function findLive(streamId: number): Promise<StreamRow> {
    const [row] = await db.select().from(streams).where(eq(streams.id, streamId));
    if (!row || row.deletedAt) throw notFound(MSG.streamNotAvailable);
    return row;
  }

  /** One event on one stream: the change and its record in one transaction, then the media server, then the news. */
  async function applyTo(actorId: number, event: ModerationEvent, row: StreamRow, comment: string | undefined) {
    let step: MediaStep = null;
    if (event === 'SUSPEND_USER') {
      await suspendOwner(actorId, row.userId, (tx) => record(tx, actorId, event, row, comment));
    } else {
      step = await db.transaction(async (tx) => {
        const next = await change(tx, event, row);
        await record(tx, actorId, event, row, comment, next);
        return next;
      });
    }
    if (step === 'stop') await media.stopBroadcast(row.id);
    if (step === 'thumbnail') await media.grabThumbnail(row.id);
    // Viewers hear the new price (TIP-ENFORCE) before those who now owe are checked again.
    if (step === 'price') await deps.events.emit('stream.price-changed', { streamId: row.id, tipViewerMinAmount: PRICE_STEP });
    // Deleted, suspended, 18+, followers-only or paid now: viewers already on the channel are checked again.
    await deps.events.emit('stream.access-changed', { streamId: row.id });
  }

  return {
    /** Applies the event to each stream (unknown ids are skipped); answers how many were affected. */
    async act(principal: Principal, streamIds: number[], event: ModerationEvent, comment: string | undefined): Promise<number> {
      if (!mayModerate(principal, NEEDS[event])) throw forbidden();
      const rows = await db.select().from(streams).where(inArray(streams.id, [...new Set(streamIds)]));
      for (const row of rows) await applyTo(principal.userId, event, row, comment);
      return rows.length;
    },

    /**
     * Delete Stream from the stream's page (`streams/stream-delete`): the owner deletes their own, holders
     * of the stream.delete right anyone's (audited as a moderator's Delete); for anyone else the stream is not there.
     */
    async remove(principal: Principal, streamId: number) {
      const row = await findLive(streamId);
      if (row.userId !== principal.userId) {
        if (!mayModerate(principal, 'stream.delete')) throw notFound(MSG.streamNotAvailable);
        return applyTo(principal.userId, 'DELETE_STREAM', row, undefined);
      }
      await db.update(streams).set({ deletedAt: new Date(), hidden: true, updatedAt: new Date() }).where(eq(streams.id, streamId));
      if (row.live) await media.stopBroadcast(streamId);
      await deps.events.emit('stream.access-changed', { streamId });
    },

    /**
     * Change Thumbnail from the stream's page (`streams/add-stream-thumbnail`): the owner's own, or anyone's
     * for holders of the stream.edit right, audited once the media server took the picture.
     */
    async refreshThumbnail(principal: Principal, streamId: number): Promise<string> {
      const row = await findLive(streamId);
      const byModerator = row.userId !== principal.userId;
      if (byModerator && !mayModerate(principal, 'stream.edit')) throw notFound(MSG.streamNotAvailable);
      if (!(await media.grabThumbnail(streamId))) throw badRequest(MSG.noPictureWhileOffline);
      if (byModerator) await db.transaction((tx) => record(tx, principal.userId, 'CHANGE_THUMBNAIL', row, undefined));
      return `/media/thumbs/${streamId}.jpg?v=${Date.now()}`;
    },

    /** Suspends a user from the console's users list: as Suspend User on a stream of theirs. */
    suspendOwner: (actorId: number, userId: number, terms?: SuspensionTerms) => suspendOwner(actorId, userId, undefined, terms),
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
