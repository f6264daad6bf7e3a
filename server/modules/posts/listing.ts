/**
 * Post tiles: a user's posts (profile Photos tab), the viewer's bookmarks (Saved tab) and a channel's
 * image tiles. Only posts the viewer may find are listed; a tile's picture is signed for the viewer and
 * blurred until its media is open to them.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PostTile } from '../../../common/api/posts';
import type { ReadCache } from '../../platform/cache/read-cache';
import type { Db } from '../../platform/db/client';
import type { AccountsService } from '../accounts';
import type { ListedChannel } from '../channels';
import type { SocialService } from '../social';
import { inGenderChannelSql, type Viewer } from '../streams';
import { isScheduled, listableSql, mediaOpenSql } from './access';
import type { MediaAddresses } from '../streams';
import { MEDIA_FILES } from './media';
import { postMedia, posts, postSaves } from './tables';

interface Page {
  offset: number;
  limit: number;
}

/** The tag of every cached channel listing of posts. */
export const POST_LISTINGS_TAG = 'post-listings';

interface Found {
  rows: Array<{ post: typeof posts.$inferSelect; open: boolean; medium: number | null; duration: number | null }>;
  total: number;
  people: Map<number, { username: string; avatar: string | null }>;
}

const nothing: Found = { rows: [], total: 0, people: new Map() };

/**
 * `cache`: a guest's channel listing is the same for every guest of a skin, so its rows are kept in the
 * read cache (decision 0026); the pictures are signed for each viewer when the tiles are made.
 */
