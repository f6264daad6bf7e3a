/**
 * Watching a stream: joining (the view counted, the playback address), the stream as its viewer sees it,
 * who watches now, and likes — saved on leaving, and given in realtime (held by the chat module).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import type { StreamGoal } from '../../../common/api/streams';
import { streamChannelOf } from '../../../common/realtime';
import type { Db, Executor } from '../../platform/db/client';
import { channelMembersSql } from '../../platform/realtime/presence';
import { notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import type { SocialService } from '../social';
import { mayUsePriorityChat, skipsPaywall, subscriberBenefits, type StreamAccess } from './access';
import type { MediaControl } from './media-control';
import type { StreamReads } from './stream-reads';
import { toStreamInfo, isPlayable, type AdCampaign, type StreamRow } from './stream-info';
import { streamRatings, streams, streamSaves, streamViews } from './tables';
import { playbackViewer, viewerKey, type Viewer } from './viewer';

/** A stream's ad campaign and whether it has offers (the stream info's campaign_id and has_offers). */
export type AdCampaigns = (streamId: number) => Promise<AdCampaign>;

/** A stream's active tip goal (the stream info's goal), from the goals module. */
export type ActiveGoals = (streamId: number) => Promise<StreamGoal | null>;

/**
 * Likes given on streams in realtime (LIKE): by every viewer (stream id → likes), and by one; stored by
 * the chat module (the stream info's rlikes).
 */
export interface RealtimeLikes {
  onStreams(streamIds: number[]): Promise<Map<number, number>>;
  byViewer(streamId: number, userId: number, exec: Executor): Promise<number>;
}

