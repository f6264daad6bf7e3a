/** How a stream row reads on the wire: the spec's stream info and stream tile, for one viewer. */
import type { StreamGoal, StreamInfo, StreamTile } from '../../../common/api/streams';
import { subscriberMinimum } from '../../../common/rules/plans';
import type { Benefits } from '../subscriptions';
import type { streams } from './tables';

export type StreamRow = typeof streams.$inferSelect;

export interface Broadcaster {
  username: string;
  fullname: string;
  avatar: string | null;
}

export interface ViewerFacts {
  isOwner: boolean;
  isFollowing: boolean;
  followingNotify: boolean;
  viewerLikes: number;
  viewers: number;
  /** Likes given in realtime on the stream; `likes` are those saved by leave-stream (shown: likes + rlikes). */
  realtimeLikes: number;
  saved: boolean;
  /** 1–5, or 0 when the viewer has not rated the stream. */
  viewerRating: number;
  priorityChat: boolean;
  /** Coins this viewer tipped on the stream. */
  viewerSpend: number;
  /** Coins still to tip before the pay wall lifts (0 when nothing is owed). */
  tipOwed: number;
  /** Owner, privileged, or a subscriber whose plan lifts it: the pay wall never applies. */
  skipPaywall: boolean;
  /** What the viewer's subscription to the broadcaster gives now; null when not subscribed. */
  benefits: Benefits | null;
  /** The stream's ad campaign (the ads module's): its id, and whether it carries offers now. */
  campaign: AdCampaign;
  /** The tip goal tips count towards now (the goals module's). */
  goal: StreamGoal | null;
}

export interface AdCampaign {
  id: number | null;
  hasOffers: boolean;
}

/**
 * A live thumbnail is a plain public image (refreshed every 10 s): only for streams anyone may watch for
 * free. Followers-only, subscribers-only, private, 18+ and paid streams show no picture of their video.
 */
export const hasPublicPicture = (row: Pick<StreamRow, 'audience' | 'rating' | 'tipViewerMinAmount'>) =>
  row.audience === 'PUBLIC' && row.rating !== 'PLUS_18' && row.tipViewerMinAmount === 0;

export const thumbnailUrl = (row: StreamRow) =>
  row.thumbnailKey && hasPublicPicture(row) ? `/media/thumbs/${row.id}.jpg?v=${row.updatedAt.getTime()}` : null;

/** Live now, or ended with a replay to play. */
export const isPlayable = (row: StreamRow) => row.live || (row.endedAt !== null && row.playlistKey !== null && row.lengthSeconds > 0);

export function toStreamInfo(row: StreamRow, broadcaster: Broadcaster, viewer: ViewerFacts): StreamInfo {
  return {
    stream_id: row.id,
    user_id: row.userId,
    username: broadcaster.username,
    full_name: broadcaster.fullname,
    avatar: broadcaster.avatar,
    title: row.title,
    description: row.description,
    audience: row.audience,
    rating: row.rating,
    live: row.live ? 'Y' : 'N',
    ended: row.endedAt !== null,
    hidden: row.hidden,
    ready: row.setupAt !== null,
    started_time: row.startedAt?.toISOString() ?? null,
    stream_length: row.lengthSeconds,
    thumbnail_url: thumbnailUrl(row),
    likes: row.likes,
    rlikes: viewer.realtimeLikes,
    stream_viewer_likes: viewer.viewerLikes,
    viewers: viewer.viewers,
    tviewers: row.totalViews,
    chat_enabled: row.chatEnabled,
    stream_featured_by_user: row.featured,
    tip_viewer_min_amount: row.tipViewerMinAmount,
    currency: 'CON',
    is_following: viewer.isFollowing,
    following_notify: viewer.followingNotify,
    playable: isPlayable(row),
    source_type: 'RTMP',
    width: row.width,
    height: row.height,
    is_owner: viewer.isOwner,
    saved: viewer.saved,
    has_rated: viewer.viewerRating > 0,
    viewer_rating: viewer.viewerRating,
    priority_chat: viewer.priorityChat,
    viewer_spend: { currency: 'CON', amount: viewer.viewerSpend },
    tip_owed: viewer.tipOwed,
    has_paid: viewer.tipOwed <= 0,
    skip_paywall: viewer.skipPaywall,
    subscribed: viewer.benefits !== null,
    tip_subscriber_discount: viewer.benefits ? (viewer.benefits.no_paywall ? 1 : viewer.benefits.discount) : 0,
    tip_subscriber_min_amount: viewer.benefits
      ? subscriberMinimum(row.tipViewerMinAmount, viewer.benefits.no_paywall ? 1 : viewer.benefits.discount)
      : row.tipViewerMinAmount,
    no_ads: Boolean(viewer.benefits?.no_ads),
    campaign_id: viewer.campaign.id,
    has_offers: viewer.campaign.hasOffers,
    goal: viewer.goal,
  };
}

export function toStreamTile(row: StreamRow & { viewers: number; rlikes: number }, broadcaster: Broadcaster): StreamTile {
  return {
    stream_id: row.id,
    user_id: row.userId,
    title: row.title,
    avatar: broadcaster.avatar,
    thumbnail_url: thumbnailUrl(row),
    username: broadcaster.username,
    audience: row.audience,
    rating: row.rating,
    tip_viewer_min_amount: row.tipViewerMinAmount,
    likes: row.likes,
    rlikes: row.rlikes,
    started_time: row.startedAt?.toISOString() ?? null,
    live: row.live ? 'Y' : 'N',
    viewers: row.viewers,
  };
}