export function createPostListing(deps: { db: Db; accounts: AccountsService; social: SocialService; addresses: MediaAddresses; cache?: ReadCache }) {
  const { db } = deps;
  /**
   * Each post's first shown medium (a picture, or a video once transcoded) and its video's length, read
   * by post id in a second query: a subquery correlated on the outer post would lose its table name in a
   * one-table select and match a medium to itself.
   */
  async function firstMedia(postIds: number[]): Promise<Map<number, { medium: number | null; duration: number | null }>> {
    const found = new Map<number, { medium: number | null; duration: number | null }>();
    if (postIds.length === 0) return found;
    const media = await db.select({ id: postMedia.id, postId: postMedia.postId, kind: postMedia.kind, state: postMedia.transcodeState, seconds: postMedia.durationSeconds })
      .from(postMedia).where(inArray(postMedia.postId, postIds)).orderBy(asc(postMedia.postId), asc(postMedia.position));
    for (const m of media) {
      if (m.postId === null) continue;
      const seen = found.get(m.postId) ?? { medium: null, duration: m.seconds === null ? null : Number(m.seconds) };
      if (seen.medium === null && (m.kind === 'image' || m.state === 'done')) seen.medium = m.id;
      found.set(m.postId, seen);
    }
    return found;
  }

  async function find(viewer: Viewer, where: SQL | undefined, order: SQL[], page: Page, from: 'posts' | 'saves' = 'posts'): Promise<Found> {
    const open = mediaOpenSql(viewer);
    const columns = { post: posts, open: sql<boolean>`${open}` };
    const [found, [total]] = from === 'posts'
      ? await Promise.all([
        db.select(columns).from(posts).where(where).orderBy(...order).offset(page.offset).limit(page.limit),
        db.select({ n: sql<number>`count(*)::int` }).from(posts).where(where),
      ])
      : await Promise.all([
        db.select(columns).from(postSaves).innerJoin(posts, eq(posts.id, postSaves.postId)).where(where).orderBy(...order).offset(page.offset).limit(page.limit),
        db.select({ n: sql<number>`count(*)::int` }).from(postSaves).innerJoin(posts, eq(posts.id, postSaves.postId)).where(where),
      ]);
    const [media, people] = await Promise.all([firstMedia(found.map((r) => r.post.id)), deps.accounts.publicUsers(found.map((r) => r.post.userId))]);
    const rows = found.map((r) => ({ ...r, medium: media.get(r.post.id)?.medium ?? null, duration: media.get(r.post.id)?.duration ?? null }));
    return { rows, total: total?.n ?? 0, people };
  }

  function present(viewer: Viewer, { rows, total, people }: Found) {
    const sign = deps.addresses(viewer);
    const list: PostTile[] = rows.map(({ post, open: isOpen, medium, duration: seconds }) => ({
      post_id: post.id,
      user_id: post.userId,
      username: people.get(post.userId)?.username ?? '',
      avatar: people.get(post.userId)?.avatar ?? null,
      title: post.title,
      kind: post.kind,
      state: post.state,
      audience: post.audience,
      thumb_url: medium === null ? null : sign(Number(medium), isOpen ? MEDIA_FILES.tile : MEDIA_FILES.locked),
      media_count: post.mediaCount,
      duration: seconds === null ? null : Number(seconds),
      tip_viewer_min_amount: post.price,
      has_paid: post.price > 0 && isOpen && post.userId !== viewer.principal?.userId,
      likes: post.likes,
      entry_date: post.createdAt.toISOString(),
      scheduled: isScheduled(post),
    }));
    return { posts: list, total };
  }

  const tiles = async (viewer: Viewer, where: SQL | undefined, order: SQL[], page: Page, from: 'posts' | 'saves' = 'posts') =>
    present(viewer, await find(viewer, where, order, page, from));

  const newest = [desc(posts.createdAt), desc(posts.id)];

  /** A channel's rows: its public posts, as the channel's selector picks broadcasters. */
  async function channelRows(channel: ListedChannel, viewer: Viewer, page: Page): Promise<Found> {
    const adult = channel.selector === 'adult' || (channel.selector === 'custom' && channel.rating === 'PLUS_18');
    const base = and(listableSql(viewer, { adult }), eq(posts.audience, 'public'));
    switch (channel.selector) {
      case 'popular':
        return find(viewer, base, [desc(posts.featured), desc(posts.likes), ...newest], page);
      case 'women':
      case 'men':
        return find(viewer, and(base, inGenderChannelSql(posts.userId, channel.selector)), newest, page);
      case 'following': {
        const ids = viewer.principal ? await deps.social.followeeIds(viewer.principal.userId) : [];
        return ids.length === 0 ? nothing : find(viewer, and(base, inArray(posts.userId, ids)), newest, page);
      }
      case 'adult':
        return find(viewer, and(base, eq(posts.rating, 'PLUS_18')), newest, page);
      case 'custom':
        return channel.broadcasterIds.length === 0 ? nothing : find(viewer, and(base, inArray(posts.userId, channel.broadcasterIds)), newest, page);
      case 'live':
        // Live is about broadcasts on now: a post is never live.
        return nothing;
      default:
        return find(viewer, base, newest, page);
    }
  }

  return {
    ofUser: (userId: number, viewer: Viewer, page: Page) => tiles(viewer, and(eq(posts.userId, userId), listableSql(viewer, { adult: true })), newest, page),

    saved: (viewer: Viewer & { principal: NonNullable<Viewer['principal']> }, page: Page) =>
      tiles(viewer, and(eq(postSaves.userId, viewer.principal.userId), listableSql(viewer, { adult: true })), [desc(postSaves.createdAt), desc(posts.id)], page, 'saves'),

    /** A channel's image tiles; a guest's rows come from the read cache. */
    async channel(channel: ListedChannel, viewer: Viewer, page: Page) {
      const read = () => channelRows(channel, viewer, page);
      const found = viewer.principal === null && deps.cache
        ? await deps.cache.get(`channel:${channel.id}:${viewer.skin}:${page.offset}:${page.limit}`, [POST_LISTINGS_TAG], read)
        : await read();
      return present(viewer, found);
    },
  };
}

export type PostListing = ReturnType<typeof createPostListing>;
