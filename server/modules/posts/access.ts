/**
 * Who may see a post and its media (spec part 1 §6): the owner and moderators always; others while it is
 * ready, not expired, within its audience (followers, subscribers; private is the owner's) and its rating;
 * the media of a paid post once the viewer bought it or a subscription lets them through. Listings embed
 * the same rule as SQL (`listableSql`).
 */
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { ADULT_AGE } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { subscriberPrice } from '../../../common/rules/pay-wall';
import { SKINS } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import { forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { isFollowingSql, type SocialService } from '../social';
import { activeBenefits, isSubscribedSql } from '../subscriptions';
import { mayActOnAnyStream, type Viewer } from '../streams';
import { postPurchases, posts } from './tables';

export type PostRow = typeof posts.$inferSelect;

/** What one viewer may do with one post they may see. */
export interface Standing {
  owner: boolean;
  /** The viewer sees the media (free, bought, owner, moderator, or a subscription's benefit). */
  mediaOpen: boolean;
  hasPaid: boolean;
  /** What this viewer pays (after a subscriber's discount). */
  price: number;
  subscriberDiscount: number;
  /**
   * Only the teaser: a subscribers-only post shown to someone who is not subscribed (the creator, the
   * blurred tile, the counts and Subscribe; no media, description nor comments).
   */
  teaser: boolean;
}

/** Moderators see every post, to judge what is reported; what they may do to it is the moderation rule's (`common/rules/moderation.ts`). */
export const moderatesPosts = (viewer: Viewer) =>
  viewer.principal !== null && mayActOnAnyStream(viewer.principal, 'GRANT PERMISSION', 'UPDATE STREAM_ANY', 'ALLOW REPORT_STREAM_HIDE');

const viewerIdOf = (viewer: Viewer) => viewer.principal?.userId ?? null;

export function createPostAccess(deps: { db: Db; accounts: AccountsService; social: SocialService; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function bought(postId: number, viewerId: number | null): Promise<boolean> {
    if (viewerId === null) return false;
    const rows = await db.select({ id: postPurchases.postId }).from(postPurchases)
      .where(and(eq(postPurchases.postId, postId), eq(postPurchases.userId, viewerId))).limit(1);
    return rows.length > 0;
  }

  return {
    /**
     * The viewer's standing with the post, or the refusal the post page shows ('not available'). With
     * `teaser`, a subscribers-only post is not refused to others but stands as its teaser.
     */
    async standing(row: PostRow, viewer: Viewer, options: { teaser?: boolean } = {}): Promise<Standing> {
      const viewerId = viewerIdOf(viewer);
      if (row.deletedAt) throw notFound(MSG.postNotAvailable);
      const owner = viewerId === row.userId;
      if (owner || moderatesPosts(viewer)) return { owner, mediaOpen: true, hasPaid: true, price: row.price, subscriberDiscount: 0, teaser: false };
      if (row.state !== 'ready' || (row.expiresAt && row.expiresAt <= now()) || row.audience === 'private' || isScheduled(row, now().getTime())) throw notFound(MSG.postNotAvailable);
      if (row.rating === 'PLUS_18') {
        const adult = SKINS[viewer.skin].flags.adultContent && viewerId !== null && ((await deps.accounts.ageOf(viewerId)) ?? 0) >= ADULT_AGE;
        if (!adult) throw forbidden(MSG.postAdultOnly);
      }
      const benefits = await activeBenefits(db, viewerId, row.userId);
      if (row.audience === 'subscribers' && !benefits) {
        if (!options.teaser) throw forbidden(MSG.postSubscribersOnly);
        return { owner: false, mediaOpen: false, hasPaid: false, price: row.price, subscriberDiscount: 0, teaser: true };
      }
      if (row.audience === 'followers' && !(await deps.social.relation(viewerId, row.userId)).isFollowing) throw forbidden(MSG.postFollowersOnly);
      const discount = benefits ? (benefits.no_paywall ? 1 : benefits.discount) : 0;
      const price = subscriberPrice(row.price, discount);
      const hasPaid = row.price > 0 && (await bought(row.id, viewerId));
      return { owner: false, mediaOpen: price === 0 || hasPaid, hasPaid, price, subscriberDiscount: discount, teaser: false };
    },
  };
}

export type PostAccess = ReturnType<typeof createPostAccess>;

/** A post scheduled for later: its time (`created_at`) is its publication, still ahead. */
export const isScheduled = (row: Pick<PostRow, 'createdAt'>, now = Date.now()) => row.createdAt.getTime() > now;

/**
 * The posts a viewer may find in a listing (SQL over `posts`): ready, not deleted nor expired, and the
 * viewer's own or within their audience; 18+ only where the skin shows it.
 */
export function listableSql(viewer: Viewer, options: { adult?: boolean } = {}): SQL {
  const viewerId = viewerIdOf(viewer);
  const audience = viewerId === null
    ? eq(posts.audience, 'public')
    : or(
      eq(posts.userId, viewerId),
      eq(posts.audience, 'public'),
      and(eq(posts.audience, 'followers'), isFollowingSql(viewerId, posts.userId)),
      and(eq(posts.audience, 'subscribers'), isSubscribedSql(viewerId, posts.userId)),
    );
  const rating = options.adult && SKINS[viewer.skin].flags.adultContent ? undefined : sql`${posts.rating} <> 'PLUS_18'`;
  return and(
    isNull(posts.deletedAt),
    viewerId === null ? eq(posts.state, 'ready') : or(eq(posts.state, 'ready'), eq(posts.userId, viewerId)),
    sql`(${posts.expiresAt} is null or ${posts.expiresAt} > now())`,
    viewerId === null ? sql`${posts.createdAt} <= now()` : or(sql`${posts.createdAt} <= now()`, eq(posts.userId, viewerId)),
    audience,
    rating,
  )!;
}

/** Whether the viewer sees the media of a listed post (as SQL): free, own, or bought. */
export function mediaOpenSql(viewer: Viewer): SQL {
  const viewerId = viewerIdOf(viewer);
  if (viewerId === null) return sql`(${posts.price} = 0)`;
  return sql`(${posts.price} = 0 or ${posts.userId} = ${viewerId} or exists (
    select 1 from ${postPurchases} pp where pp.post_id = ${posts.id} and pp.user_id = ${viewerId}))`;
}
