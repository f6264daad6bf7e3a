/** Stream listings: channels, every stream, search, a user's streams. Tiles only show what may be watched. */
import { and, desc, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { StreamTile } from '../../../common/api/streams';
import { SKINS, type SkinId } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import { channelMembersSql } from '../../platform/realtime/presence';
import type { AccountsService } from '../accounts';
import type { ListedChannel } from '../channels';
import { holdsImpressionsSql } from '../ledger';
import type { SocialService } from '../social';
import { toStreamTile, type StreamRow } from './stream-info';
import { broadcasterChannels, streamBans, streams, streamSaves } from './tables';

export interface Page {
  offset: number;
  limit: number;
}

export interface ListingViewer {
  userId: number | null;
  skin: SkinId;
}

/** A page of tiles; `promotedOwners` are the owners of promoted tiles in Popular, whose showing spends an impression. */
export interface Tiles {
  streams: StreamTile[];
  total: number;
  promotedOwners: number[];
}

const none: Tiles = { streams: [], total: 0, promotedOwners: [] };

/** Viewers watching now: members of the stream's realtime channel on every instance. */
const viewersNow = channelMembersSql(sql`'stream:' || ${streams.id}`);

/** Set up, shown, not deleted, and live or with a replay; never private. */
const listed = and(
  isNull(streams.deletedAt),
  eq(streams.hidden, false),
  ne(streams.audience, 'PRIVATE'),
  or(eq(streams.live, true), and(isNotNull(streams.endedAt), sql`${streams.lengthSeconds} > 0`)),
);

const liveFirst = [desc(streams.live), desc(streams.startedAt), desc(streams.id)];

/** The broadcaster holds impressions (Get Popular): their streams rank first in Popular. */
const promoted = holdsImpressionsSql(streams.userId);

export function createStreamListing(deps: {
  db: Db;
  accounts: AccountsService;
  social: SocialService;
  /** Likes given in realtime on each stream (the chat module's count), for the tiles' rlikes. */
  realtimeLikes: (streamIds: number[]) => Promise<Map<number, number>>;
}) {
  const { db } = deps;

  /** 18+ streams show only in the adult skin, and only where the caller asks for them. */
  const ratingRule = (viewer: ListingViewer, adult: boolean) =>
    adult && SKINS[viewer.skin].flags.adultContent ? undefined : ne(streams.rating, 'PLUS_18');

  async function asTiles(rows: Array<{ stream: StreamRow; viewers: number }>) {
    const [users, rlikes] = await Promise.all([
      deps.accounts.publicUsers(rows.map((r) => r.stream.userId)),
      deps.realtimeLikes(rows.map((r) => r.stream.id)),
    ]);
    return rows.map((r) => toStreamTile(
      { ...r.stream, viewers: r.viewers, rlikes: rlikes.get(r.stream.id) ?? 0 },
      users.get(r.stream.userId) ?? { username: '', fullname: '', avatar: null },
    ));
  }

  async function tiles(where: SQL | undefined, order: SQL[], page: Page, countsPromoted = false): Promise<Tiles> {
    const [rows, [total]] = await Promise.all([
      db.select({ stream: streams, viewers: viewersNow, promoted }).from(streams).where(where).orderBy(...order).offset(page.offset).limit(page.limit),
      db.select({ n: sql<number>`count(*)::int` }).from(streams).where(where),
    ]);
    const promotedOwners = countsPromoted ? rows.filter((r) => r.promoted).map((r) => r.stream.userId) : [];
    return { streams: await asTiles(rows), total: total?.n ?? 0, promotedOwners };
  }

  return {
    async channel(channel: ListedChannel, viewer: ListingViewer, page: Page): Promise<Tiles> {
      const base = and(listed, ratingRule(viewer, channel.selector === 'adult' || (channel.selector === 'custom' && channel.rating === 'PLUS_18')));
      switch (channel.selector) {
        case 'popular':
          // Featured by a moderator or promoted with impressions first, then the most watched.
          return tiles(base, [desc(streams.live), desc(sql`(${streams.featured} or ${promoted})`), desc(viewersNow), desc(streams.likes), ...liveFirst.slice(1)],
            page, true);
        case 'live':
          return tiles(and(base, eq(streams.live, true)), liveFirst, page);
        case 'women':
        case 'men': {
          const listedIn = db.select({ id: broadcasterChannels.userId }).from(broadcasterChannels).where(eq(broadcasterChannels.gender, channel.selector));
          return tiles(and(base, inArray(streams.userId, listedIn)), liveFirst, page);
        }
        case 'following': {
          const ids = viewer.userId ? await deps.social.followeeIds(viewer.userId) : [];
          return ids.length === 0 ? none : tiles(and(base, inArray(streams.userId, ids)), liveFirst, page);
        }
        case 'adult':
          return SKINS[viewer.skin].flags.adultContent ? tiles(and(base, eq(streams.rating, 'PLUS_18')), liveFirst, page) : none;
        case 'custom':
          return channel.broadcasterIds.length === 0 ? none : tiles(and(base, inArray(streams.userId, channel.broadcasterIds)), liveFirst, page);
        default: // discover: the newest first, live or not
          return tiles(base, [desc(streams.startedAt), desc(streams.id)], page);
      }
    },

    all: (viewer: ListingViewer, page: Page) => tiles(and(listed, ratingRule(viewer, false)), liveFirst, page),

    async search(text: string, viewer: ListingViewer, page: Page) {
      const named = await deps.accounts.userIdsNamed(text, 200);
      const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
      const matches = or(sql`lower(${streams.title}) like ${`%${escaped.toLowerCase()}%`}`, named.length ? inArray(streams.userId, named) : undefined);
      return tiles(and(listed, ratingRule(viewer, false), matches), liveFirst, page);
    },

    /**
     * The profile Saved tab: the viewer's bookmarks, newest first. Streams that became unlistable, 18+
     * where the skin does not show it, or that banned the viewer drop out.
     */
    async saved(viewer: ListingViewer & { userId: number }, page: Page) {
      const notBanned = sql`not exists (select 1 from ${streamBans} where ${streamBans.streamId} = ${streams.id} and ${streamBans.userId} = ${viewer.userId})`;
      const where = and(eq(streamSaves.userId, viewer.userId), isNull(streams.deletedAt), eq(streams.hidden, false), ne(streams.audience, 'PRIVATE'),
        ratingRule(viewer, true), notBanned);
      const [rows, [total]] = await Promise.all([
        db.select({ stream: streams, viewers: viewersNow }).from(streamSaves).innerJoin(streams, eq(streams.id, streamSaves.streamId)).where(where)
          .orderBy(desc(streamSaves.createdAt), desc(streams.id)).offset(page.offset).limit(page.limit),
        db.select({ n: sql<number>`count(*)::int` }).from(streamSaves).innerJoin(streams, eq(streams.id, streamSaves.streamId)).where(where),
      ]);
      return { streams: await asTiles(rows), total: total?.n ?? 0, promotedOwners: [] };
    },

    /** The profile Streams tab: the owner sees every stream of theirs; others what is listed. */
    user(userId: number, viewer: ListingViewer, adult: boolean, page: Page) {
      const visible = viewer.userId === userId ? isNull(streams.deletedAt) : and(listed, ratingRule(viewer, adult));
      return tiles(and(eq(streams.userId, userId), visible), liveFirst, page);
    },
  };
}

export type StreamListing = ReturnType<typeof createStreamListing>;
