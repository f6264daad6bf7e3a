/** Streams: the broadcaster's current stream, setup, go live, who may watch, join and leave. */
import { createHash } from 'node:crypto';
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { LIVE_TAG, type IngestHealth as IngestHealthAnswer, type updateStreamInfo } from '../../../common/api/streams';
import { breaksPaidStaysPaid, owedTips } from '../../../common/rules/pay-wall';
import { subscriberMinimum } from '../../../common/rules/plans';
import { ADULT_AGE, RECOMMENDED_KEYFRAME_INTERVAL_S } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import type { Permission } from '../../../common/permissions';
import { SKINS, type Rating, type SkinId } from '../../../common/skins';
import { streamChannelOf } from '../../../common/realtime';
import type { Db, Executor } from '../../platform/db/client';
import type { DomainEventHub } from '../../platform/events';
import type { EventOutbox } from '../../platform/event-outbox';
import type { IngestHealth } from '../../platform/media/ingest-session';
import { channelMembersSql } from '../../platform/realtime/presence';
import type { Principal } from '../../platform/http/auth';
import { AppError, appError, badRequest, conflict, forbidden, notFound } from '../../platform/http/errors';
import { activeUserSql, type AccountsService } from '../accounts';
import type { Ledger } from '../ledger';
import type { SocialService } from '../social';
import { activeBenefits, activeBenefitsSql, type Benefits } from '../subscriptions';
import { toStreamInfo, isPlayable, type AdCampaign, type StreamRow } from './stream-view';
import { streamBans, streamRatings, streams, streamSaves, streamViews } from './tables';
import './events';

/** What the streams module asks of the media layer (wired in app.ts). */
export interface MediaControl {
  /**
   * A signed, short-lived HLS address of the stream, for this viewer only (`viewer`: playbackViewer), played
   * from this client only (`client`: the session or browser the gate finds on each fetch, playbackClientOf).
   */
  playbackUrl(streamId: number, viewer: string, client: string): Promise<string>;
  /** End the stream's broadcast if one runs (moderation, deletion). */
  stopBroadcast(streamId: number): Promise<void>;
  /** Grab a new thumbnail from the live video; false when not live. */
  grabThumbnail(streamId: number): Promise<boolean>;
  /** The stream's ingest health from the media instance that ingests it; null when none does. */
  ingestHealth(streamId: number): Promise<IngestHealth | null>;
}

