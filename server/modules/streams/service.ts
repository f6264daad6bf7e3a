/** Streams: the broadcaster's current stream, setup, go live, who may watch, join and leave. */
import { createHash } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { LIVE_TAG, MSG_PAID_STAYS_PAID, type updateStreamInfo } from '../../../common/api/streams';
import { ADULT_AGE } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import type { Permission } from '../../../common/permissions';
import { SKINS, type Rating, type SkinId } from '../../../common/skins';
import { streamChannelOf } from '../../../common/realtime';
import type { Db, Executor } from '../../platform/db/client';
import { channelMembersSql } from '../../platform/realtime/presence';
import type { Principal } from '../../platform/http/auth';
import { AppError, badRequest, forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts/service';
import { ledgerTransfers } from '../ledger/tables';
import type { SocialService } from '../social/service';
import { toStreamInfo, isPlayable, type StreamRow } from './stream-view';
import { streamBans, streamRatings, streams, streamSaves, streamViews } from './tables';

/** What the streams module asks of the media layer (wired in app.ts). */
export interface MediaControl {
  /** A signed, short-lived HLS address for the stream. */
  playbackUrl(streamId: number): Promise<string>;
  /** End the stream's broadcast if one runs (moderation, deletion). */
  stopBroadcast(streamId: number): Promise<void>;
  /** Grab a new thumbnail from the live video; false when not live. */
  grabThumbnail(streamId: number): Promise<boolean>;
}

export interface Viewer {
  principal: Principal | null;
  skin: SkinId;
  /** Stable for a guest's browser, so a guest counts once per stream. */
  guestKey: string;
}

type SetupData = z.output<typeof updateStreamInfo.input>['data'];

const LIVE_PERMISSION: Record<Rating, Permission> = {
  G: 'CREATE STREAM_LIVE_G',
  PLUS_14: 'CREATE STREAM_LIVE_PLUS14',
  PLUS_18: 'CREATE STREAM_LIVE_PLUS18',
};

/**
 * Who may watch whatever the audience and rating: admins and holders of GRANT PERMISSION (who end,
 * delete and suspend). UPDATE STREAM_ANY and ALLOW REPORT_STREAM_HIDE only pass the pay wall (spec §6).
 */
export const mayWatchAnything = (p: Principal | null) => Boolean(p && (p.role === 'admin' || p.perms.includes('GRANT PERMISSION')));

/** Admins act on any stream; others need one of the given permissions. */
export const mayActOnAnyStream = (p: Principal, ...perms: Permission[]) => p.role === 'admin' || perms.some((perm) => p.perms.includes(perm));

/** Who watches a paid stream without tipping (spec part 1 §6): admins and three permissions. The owner too, see assertPaidUp. */
export const mayPassPaywall = (p: Principal | null) =>
  Boolean(p && mayActOnAnyStream(p, 'GRANT PERMISSION', 'UPDATE STREAM_ANY', 'ALLOW REPORT_STREAM_HIDE'));

/** 402 "payment_required" with the coins still owed; the web shows the pay wall. */
export const paymentRequired = (owed: number) =>
  new AppError(402, 'payment_required', `Tip ${owed} coins to watch this stream.`, { tip_owed: owed });

/** Coins this user tipped on this stream (the pay wall counts these). */
export async function viewerSpendOn(exec: Executor, streamId: number, userId: number | null): Promise<number> {
  if (userId === null) return 0;
  const [row] = await exec.select({ n: sql<string | number>`coalesce(sum(${ledgerTransfers.amount}), 0)` }).from(ledgerTransfers)
    .where(and(eq(ledgerTransfers.streamId, streamId), eq(ledgerTransfers.fromUserId, userId), eq(ledgerTransfers.kind, 'tip'),
      eq(ledgerTransfers.currency, 'CON')));
  return Number(row?.n ?? 0);
}

export const mayStreamWithRating = (perms: readonly string[], rating: Rating, skin: SkinId) =>
  perms.includes(LIVE_PERMISSION[rating]) && (rating !== 'PLUS_18' || SKINS[skin].flags.adultContent);

export const guestKeyOf = (ip: string, userAgent: string | undefined) =>
  `guest:${createHash('sha256').update(`${ip}|${userAgent ?? ''}`).digest('base64url').slice(0, 22)}`;

/**
 * The priority chat channel is for the owner, and for the broadcaster's subscribers where the skin
 * has subscriptions; subscriptions arrive with their own module, until then only the owner qualifies.
 */
export const mayUsePriorityChat = (row: StreamRow, viewer: Viewer) => viewer.principal?.userId === row.userId;

const viewerKey = (viewer: Viewer) => (viewer.principal ? `user:${viewer.principal.userId}` : viewer.guestKey);

export function createStreamsService(deps: { db: Db; accounts: AccountsService; social: SocialService; media: MediaControl }) {
  const { db, accounts, social } = deps;

  async function findStream(streamId: number): Promise<StreamRow> {
    const [row] = await db.select().from(streams).where(and(eq(streams.id, streamId), isNull(streams.deletedAt)));
    if (!row) throw notFound(MSG.streamNotAvailable);
    return row;
  }

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

  /**
   * The coins this viewer must have tipped to watch. Subscriptions (their own issue) bring a
   * subscriber minimum and discount, and a no-paywall plan feature: they belong here.
   */
  function minimumFor(row: StreamRow, _viewer: Viewer): number {
    return row.tipViewerMinAmount;
  }

  /** The owner and privileged viewers never meet the pay wall. */
  const skipsPaywall = (row: StreamRow, viewer: Viewer) => viewer.principal?.userId === row.userId || mayPassPaywall(viewer.principal);

  /** What the viewer tipped on the stream and what is still owed (spec part 1 §4: owed = minimum − spent). */
  async function payment(row: StreamRow, viewer: Viewer, exec: Executor = db) {
    const spend = await viewerSpendOn(exec, row.id, viewer.principal?.userId ?? null);
    return { spend, owed: Math.max(0, minimumFor(row, viewer) - spend) };
  }

  /** The pay wall, in one place: stream-join and the realtime subscription call it. */
  async function assertPaidUp(row: StreamRow, viewer: Viewer) {
    if (minimumFor(row, viewer) <= 0 || skipsPaywall(row, viewer)) return;
    const { owed } = await payment(row, viewer);
    if (owed > 0) throw paymentRequired(owed);
  }

  async function info(row: StreamRow, viewer: Viewer) {
    const viewerId = viewer.principal?.userId ?? null;
    const [broadcaster, relation, viewers, views, marks, paid] = await Promise.all([
      accounts.publicUsers([row.userId]),
      social.relation(viewerId, row.userId),
      activeViewers(row.id),
      db.select({ likes: streamViews.likes }).from(streamViews)
        .where(and(eq(streamViews.streamId, row.id), eq(streamViews.viewerKey, viewerKey(viewer)))),
      viewerMarks(row.id, viewerId),
      payment(row, viewer),
    ]);
    const user = broadcaster.get(row.userId) ?? { username: '', fullname: '', avatar: null };
    return toStreamInfo(row, user, {
      isOwner: viewerId === row.userId,
      isFollowing: relation.isFollowing,
      followingNotify: relation.notify,
      viewerLikes: views[0]?.likes ?? 0,
      viewers,
      ...marks,
      priorityChat: mayUsePriorityChat(row, viewer),
      viewerSpend: paid.spend,
      tipOwed: paid.owed,
      skipPaywall: skipsPaywall(row, viewer),
    });
  }

  /** Refuses what the viewer may not watch; the owner and moderators always may. */
  async function assertMayWatch(row: StreamRow, viewer: Viewer) {
    const viewerId = viewer.principal?.userId ?? null;
    if (viewerId === row.userId) return;
    if (row.hidden) throw notFound(MSG.streamNotAvailable);
    if (mayWatchAnything(viewer.principal)) return;
    if (viewerId !== null) {
      const [banned] = await db.select().from(streamBans).where(and(eq(streamBans.streamId, row.id), eq(streamBans.userId, viewerId)));
      if (banned) throw new AppError(403, 'block', MSG.streamBlocked);
    }
    if (row.rating === 'PLUS_18') {
      const adult = SKINS[viewer.skin].flags.adultContent && viewerId !== null && ((await accounts.ageOf(viewerId)) ?? 0) >= ADULT_AGE;
      if (!adult) throw forbidden(MSG.streamAdultOnly);
    }
    if (row.audience === 'PRIVATE') throw forbidden(MSG.streamPrivate);
    if (row.audience === 'SUBSCRIBERS') throw forbidden(MSG.streamSubscribersOnly);
    if (row.audience === 'FOLLOWERS' && !(await social.relation(viewerId, row.userId)).isFollowing) {
      throw forbidden(MSG.streamFollowersOnly);
    }
  }

  /** A featured stream makes a logged-in viewer follow its broadcaster, with notifications on (spec part 1 §4). */
  async function followFeatured(row: StreamRow, viewer: Viewer) {
    const viewerId = viewer.principal?.userId;
    if (viewerId === undefined || viewerId === row.userId) return;
    // An existing follow stays as the viewer left it (a bell they turned off stays off).
    if ((await social.relation(viewerId, row.userId)).isFollowing) return;
    await social.setFollowing(viewerId, row.userId, true, true);
  }

  function assertOwner(row: StreamRow, principal: Principal) {
    if (row.userId !== principal.userId) throw notFound(MSG.streamNotAvailable);
  }

  return {
    findStream,
    info,
    activeViewers,
    payment,
    /** payment, for a stream read by id whatever the viewer may see of it now (a tip's answer after its coins moved). */
    async paymentById(streamId: number, viewer: Viewer) {
      const [row] = await db.select().from(streams).where(eq(streams.id, streamId));
      return row ? payment(row, viewer) : { spend: await viewerSpendOn(db, streamId, viewer.principal?.userId ?? null), owed: 0 };
    },
    assertPaidUp,

    /** The broadcaster's stream that has not ended; a new one (with the last setup, hidden) otherwise. */
    async currentStream(userId: number, skin: SkinId): Promise<StreamRow> {
      const open = () =>
        db.select().from(streams)
          .where(and(eq(streams.userId, userId), isNull(streams.endedAt), isNull(streams.deletedAt)))
          .limit(1);
      const [existing] = await open();
      if (existing) return existing;
      const [last] = await db.select().from(streams).where(eq(streams.userId, userId)).orderBy(desc(streams.id)).limit(1);
      await db.insert(streams).values({
        userId,
        skin,
        rating: last?.rating ?? SKINS[skin].defaultRating,
        ...(last
          ? {
              title: last.title,
              description: last.description,
              audience: last.audience,
              chatEnabled: last.chatEnabled,
              setupAt: last.setupAt,
              // A moderator's decision outlives one broadcast.
              ratingLocked: last.ratingLocked,
              audienceLocked: last.audienceLocked,
            }
          : {}),
      }).onConflictDoNothing(); // another request created it first (one open stream per broadcaster)
      const [created] = await open();
      return created!;
    },

    /** Broadcast setup and the owner's edit form. Saving marks the stream ready for Go Live. */
    async updateSetup(streamId: number, principal: Principal, data: SetupData, skin: SkinId) {
      const row = await findStream(streamId);
      assertOwner(row, principal);
      if (data.rating && row.ratingLocked && data.rating !== row.rating) throw forbidden(MSG.setByModerator);
      if (data.audience && row.audienceLocked && data.audience !== row.audience && data.audience !== 'PRIVATE') {
        throw forbidden(MSG.setByModerator);
      }
      if (data.rating && data.rating !== row.rating && !mayStreamWithRating(principal.perms, data.rating, skin)) {
        throw forbidden(MSG.ratingNotAllowed);
      }
      if (data.audience && row.audience === 'PRIVATE' && data.audience !== 'PRIVATE' && row.endedAt) {
        throw badRequest('The audience of a private replay cannot change.', 'data.audience');
      }
      if (data.tip_viewer_min_amount !== undefined && row.tipViewerMinAmount > 0 && data.tip_viewer_min_amount <= 0) {
        throw badRequest(MSG_PAID_STAYS_PAID, 'data.tip_viewer_min_amount');
      }
      const title = data.title === undefined ? undefined : data.title.includes(LIVE_TAG) ? data.title : `${data.title} ${LIVE_TAG}`;
      const [updated] = await db.update(streams).set({
        ...(title !== undefined ? { title } : {}),
        ...(data.description !== undefined ? { description: data.description } : {}),
        ...(data.audience ? { audience: data.audience } : {}),
        ...(data.rating ? { rating: data.rating } : {}),
        ...(data.chat_enabled !== undefined ? { chatEnabled: data.chat_enabled } : {}),
        ...(data.tip_viewer_min_amount !== undefined ? { tipViewerMinAmount: data.tip_viewer_min_amount } : {}),
        setupAt: row.setupAt ?? new Date(),
        updatedAt: new Date(),
      }).where(and(
        eq(streams.id, streamId),
        // A concurrent edit that made the stream paid wins over one making it free.
        data.tip_viewer_min_amount === 0 ? eq(streams.tipViewerMinAmount, 0) : undefined,
      )).returning();
      if (!updated) throw badRequest(MSG_PAID_STAYS_PAID, 'data.tip_viewer_min_amount');
      return updated;
    },

    async goLive(streamId: number, principal: Principal) {
      const row = await findStream(streamId);
      assertOwner(row, principal);
      if (!row.setupAt || row.title.trim() === '') throw badRequest(MSG.updateBroadcastInfoFirst);
      const [updated] = await db.update(streams).set({ hidden: false, updatedAt: new Date() }).where(eq(streams.id, streamId)).returning();
      return updated!;
    },

    /** Joining records the view and answers the signed playback address. */
    async join(streamId: number, viewer: Viewer) {
      const row = await findStream(streamId);
      await assertMayWatch(row, viewer);
      if (!isPlayable(row)) throw notFound(MSG.streamNotAvailable);
      await assertPaidUp(row, viewer);
      const inserted = await db.insert(streamViews)
        .values({ streamId, viewerKey: viewerKey(viewer), userId: viewer.principal?.userId ?? null })
        .onConflictDoUpdate({ target: [streamViews.streamId, streamViews.viewerKey], set: { leftAt: null, joinedAt: new Date() } })
        .returning({ firstTime: sql<boolean>`(xmax = 0)` });
      if (inserted[0]?.firstTime) {
        await db.update(streams).set({ totalViews: sql`${streams.totalViews} + 1` }).where(eq(streams.id, streamId));
      }
      if (row.featured) await followFeatured(row, viewer);
      return { row: await findStream(streamId), hls: await deps.media.playbackUrl(streamId) };
    },

    async lookup(streamId: number, viewer: Viewer) {
      const row = await findStream(streamId);
      await assertMayWatch(row, viewer);
      return row;
    },

    /** Leaving saves the likes given while watching, up to the limit; the stream gains only what was added. */
    async leave(streamId: number, viewer: Viewer, likes: number, likeLimit: number) {
      const row = await findStream(streamId);
      await db.transaction(async (tx) => {
        const viewOf = and(eq(streamViews.streamId, row.id), eq(streamViews.viewerKey, viewerKey(viewer)));
        // Only a view that is still open can leave: repeating leave-stream adds nothing.
        const [open] = await tx.select({ likes: streamViews.likes }).from(streamViews).where(and(viewOf, isNull(streamViews.leftAt))).for('update');
        if (!open) return;
        const saved = Math.min(open.likes + likes, likeLimit);
        await tx.update(streamViews).set({ leftAt: new Date(), likes: saved }).where(viewOf);
        const added = saved - open.likes;
        if (added > 0 && viewer.principal?.userId !== row.userId) {
          await tx.update(streams).set({ likes: sql`${streams.likes} + ${added}` }).where(eq(streams.id, row.id));
        }
      });
    },

    async remove(streamId: number, principal: Principal) {
      const row = await findStream(streamId);
      if (row.userId !== principal.userId && !mayActOnAnyStream(principal, 'GRANT PERMISSION')) throw notFound(MSG.streamNotAvailable);
      await db.update(streams).set({ deletedAt: new Date(), hidden: true, updatedAt: new Date() }).where(eq(streams.id, streamId));
      if (row.live) await deps.media.stopBroadcast(streamId);
    },

    async refreshThumbnail(streamId: number, principal: Principal) {
      const row = await findStream(streamId);
      const mayEdit = row.userId === principal.userId || mayActOnAnyStream(principal, 'UPDATE STREAM_ANY');
      if (!mayEdit) throw notFound(MSG.streamNotAvailable);
      if (!(await deps.media.grabThumbnail(streamId))) throw badRequest('The stream is not live: there is no picture to take.');
      return `/media/thumbs/${streamId}.jpg?v=${Date.now()}`;
    },
  };
}

export type StreamsService = ReturnType<typeof createStreamsService>;
