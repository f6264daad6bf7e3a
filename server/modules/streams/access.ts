/**
 * What a viewer may do with a stream (spec part 1 §6): the watch rules (audience, rating, bans), the pay
 * wall and what they still owe, the priority chat. Stream-join, playback, chat, tips, toys and ads ask here.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { owedTips } from '../../../common/rules/pay-wall';
import { subscriberMinimum } from '../../../common/rules/plans';
import { ADULT_AGE } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import type { Permission } from '../../../common/permissions';
import { SKINS } from '../../../common/skins';
import type { Db, Executor } from '../../platform/db/client';
import type { Period } from '../../platform/media/hls-playlist';
import type { Principal } from '../../platform/http/auth';
import { AppError, appError, forbidden, notFound } from '../../platform/http/errors';
import { activeUserSql, type AccountsService } from '../accounts';
import type { Ledger } from '../ledger';
import type { SocialService } from '../social';
import { activeBenefits, activeBenefitsSql, type Benefits } from '../subscriptions';
import type { StreamReads } from './stream-reads';
import { isPlayable, type StreamRow } from './stream-info';
import { streamBans, streams } from './tables';
import type { Viewer } from './viewer';

/** What the stream's shows change about its video (the shows module's rules). */
export interface ShowRules {
  /** Whether a viewer (null: a visitor) may see the video as far as its shows go: true when no show is on. */
  admits(streamId: number, viewerId: number | null): Promise<boolean>;
  /** The stretches of the broadcast no playlist gives any more: its shows' minutes, once each ended. */
  keptOut(streamId: number): Promise<readonly Period[]>;
}

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

/** The owner, privileged viewers and subscribers whose plan lifts the pay wall never meet it. */
export const skipsPaywall = (row: StreamRow, viewer: Viewer, benefits: Benefits | null) =>
  viewer.principal?.userId === row.userId || mayPassPaywall(viewer.principal) || Boolean(benefits && (benefits.no_paywall || benefits.discount >= 1));

/**
 * True (as SQL) when the stream is plainly open to the viewer: this owner's, not deleted or hidden,
 * public, not 18+, no ban on the viewer, broadcaster active. The SQL form of assertMayWatch's common
 * case, for statements that must stay one round trip (a tip); anything else takes StreamAccess.lookup.
 */
export const plainlyWatchableSql = (streamId: number | SQL, ownerId: number | SQL, viewerId: number | SQL) => sql`exists (
  select 1 from ${streams} s
  where s.id = ${streamId} and s.user_id = ${ownerId} and s.deleted_at is null and not s.hidden and s.audience = 'PUBLIC' and s.rating <> 'PLUS_18'
    and not exists (select 1 from ${streamBans} b where b.stream_id = s.id and b.user_id = ${viewerId})
    and ${activeUserSql(sql`s.user_id`)})`;

/** True (as SQL) while the stream is on air: its encoder publishes. */
export const streamLiveSql = (streamId: number | SQL) => sql`exists (select 1 from ${streams} s where s.id = ${streamId} and s.live)`;

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

export function createStreamAccess(deps: {
  db: Db;
  reads: Pick<StreamReads, 'findStream'>;
  accounts: Pick<AccountsService, 'ageOf'>;
  social: Pick<SocialService, 'relation'>;
  ledger: Pick<Ledger, 'spendOnStream'>;
  /** What the stream's shows allow (the shows module's rules; tests may leave them out: no shows). */
  showRules?: () => ShowRules;
}) {
  const { db, reads, accounts, social } = deps;

  /** A show shuts the stream to everyone but its paid seats; its owner and those who may watch anything still see it. */
  async function admittedToShow(row: StreamRow, viewer: Viewer): Promise<boolean> {
    const viewerId = viewer.principal?.userId ?? null;
    if (!deps.showRules || viewerId === row.userId || mayWatchAnything(viewer.principal)) return true;
    return deps.showRules().admits(row.id, viewerId);
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

  /** The stream, when the viewer may watch it (404, 403 or `block` otherwise; the pay wall is assertPaidUp's). */
  async function lookup(streamId: number, viewer: Viewer): Promise<StreamRow> {
    const row = await reads.findStream(streamId);
    await assertMayWatch(row, viewer);
    return row;
  }

  return {
    lookup,
    assertPaidUp,
    payment,

    /** payment, for a stream read by id whatever the viewer may see of it now (a tip's answer after its coins moved). */
    async paymentById(streamId: number, viewer: Viewer) {
      const [row] = await db.select().from(streams).where(eq(streams.id, streamId));
      return row ? payment(row, viewer) : { spend: await deps.ledger.spendOnStream(streamId, viewer.principal?.userId ?? null), owed: 0 };
    },

    /** The stretches of the broadcast its playlists (and its replay's chat) leave out: its shows' minutes once each ended. */
    async keptOut(streamId: number): Promise<readonly Period[]> {
      return deps.showRules ? deps.showRules().keptOut(streamId) : [];
    },

    /** Whether the viewer may play the stream now: the watch rules and the pay wall, as stream-join applies them. */
    async mayPlay(streamId: number, viewer: Viewer): Promise<boolean> {
      try {
        const row = await lookup(streamId, viewer);
        if (!isPlayable(row)) return false;
        await assertPaidUp(row, viewer);
        return await admittedToShow(row, viewer);
      } catch (error) {
        if (error instanceof AppError) return false;
        throw error;
      }
    },

    /** Whether the viewer may read and write the stream's priority chat now. */
    async mayChatWithPriority(row: StreamRow, viewer: Viewer): Promise<boolean> {
      if (viewer.principal?.userId === row.userId) return true;
      return mayUsePriorityChat(row, viewer, await subscriberBenefits(db, row, viewer));
    },
  };
}

export type StreamAccess = ReturnType<typeof createStreamAccess>;