export interface Viewer {
  principal: Principal | null;
  skin: SkinId;
  /** Stable for a guest's address, so a guest counts once per stream. */
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

/** 402 with the coins still owed; the web shows the pay wall. */
export const paymentRequired = (owed: number) => appError('stream_payment_required', fill(MSG.tipToWatch, { owed }), { tip_owed: owed });

/** Whether a stream with this rating may belong to the skin (18+ only where adult content is offered). */
const skinKeepsRating = (rating: Rating, skin: SkinId) => rating !== 'PLUS_18' || SKINS[skin].flags.adultContent;

export const mayStreamWithRating = (perms: readonly string[], rating: Rating, skin: SkinId) =>
  perms.includes(LIVE_PERMISSION[rating]) && skinKeepsRating(rating, skin);

const SIGNED_IN_KEY = 'user:';

/**
 * A guest is their address: views, presence and playback count a guest once per address, never by a
 * header the client writes (a rotated User-Agent made one address forty viewers). The address is the
 * one TRUST_PROXY allows (request.ip).
 */
export const guestKeyOf = (ip: string) => `guest:${createHash('sha256').update(ip).digest('base64url').slice(0, 22)}`;

/**
 * The priority chat channel is for the owner, and for the broadcaster's subscribers whose plan gives
 * priority chat, where the skin has subscriptions (spec part 1 §6). `benefits`: the viewer's
 * subscription to the broadcaster now (subscriberBenefits).
 */
export const mayUsePriorityChat = (row: StreamRow, viewer: Viewer, benefits: Benefits | null) =>
  viewer.principal?.userId === row.userId || Boolean(benefits?.priority_chat);

/** What the viewer's subscription to the stream's broadcaster gives now, where the viewer's skin has subscriptions. */
export async function subscriberBenefits(exec: Executor, row: Pick<StreamRow, 'userId'>, viewer: Viewer): Promise<Benefits | null> {
  if (!viewer.principal || !SKINS[viewer.skin].flags.subscriptions) return null;
  return activeBenefits(exec, viewer.principal.userId, row.userId);
}

/** The coins this viewer must have tipped to watch: the viewer minimum, or a subscriber's (their plan's discount off it; spec part 1 §6). */
export const minimumFor = (row: Pick<StreamRow, 'tipViewerMinAmount'>, benefits: Benefits | null): number =>
  benefits ? subscriberMinimum(row.tipViewerMinAmount, benefits.no_paywall ? 1 : benefits.discount) : row.tipViewerMinAmount;

/** The viewer as views, likes and playback know them: the signed-in user, else the guest's browser. */
export const viewerKey = (viewer: Viewer) => (viewer.principal ? `${SIGNED_IN_KEY}${viewer.principal.userId}` : viewer.guestKey);
/** The user id a viewer key stands for, or null for a visitor's. */
export const userIdOfViewerKey = (key: string): number | null => (key.startsWith(SIGNED_IN_KEY) ? Number(key.slice(SIGNED_IN_KEY.length)) : null);

/** Who a playback address is for: the viewer and the skin they watch in (an 18+ stream plays only in its skin). */
export const playbackViewer = (viewer: Viewer) => `${viewerKey(viewer)}|${viewer.skin}`;

/**
 * True (as SQL) when the stream is plainly open to the viewer: this owner's, not deleted or hidden,
 * public, not 18+, no ban on the viewer, broadcaster active. The SQL form of assertMayWatch's common
 * case, for statements that must stay one round trip (a tip); anything else takes assertMayWatch.
 */
export const plainlyWatchableSql = (streamId: number | SQL, ownerId: number | SQL, viewerId: number | SQL) => sql`exists (
  select 1 from ${streams} s
  where s.id = ${streamId} and s.user_id = ${ownerId} and s.deleted_at is null and not s.hidden and s.audience = 'PUBLIC' and s.rating <> 'PLUS_18'
    and not exists (select 1 from ${streamBans} b where b.stream_id = s.id and b.user_id = ${viewerId})
    and ${activeUserSql(sql`s.user_id`)})`;

/**
 * minimumFor as SQL, for the one-statement tip: a subscriber's minimum is ceil(minimum × (1 − discount)
 * / 10) × 10, none with no pay wall or a discount of 1 (subscriberMinimum; a test holds the two equal).
 */
export const minimumSql = (streamId: number | SQL, viewerId: number | SQL) => sql`select case
    when b.benefits is null or st.tip_viewer_min_amount <= 0 then st.tip_viewer_min_amount
    when (b.benefits->>'no_paywall')::boolean or (b.benefits->>'discount')::float8 >= 1 then 0
    when (b.benefits->>'discount')::float8 <= 0 then st.tip_viewer_min_amount
    else least(st.tip_viewer_min_amount, ceil(st.tip_viewer_min_amount * (1 - (b.benefits->>'discount')::float8) / 10) * 10)::int end
  from ${streams} st, lateral (select ${activeBenefitsSql(viewerId, sql`st.user_id`)} as benefits) b where st.id = ${streamId}`;

const INGEST_STATE = { starting: 'starting', live: 'live', grace: 'reconnecting', ending: 'ending', ended: 'ending' } as const;

/** The ingest's measurement as the owner reads it, with a warning where the encoder should be set differently. */
export function ingestHealthAnswer({ state, reading }: IngestHealth): IngestHealthAnswer {
  const keyframes = reading?.keyframeIntervalSeconds ?? null;
  return {
    state: INGEST_STATE[state],
    bitrate_kbps: reading?.bitrateKbps ?? null,
    frame_rate: reading?.framesPerSecond ?? null,
    width: reading?.width ?? null,
    height: reading?.height ?? null,
    keyframe_interval: keyframes,
    video_codec: reading?.videoCodec ?? null,
    audio_codec: reading?.audioCodec ?? null,
    measured_seconds: reading?.measuredSeconds ?? 0,
    warnings: keyframes !== null && keyframes > RECOMMENDED_KEYFRAME_INTERVAL_S
      ? [fill(MSG.keyframeIntervalTooLong, { seconds: keyframes, max: RECOMMENDED_KEYFRAME_INTERVAL_S })]
      : [],
  };
}

/** A stream's ad campaign and whether it has offers (the stream info's campaign_id and has_offers). */
export type AdCampaigns = (streamId: number) => Promise<AdCampaign>;

/**
 * Likes given on streams in realtime (LIKE): by every viewer (stream id → likes), and by one; stored by
 * the chat module (the stream info's rlikes).
 */
export interface RealtimeLikes {
  onStreams(streamIds: number[]): Promise<Map<number, number>>;
  byViewer(streamId: number, userId: number, exec: Executor): Promise<number>;
}

export function createStreamsService(deps: {
  db: Db;
  accounts: AccountsService;
  social: SocialService;
  ledger: Ledger;
  media: MediaControl;
  events: DomainEventHub;
  /** `stream.went-live` is written with the go-live: the followers' notices follow it at least once. */
  outbox: EventOutbox;
  /** Drops the cached listings on every instance: a title, an audience, a go-live or an end shows in them. */
  listingsChanged?: () => Promise<void>;
  /** The hooks the chat module (realtime likes) and the ads module (a stream's campaign), after this one, fill. */
  realtimeLikes: () => RealtimeLikes;
  adCampaigns: () => AdCampaigns;
}) {
  const { db, accounts, social, events } = deps;
  const realtimeLikes: RealtimeLikes = {
    onStreams: (streamIds) => deps.realtimeLikes().onStreams(streamIds),
    byViewer: (streamId, userId, exec) => deps.realtimeLikes().byViewer(streamId, userId, exec),
  };
  const adCampaignOf: AdCampaigns = (streamId) => deps.adCampaigns()(streamId);

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

  /** The owner, privileged viewers and subscribers whose plan lifts the pay wall never meet it. */
  const skipsPaywall = (row: StreamRow, viewer: Viewer, benefits: Benefits | null) =>
    viewer.principal?.userId === row.userId || mayPassPaywall(viewer.principal) || Boolean(benefits && (benefits.no_paywall || benefits.discount >= 1));

  /** What the viewer tipped on the stream and what is still owed (spec part 1 §4: owed = minimum − spent, the minimum a subscriber's where they are one). */
  async function payment(row: StreamRow, viewer: Viewer, exec: Executor = db, known?: Benefits | null) {
    const [spend, benefits] = await Promise.all([
      deps.ledger.spendOnStream(row.id, viewer.principal?.userId ?? null, exec),
      known === undefined ? subscriberBenefits(exec, row, viewer) : Promise.resolve(known),
    ]);
    return { spend, owed: owedTips(minimumFor(row, benefits), spend) };
  }

  /** The pay wall, in one place: stream-join, playback and the realtime subscription call it. */
  async function assertPaidUp(row: StreamRow, viewer: Viewer) {
    if (row.tipViewerMinAmount <= 0) return;
    const benefits = await subscriberBenefits(db, row, viewer);
    if (skipsPaywall(row, viewer, benefits)) return;
    const { owed } = await payment(row, viewer, db, benefits);
    if (owed > 0) throw paymentRequired(owed);
  }

  /** Whether the viewer may read and write the stream's priority chat now. */
  async function mayChatWithPriority(row: StreamRow, viewer: Viewer): Promise<boolean> {
    if (viewer.principal?.userId === row.userId) return true;
    return mayUsePriorityChat(row, viewer, await subscriberBenefits(db, row, viewer));
  }

  async function info(row: StreamRow, viewer: Viewer) {
    const viewerId = viewer.principal?.userId ?? null;
    const benefits = await subscriberBenefits(db, row, viewer);
    const [broadcaster, relation, viewers, rlikes, views, marks, paid, campaign] = await Promise.all([
      accounts.publicUsers([row.userId]),
      social.relation(viewerId, row.userId),
      activeViewers(row.id),
      realtimeLikes.onStreams([row.id]).then((likes) => likes.get(row.id) ?? 0),
      db.select({ likes: streamViews.likes }).from(streamViews)
        .where(and(eq(streamViews.streamId, row.id), eq(streamViews.viewerKey, viewerKey(viewer)))),
      viewerMarks(row.id, viewerId),
      payment(row, viewer, db, benefits),
      adCampaignOf(row.id),
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
      if (banned) throw appError('block');
    }
    if (row.rating === 'PLUS_18') {
      const adult = SKINS[viewer.skin].flags.adultContent && viewerId !== null && ((await accounts.ageOf(viewerId)) ?? 0) >= ADULT_AGE;
      if (!adult) throw forbidden(MSG.streamAdultOnly);
    }
    if (row.audience === 'PRIVATE') throw forbidden(MSG.streamPrivate);
    if (row.audience === 'SUBSCRIBERS' && !(await subscriberBenefits(db, row, viewer))) throw forbidden(MSG.streamSubscribersOnly);
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
    /** Realtime likes of each stream (tiles' rlikes). */
    realtimeLikesOn: (streamIds: number[]) => realtimeLikes.onStreams(streamIds),
    payment,
    /** payment, for a stream read by id whatever the viewer may see of it now (a tip's answer after its coins moved). */
    async paymentById(streamId: number, viewer: Viewer) {
      const [row] = await db.select().from(streams).where(eq(streams.id, streamId));
      return row ? payment(row, viewer) : { spend: await deps.ledger.spendOnStream(streamId, viewer.principal?.userId ?? null), owed: 0 };
    },
    plainlyWatchableSql,
    minimumSql,

    /** Likes this user saved on the stream when leaving it (leave-stream). */
    async savedLikes(streamId: number, userId: number, exec: Executor = db): Promise<number> {
      const [saved] = await exec.select({ n: sql<number>`coalesce(sum(${streamViews.likes}), 0)::int` }).from(streamViews)
        .where(and(eq(streamViews.streamId, streamId), eq(streamViews.userId, userId)));
      return saved?.n ?? 0;
    },

    /** The user's streams that have not ended (their viewers' rights may change with the broadcaster's subscriptions). */
    async openStreamIdsOf(userId: number): Promise<number[]> {
      const rows = await db.select({ id: streams.id }).from(streams)
        .where(and(eq(streams.userId, userId), isNull(streams.endedAt), isNull(streams.deletedAt)));
      return rows.map((r) => r.id);
    },

    /** When the user's latest stream started; null if they never went live. */
    async lastStreamStartedAt(userId: number): Promise<Date | null> {
      const [row] = await db.select({ at: sql<Date | string | null>`max(${streams.startedAt})` }).from(streams).where(eq(streams.userId, userId));
      return row?.at ? new Date(row.at) : null;
    },
    assertPaidUp,
    mayChatWithPriority,

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
        throw badRequest(MSG.privateReplayAudience, 'data.audience');
      }
      if (data.tip_viewer_min_amount !== undefined && breaksPaidStaysPaid(row.tipViewerMinAmount, data.tip_viewer_min_amount)) {
        throw badRequest(MSG.paidStaysPaid, 'data.tip_viewer_min_amount');
      }
      const title = data.title === undefined ? undefined : data.title.includes(LIVE_TAG) ? data.title : `${data.title} ${LIVE_TAG}`;
      const [updated] = await db.update(streams).set({
        ...(title !== undefined ? { title } : {}),
        ...(data.description !== undefined ? { description: data.description } : {}),
        ...(data.audience ? { audience: data.audience } : {}),
        ...(data.rating ? { rating: data.rating } : {}),
        // The stream is set up where it is saved, unless its 18+ rating cannot play there (it stays where it can).
        ...(skinKeepsRating(data.rating ?? row.rating, skin) ? { skin } : {}),
        ...(data.chat_enabled !== undefined ? { chatEnabled: data.chat_enabled } : {}),
        ...(data.tip_viewer_min_amount !== undefined ? { tipViewerMinAmount: data.tip_viewer_min_amount } : {}),
        setupAt: row.setupAt ?? new Date(),
        updatedAt: new Date(),
      }).where(and(
        eq(streams.id, streamId),
        // A concurrent edit that made the stream paid wins over one making it free.
        data.tip_viewer_min_amount === 0 ? eq(streams.tipViewerMinAmount, 0) : undefined,
      )).returning();
      if (!updated) throw badRequest(MSG.paidStaysPaid, 'data.tip_viewer_min_amount');
      const priceChanged = data.tip_viewer_min_amount !== undefined && row.tipViewerMinAmount !== updated.tipViewerMinAmount;
      if (data.chat_enabled !== undefined) await events.emit('stream.options-changed', { streamId, chatEnabled: updated.chatEnabled });
      // Viewers hear the new price first; then sockets of those who now owe leave the channels.
      if (priceChanged) await events.emit('stream.price-changed', { streamId, tipViewerMinAmount: updated.tipViewerMinAmount });
      if (data.audience !== undefined || data.rating !== undefined || priceChanged) await events.emit('stream.access-changed', { streamId });
      else await deps.listingsChanged?.();
      return updated;
    },

    async goLive(streamId: number, principal: Principal) {
      const row = await findStream(streamId);
      assertOwner(row, principal);
      if (!row.setupAt || row.title.trim() === '') throw badRequest(MSG.updateBroadcastInfoFirst);
      const { updated, wentLive } = await db.transaction(async (tx) => {
        const [shown] = await tx.update(streams).set({ hidden: false, updatedAt: new Date() }).where(eq(streams.id, streamId)).returning();
        const live = shown!.live ? { streamId, ownerId: shown!.userId, title: shown!.title } : null;
        if (live) await deps.outbox.write(tx, 'stream.went-live', live);
        return { updated: shown!, wentLive: live };
      });
      if (wentLive) await deps.outbox.afterCommit('stream.went-live', wentLive);
      else await deps.listingsChanged?.();
      return updated;
    },

    /**
     * The owner ends the broadcast. The media instance disconnects the encoder and closes the playlist
     * (its onEnded hook then records the replay's length and tells viewers); the row is marked ended
     * here too, so the answer, and the next get-live-stream, are true on any instance at once.
     */
    async endStream(streamId: number, principal: Principal) {
      const row = await findStream(streamId);
      assertOwner(row, principal);
      if (!row.live) throw conflict(MSG.streamNotLive);
      await deps.media.stopBroadcast(streamId);
      await db.update(streams).set({ live: false, endedAt: sql`coalesce(${streams.endedAt}, now())`, updatedAt: new Date() })
        .where(eq(streams.id, streamId));
      await deps.listingsChanged?.();
      return findStream(streamId);
    },

    /** The owner's reading of their encoder's feed, from the instance that ingests it; null while nothing publishes. */
    async ingestHealth(streamId: number, principal: Principal): Promise<IngestHealthAnswer | null> {
      const row = await findStream(streamId);
      assertOwner(row, principal);
      if (!row.live) return null;
      const health = await deps.media.ingestHealth(streamId);
      return health && ingestHealthAnswer(health);
    },

    /** Joining records the view and answers the playback address signed for this viewer on this client. */
    async join(streamId: number, viewer: Viewer, client: string) {
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
      return { row: await findStream(streamId), hls: await deps.media.playbackUrl(streamId, playbackViewer(viewer), client) };
    },

    /** Whether the viewer may play the stream now: the watch rules and the pay wall, as stream-join applies them. */
    async mayPlay(streamId: number, viewer: Viewer): Promise<boolean> {
      try {
        const row = await findStream(streamId);
        await assertMayWatch(row, viewer);
        if (!isPlayable(row)) return false;
        await assertPaidUp(row, viewer);
        return true;
      } catch (error) {
        if (error instanceof AppError) return false;
        throw error;
      }
    },

    async lookup(streamId: number, viewer: Viewer) {
      const row = await findStream(streamId);
      await assertMayWatch(row, viewer);
      return row;
    },

    /** Leaving saves a signed-in viewer's likes given while watching, up to the limit; the stream gains only what was added. */
    async leave(streamId: number, viewer: Viewer, likes: number, likeLimit: number) {
      const row = await findStream(streamId);
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
        const realtime = viewer.principal ? await realtimeLikes.byViewer(row.id, viewer.principal.userId, tx) : 0;
        const added = saved - Math.max(open.likes, realtime);
        if (added > 0 && viewer.principal?.userId !== row.userId) {
          await tx.update(streams).set({ likes: sql`${streams.likes} + ${added}` }).where(eq(streams.id, row.id));
        }
      });
    },
  };
}

export type StreamsService = ReturnType<typeof createStreamsService>;
