/** Channels: the base channels of the channel selector. Stream listings arrive with live streaming. */
import { asc } from 'drizzle-orm';
import { SKINS, type SkinId } from '../../../common/skins';
import type { ReadCache } from '../../platform/cache/read-cache';
import type { Db } from '../../platform/db/client';
import { channels } from './tables';

/** The base channels of the spec, in selector order. */
export const BASE_CHANNELS = [
  { name: 'Popular', type: 'group', rating: 'G', selector: 'popular' },
  { name: 'Women', type: 'channel', rating: 'G', selector: 'women' },
  { name: 'Men', type: 'channel', rating: 'G', selector: 'men' },
  { name: 'Live', type: 'channel', rating: 'G', selector: 'live' },
  { name: 'Discover', type: 'channel', rating: 'G', selector: 'discover' },
  { name: 'Following', type: 'channel', rating: 'G', selector: 'following' },
  { name: '18+', type: 'channel', rating: 'PLUS_18', selector: 'adult' },
] as const;

export function createChannelsService(deps: { db: Db; cache?: ReadCache }) {
  const { db } = deps;
  const read = () => db.select().from(channels).orderBy(asc(channels.sortOrder), asc(channels.id));
  // Every visitor's first page asks for them; they change only when the base channels are ensured at start.
  const rows = () => (deps.cache ? deps.cache.get('channels', ['channels'], read) : read());
  return {
    async ensureBaseChannels() {
      await db
        .insert(channels)
        .values(BASE_CHANNELS.map((c, i) => ({ ...c, sortOrder: i })))
        .onConflictDoNothing();
    },

    /** A channel's listing rule, or null for an unknown id. */
    async find(id: number) {
      const row = (await rows()).find((c) => c.id === id);
      return row ? { selector: row.selector, rating: row.rating, name: row.name } : null;
    },

    /** A group (type "group") and the channels it lists; the base channels form the one group there is. */
    async group(id: number | undefined, skin: SkinId, signedIn: boolean) {
      const visible = await this.baseGroup(skin, signedIn);
      const group = visible.find((c) => c.type === 'group' && (id === undefined || c.id === id));
      return group ? { group, channels: visible } : null;
    },

    /** What the selector shows: Following only when signed in, 18+ only where the skin shows adult content. */
    async baseGroup(skin: SkinId, signedIn: boolean) {
      return (await rows())
        .filter((c) => (c.selector !== 'following' || signedIn) && (c.rating !== 'PLUS_18' || SKINS[skin].flags.adultContent))
        .map((c) => ({
          id: c.id,
          name: c.name,
          meta: { rating: c.rating },
          type: c.type,
          link: c.type === 'group' ? `/channel/group?id=${c.id}` : `/channel/channel?id=${c.id}`,
          thumbnail: c.thumbnail,
        }));
    },
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;
