/**
 * Channels: the base channels of the channel selector, and custom channels an administrator makes of
 * chosen broadcasters (decision 0054). The streams and posts modules list what a channel's selector picks.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { CustomChannel } from '../../../common/api/console';
import { MSG } from '../../../common/messages';
import { SKINS, type SkinId } from '../../../common/skins';
import { recordAudit } from '../../platform/audit/audit';
import type { ReadCache } from '../../platform/cache/read-cache';
import type { Db } from '../../platform/db/client';
import { conflict, notFound } from '../../platform/http/errors';
import { channelBroadcasters, channels } from './tables';

type Rating = CustomChannel['rating'];
type ChannelRow = typeof channels.$inferSelect;

/** Where a channel's page is: a custom one carries its rating (`metaType`) so the page can ask for 18+ before anything loads. */
export const channelLink = (c: Pick<ChannelRow, 'id' | 'type' | 'rating'>) =>
  c.type === 'group' ? `/channel/group?id=${c.id}` : c.type === 'custom' ? `/channel/custom?id=${c.id}&metaType=${c.rating}` : `/channel/channel?id=${c.id}`;

const CHANNELS_TAG = 'channels';

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
  const read = async () => {
    const [all, members] = await Promise.all([
      db.select().from(channels).orderBy(asc(channels.sortOrder), asc(channels.id)),
      db.select().from(channelBroadcasters).orderBy(asc(channelBroadcasters.userId)),
    ]);
    return all.map((c) => ({ ...c, broadcasterIds: members.filter((m) => m.channelId === c.id).map((m) => m.userId) }));
  };
  // Every visitor's first page asks for them; they change when an administrator changes a custom channel.
  const rows = () => (deps.cache ? deps.cache.get('channels', [CHANNELS_TAG], read) : read());
  const changed = () => deps.cache?.invalidate([CHANNELS_TAG]);
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
      return row ? { id: row.id, selector: row.selector, rating: row.rating, name: row.name, broadcasterIds: row.broadcasterIds } : null;
    },

    /** The custom channels, newest last, with their broadcasters' ids. */
    async customChannels() {
      return (await rows()).filter((c) => c.type === 'custom').map((c) => ({ id: c.id, name: c.name, rating: c.rating, link: channelLink(c), broadcasterIds: c.broadcasterIds }));
    },

    /** Makes a custom channel of these broadcasters (active accounts, resolved by the caller); audited. */
    async createCustom(actorId: number, channel: { name: string; rating: Rating; broadcasterIds: number[] }) {
      const id = await db.transaction(async (tx) => {
        const [row] = await tx.insert(channels)
          .values({ name: channel.name, type: 'custom', rating: channel.rating, selector: 'custom', sortOrder: 1000 })
          .onConflictDoNothing({ target: channels.name }).returning();
        if (!row) throw conflict(MSG.channelNameTaken, 'name');
        await tx.insert(channelBroadcasters).values(channel.broadcasterIds.map((userId) => ({ channelId: row.id, userId })));
        await recordAudit(tx, { actorId, action: 'channel.create', targetType: 'channel', targetId: row.id, before: null, after: { ...channel } });
        return row.id;
      });
      await changed();
      return id;
    },

    /** Removes a custom channel (base channels stay); audited. */
    async deleteCustom(actorId: number, id: number) {
      await db.transaction(async (tx) => {
        const [row] = await tx.delete(channels).where(and(eq(channels.id, id), eq(channels.type, 'custom'))).returning();
        if (!row) throw notFound(MSG.noSuchChannel);
        await recordAudit(tx, { actorId, action: 'channel.delete', targetType: 'channel', targetId: id, before: { name: row.name, rating: row.rating }, after: null });
      });
      await changed();
    },

    /** A group (type "group") and the channels it lists; the base channels form the one group there is. */
    async group(id: number | undefined, skin: SkinId, signedIn: boolean) {
      const visible = await this.baseGroup(skin, signedIn);
      const group = visible.find((c) => c.type === 'group' && (id === undefined || c.id === id));
      return group ? { group, channels: visible } : null;
    },

    /** What the selector shows: Following only when signed in, 18+ (a base or custom channel) only where the skin shows adult content. */
    async baseGroup(skin: SkinId, signedIn: boolean) {
      return (await rows())
        .filter((c) => (c.selector !== 'following' || signedIn) && (c.rating !== 'PLUS_18' || SKINS[skin].flags.adultContent))
        .map((c) => ({
          id: c.id,
          name: c.name,
          meta: { rating: c.rating },
          type: c.type,
          link: channelLink(c),
          thumbnail: c.thumbnail,
        }));
    },
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;
/** A channel as the listings read it: what its selector picks, and a custom channel's broadcasters. */
export type ListedChannel = NonNullable<Awaited<ReturnType<ChannelsService['find']>>>;