export function createStreamViewing(deps: {
  db: Db;
  reads: Pick<StreamReads, 'findStream'>;
  access: Pick<StreamAccess, 'lookup' | 'assertPaidUp' | 'payment'>;
  accounts: Pick<AccountsService, 'publicUsers'>;
  social: Pick<SocialService, 'relation' | 'setFollowing'>;
  media: Pick<MediaControl, 'playbackUrl'>;
  /** The hooks the chat module (realtime likes), the ads module (a stream's campaign) and the goals module, after this one, fill. */
  realtimeLikes: () => RealtimeLikes;
  adCampaigns: () => AdCampaigns;
  activeGoals: () => ActiveGoals;
}) {
  const { db, reads, access, accounts, social } = deps;

  /** Viewers watching now: members of the stream's realtime channel on every instance. */
  async function activeViewers(streamId: number): Promise<number> {
    const [row] = await db.select({ n: channelMembersSql(sql`${streamChannelOf(streamId)}`) }).from(sql`(select 1) as one`);
    return row?.n ?? 0;
  }

  /** What only this viewer's relation to the stream decides: bookmark and own rating. */
  async function viewerMarks(streamId: number, viewerId: number | null) {
    if (viewerId === null) return { saved: false, viewerRating: 0 };
    const [[saved], [rated]] = await Promise.all([
      db.select({ at: streamSaves.createdAt }).from(streamSaves).where(and(eq(streamSaves.streamId, streamId), eq(streamSaves.userId, viewerId))),
      db.select({ rating: streamRatings.rating }).from(streamRatings).where(and(eq(streamRatings.streamId, streamId), eq(streamRatings.userId, viewerId))),
    ]);
    return { saved: saved !== undefined, viewerRating: rated?.rating ?? 0 };
  }

  /** A featured stream makes a logged-in viewer follow its broadcaster, with notifications on (spec part 1 §4). */
  async function followFeatured(row: StreamRow, viewer: Viewer) {
    const viewerId = viewer.principal?.userId;
    if (viewerId === undefined || viewerId === row.userId) return;
    // An existing follow stays as the viewer left it (a bell they turned off stays off).
    if ((await social.relation(viewerId, row.userId)).isFollowing) return;
    await social.setFollowing(viewerId, row.userId, true, true);
  }

  return {
    activeViewers,

    /** Realtime likes of each stream (tiles' rlikes). */
    realtimeLikesOn: (streamIds: number[]) => deps.realtimeLikes().onStreams(streamIds),

    /** Likes this user saved on the stream when leaving it (leave-stream). */
    async savedLikes(streamId: number, userId: number, exec: Executor = db): Promise<number> {
      const [saved] = await exec.select({ n: sql<number>`coalesce(sum(${streamViews.likes}), 0)::int` }).from(streamViews)
        .where(and(eq(streamViews.streamId, streamId), eq(streamViews.userId, userId)));
      return saved?.n ?? 0;
    },

    /** The stream info as this viewer sees it: counts, their relation to the broadcaster, what they paid and owe. */
    async info(row: StreamRow, viewer: Viewer) {
      const viewerId = viewer.principal?.userId ?? null;
      const benefits = await subscriberBenefits(db, row, viewer);
      const [broadcaster, relation, viewers, rlikes, views, marks, paid, campaign, goal] = await Promise.all([
        accounts.publicUsers([row.userId]),
        social.relation(viewerId, row.userId),
        activeViewers(row.id),
        deps.realtimeLikes().onStreams([row.id]).then((likes) => likes.get(row.id) ?? 0),
        db.select({ likes: streamViews.likes }).from(streamViews)
          .where(and(eq(streamViews.streamId, row.id), eq(streamViews.viewerKey, viewerKey(viewer)))),
        viewerMarks(row.id, viewerId),
        access.payment(row, viewer, db, benefits),
        deps.adCampaigns()(row.id),
        deps.activeGoals()(row.id),
      ]);
      const user = broadcaster.get(row.userId) ?? { username: '', fullname: '', avatar: null };
      return toStreamInfo(row, user, {
        isOwner: viewerId === row.userId,
        isFollowing: relation.isFollowing,
        followingNotify: relation.notify,
        viewerLikes: views[0]?.likes ?? 0,
        viewers,
        realtimeLikes: rlikes,
        ...marks,
        priorityChat: mayUsePriorityChat(row, viewer, benefits),
        benefits,
        viewerSpend: paid.spend,
        tipOwed: paid.owed,
        skipPaywall: skipsPaywall(row, viewer, benefits),
        campaign,
        goal,
      });
    },

    /** Joining records the view and answers the playback address signed for this viewer on this client. */
    async join(streamId: number, viewer: Viewer, client: string) {
      const row = await access.lookup(streamId, viewer);
      if (!isPlayable(row)) throw notFound(MSG.streamNotAvailable);
      await access.assertPaidUp(row, viewer);
      const inserted = await db.insert(streamViews)
        .values({ streamId, viewerKey: viewerKey(viewer), userId: viewer.principal?.userId ?? null })
        .onConflictDoUpdate({ target: [streamViews.streamId, streamViews.viewerKey], set: { leftAt: null, joinedAt: new Date() } })
        .returning({ firstTime: sql<boolean>`(xmax = 0)` });
      if (inserted[0]?.firstTime) {
        await db.update(streams).set({ totalViews: sql`${streams.totalViews} + 1` }).where(eq(streams.id, streamId));
      }
      if (row.featured) await followFeatured(row, viewer);
      return { row: await reads.findStream(streamId), hls: await deps.media.playbackUrl(streamId, playbackViewer(viewer), client) };
    },

    /** Leaving saves a signed-in viewer's likes given while watching, up to the limit; the stream gains only what was added. */
    async leave(streamId: number, viewer: Viewer, likes: number, likeLimit: number) {
      const row = await reads.findStream(streamId);
      // A guest's key is their address, which many people may share: likes count from signed-in viewers
      // only, each capped by the limit.
      if (!viewer.principal) likes = 0;
      await db.transaction(async (tx) => {
        const viewOf = and(eq(streamViews.streamId, row.id), eq(streamViews.viewerKey, viewerKey(viewer)));
        // Only a view that is still open can leave: repeating leave-stream adds nothing.
        const [open] = await tx.select({ likes: streamViews.likes }).from(streamViews).where(and(viewOf, isNull(streamViews.leftAt))).for('update');
        if (!open) return;
        const saved = Math.min(open.likes + likes, likeLimit);
        await tx.update(streamViews).set({ leftAt: new Date(), likes: saved }).where(viewOf);
        // Likes already given in realtime are counted (rlikes): the stream gains only what goes past them.
        const realtime = viewer.principal ? await deps.realtimeLikes().byViewer(row.id, viewer.principal.userId, tx) : 0;
        const added = saved - Math.max(open.likes, realtime);
        if (added > 0 && viewer.principal?.userId !== row.userId) {
          await tx.update(streams).set({ likes: sql`${streams.likes} + ${added}` }).where(eq(streams.id, row.id));
        }
      });
    },
  };
}

export type StreamViewing = ReturnType<typeof createStreamViewing>;
