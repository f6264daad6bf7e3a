/** What viewers do around a stream they watch (rate, save, report) and what its owner and moderators do to them (ban). */
import { and, eq } from 'drizzle-orm';
import type { COMPLAINT_TYPES } from '../../../common/api/stream-interactions';
import { MSG, type Message } from '../../../common/messages';
import { recordAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import type { DomainEventHub } from '../../platform/events';
import type { AccountsService } from '../accounts';
import { savedBroadcasterScores } from './broadcaster-scores';
import type { ChannelModerators } from './channel-moderators';
import { mayPassPaywall, type StreamAccess } from './access';
import type { StreamReads } from './stream-reads';
import { streamBans, streamRatings, streamReports, streamSaves } from './tables';
import type { Viewer } from './viewer';

type ComplaintType = (typeof COMPLAINT_TYPES)[number];
type SignedInViewer = Viewer & { principal: Principal };

/** Calls that name the caller's own id (the spec's contract) refuse any other id. */
function assertIsCaller(principal: Principal, userId: number) {
  if (principal.userId !== userId) throw forbidden();
}

export function createStreamInteractions(deps: {
  db: Db;
  reads: Pick<StreamReads, 'findStream'>;
  access: Pick<StreamAccess, 'lookup'>;
  accounts: Pick<AccountsService, 'loadPrincipal'>;
  moderators: Pick<ChannelModerators, 'mayModerateChannel' | 'appointedIds'>;
  events: DomainEventHub;
}) {
  const { db, reads, access } = deps;

  /** A stream the caller may watch and does not own. */
  async function othersWatchable(streamId: number, viewer: SignedInViewer, ownMessage: Message) {
    const row = await access.lookup(streamId, viewer);
    if (row.userId === viewer.principal.userId) throw forbidden(ownMessage);
    return row;
  }

  return {
    /** A new rating replaces the caller's earlier one; answers it with the broadcaster's new overall rating. */
    async rate(streamId: number, viewer: SignedInViewer, callerId: number, rating: number) {
      assertIsCaller(viewer.principal, callerId);
      const row = await othersWatchable(streamId, viewer, MSG.cannotRateOwnStream);
      return db.transaction(async (tx) => {
        await tx.insert(streamRatings).values({ streamId, userId: callerId, rating })
          .onConflictDoUpdate({ target: [streamRatings.streamId, streamRatings.userId], set: { rating, createdAt: new Date() } });
        return { rating, overall_rating: (await savedBroadcasterScores(tx, [row.userId])).get(row.userId)?.overall_rating ?? 0 };
      });
    },

    /** Bookmarks or un-bookmarks; removing a bookmark is always allowed, so one can drop a stream that has since closed. */
    async save(streamId: number, viewer: SignedInViewer, callerId: number, save: boolean) {
      assertIsCaller(viewer.principal, callerId);
      const mine = and(eq(streamSaves.userId, callerId), eq(streamSaves.streamId, streamId));
      if (!save) {
        await db.delete(streamSaves).where(mine);
        return { saved: false };
      }
      const row = await reads.findStream(streamId);
      if (row.userId === callerId) throw forbidden(MSG.cannotSaveOwn);
      // A hidden stream stays unknown (the look-up answers 404) rather than telling its audience.
      if (row.audience === 'PRIVATE' && !row.hidden) throw forbidden(MSG.cannotSavePrivate);
      await access.lookup(streamId, viewer);
      await db.insert(streamSaves).values({ userId: callerId, streamId }).onConflictDoNothing();
      return { saved: true };
    },

    /** One complaint per viewer and stream: a new one replaces the earlier. */
    async report(streamId: number, viewer: SignedInViewer, type: ComplaintType, comment: string | undefined) {
      await othersWatchable(streamId, viewer, MSG.cannotReportOwnStream);
      const values = { type, comment: comment ?? '', createdAt: new Date() };
      await db.insert(streamReports).values({ streamId, reporterId: viewer.principal.userId, ...values })
        .onConflictDoUpdate({ target: [streamReports.streamId, streamReports.reporterId], set: values });
    },

    /**
     * The owner, the moderators they appointed and holders of the viewer.ban right (moderators audited) ban a
     * viewer: joining and looking up the stream answer "block".
     */
    async banViewer(streamId: number, principal: Principal, userId: number) {
      const row = await reads.findStream(streamId);
      const byModerator = row.userId !== principal.userId;
      if (byModerator && !(await deps.moderators.mayModerateChannel(principal, row.userId))) throw notFound(MSG.streamNotAvailable);
      if (userId === row.userId) throw badRequest(MSG.cannotBanOwner, 'user_id');
      const target = await deps.accounts.loadPrincipal(userId);
      if (!target) throw notFound(MSG.userNotFound);
      // Moderators must be able to watch whatever they moderate.
      if (mayPassPaywall(target) || (await deps.moderators.appointedIds(row.userId)).includes(userId)) throw forbidden(MSG.cannotBanModerator);
      await db.transaction(async (tx) => {
        const banned = await tx.insert(streamBans).values({ streamId, userId }).onConflictDoNothing().returning({ userId: streamBans.userId });
        if (byModerator && banned.length > 0) {
          await recordAudit(tx, { actorId: principal.userId, action: 'stream.ban-viewer', targetType: 'stream', targetId: streamId, before: { owner_id: row.userId }, after: { banned_user_id: userId } });
        }
      });
      await deps.events.emit('stream.viewer-banned', { streamId, userId });
    },
  };
}

export type StreamInteractions = ReturnType<typeof createStreamInteractions>;
