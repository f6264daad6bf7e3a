/**
 * The listings every visitor sees alike — a channel, every stream, a search, a profile's streams as
 * others see them — answered from the instance's read cache as the JSON of the answer, kept about a
 * second and dropped on every instance when streams change (decision 0026): a burst of visitors costs
 * one query per listing. Following, and an owner's own streams, depend on who asks and are always read.
 * Tiles carry nothing of the viewer, so one answer serves guests and signed-in people.
 */
import * as api from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import type { ReadCache } from '../../platform/cache/read-cache';
import { notFound } from '../../platform/http/errors';
import { type AnswerData, serialiseAnswer, type SerialisedAnswer } from '../../platform/http/route';
import type { CallDef } from '../../../common/api/define';
import type { ChannelsService } from '../channels';
import type { ListingViewer, Page, StreamListing, Tiles } from './listing';

/** The tag of every cached listing: any change to what a tile shows or where it is listed drops them all. */
export const LISTINGS_TAG = 'stream-listings';

export interface CountedViewer extends ListingViewer {
  /**
   * Who is looking, for counting showings (viewer.ts's `viewerKey`): asked only when a promoted tile is
   * shown, since a guest's is a hash of their address and most listings show none.
   */
  viewerKey(): string;
}

type TilesCall = typeof api.listChannelStreams | typeof api.listStreams | typeof api.searchStream | typeof api.userStreams;

interface Cached<C extends CallDef> {
  answer: SerialisedAnswer<C>;
  promotedOwners: number[];
}

const pageKey = (page: Page) => `${page.offset}:${page.limit}`;

export function createCachedListings(deps: {
  listing: StreamListing;
  channels: ChannelsService;
  cache: ReadCache;
  /** Owners of promoted streams shown in Popular, one per tile: each showing spends an impression. */
  onPromotedShown(ownerIds: number[], viewerKey: string): void;
}) {
  const { listing, cache } = deps;

  /** The listing's answer, from the cache under `key`; the promoted tiles it shows are counted for this viewer. */
  async function answer<C extends TilesCall>(def: C, key: string, viewer: CountedViewer, read: () => Promise<Tiles>) {
    const cached = await cache.get<Cached<C>>(key, [LISTINGS_TAG], async () => {
      const { promotedOwners, ...tiles } = await read();
      // Every listing call answers the same page of tiles (its output schema checks it).
      return { answer: serialiseAnswer(def, tiles as unknown as AnswerData<C>), promotedOwners };
    });
    if (cached.promotedOwners.length > 0) deps.onPromotedShown(cached.promotedOwners, viewer.viewerKey());
    return cached.answer;
  }

  const uncached = async (read: Promise<Tiles>) => {
    const { promotedOwners: _, ...tiles } = await read;
    return tiles;
  };

  return {
    async channel(id: number, viewer: CountedViewer, page: Page) {
      const channel = await deps.channels.find(id);
      if (!channel) throw notFound(MSG.noSuchChannel);
      if (channel.selector === 'following') return uncached(listing.channel(channel, viewer, page));
      return answer(api.listChannelStreams, `channel:${id}:${viewer.skin}:${pageKey(page)}`, viewer, () => listing.channel(channel, viewer, page));
    },

    all: (viewer: CountedViewer, page: Page) => answer(api.listStreams, `all:${viewer.skin}:${pageKey(page)}`, viewer, () => listing.all(viewer, page)),

    search: (text: string, viewer: CountedViewer, page: Page) =>
      answer(api.searchStream, `search:${viewer.skin}:${pageKey(page)}:${text}`, viewer, () => listing.search(text, viewer, page)),

    async user(userId: number, viewer: CountedViewer, adult: boolean, page: Page) {
      if (viewer.userId === userId) return uncached(listing.user(userId, viewer, adult, page));
      return answer(api.userStreams, `user:${userId}:${viewer.skin}:${adult}:${pageKey(page)}`, viewer, () => listing.user(userId, viewer, adult, page));
    },

    /** The profile Saved tab: the viewer's own. */
    saved: (viewer: ListingViewer & { userId: number }, page: Page) => uncached(listing.saved(viewer, page)),
  };
}

export type CachedListings = ReturnType<typeof createCachedListings>;
