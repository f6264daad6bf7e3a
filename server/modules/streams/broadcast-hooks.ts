/** The streams module's answers to the RTMP ingest (server/platform/media/ingest-hooks.ts). */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { canGoLive } from '../../../common/permissions';
import { busChannelOf, streamChannelOf, type RealtimeMessage } from '../../../common/realtime';
import { isSkinId } from '../../../common/skins';
import type { Bus } from '../../platform/bus/bus';
import type { Db } from '../../platform/db/client';
import type { IngestHooks, PlaylistLocator } from '../../platform/media/ingest-hooks';
import type { AccountsService } from '../accounts/service';
import { mayStreamWithRating, type StreamsService } from './service';
import { streams, streamViews } from './tables';

export interface BroadcastHooks extends IngestHooks {
  /**
   * At the media node's start nothing publishes yet: streams still marked live lost their end to a
   * crash (boot cleanup reports the playlists it closes; these may have been closed already).
   */
  endStaleLiveStreams(): Promise<number>;
  /** Reloads the keys allowed to publish (at start, then periodically: permissions change elsewhere). */
  refreshKeys(): Promise<void>;
  /** A playlist to serve (not for deleted streams); who may play it was decided when the token was signed. */
  locatePlaylist: PlaylistLocator;
  /** A thumbnail to show as a plain image: only for streams that listings may show. */
  locateThumbnail: PlaylistLocator;
}

export function createBroadcastHooks(deps: { db: Db; accounts: AccountsService; streams: StreamsService; bus: Bus }): BroadcastHooks {
  const { db } = deps;
  let allowedKeys = new Set<string>();

  return {
    async refreshKeys() {
      allowedKeys = new Set((await deps.accounts.publishers()).map((p) => p.broadcastKey));
    },

    canPublish: (streamKey) => allowedKeys.has(streamKey),

    async endStaleLiveStreams() {
      const ended = await db.update(streams).set({ live: false, endedAt: sql`coalesce(${streams.endedAt}, now())`, updatedAt: new Date() })
        .where(eq(streams.live, true)).returning({ id: streams.id });
      return ended.length;
    },

    async startBroadcast(streamKey) {
      const publisher = await deps.accounts.publisherByKey(streamKey);
      if (!publisher || !canGoLive(publisher.perms)) throw new Error('this key may not publish');
      const skin = isSkinId(publisher.user.service) ? publisher.user.service : 'limelight';
      const stream = await deps.streams.currentStream(publisher.user.id, skin);
      if (!mayStreamWithRating(publisher.perms, stream.rating, isSkinId(stream.skin) ? stream.skin : skin)) {
        throw new Error('the stream rating needs a permission this broadcaster lacks');
      }
      return { streamId: stream.id };
    },

    async onLive({ streamId, playlistKey, width, height }) {
      const [row] = await db.select({ startedAt: streams.startedAt }).from(streams).where(eq(streams.id, streamId));
      await db.update(streams).set({
        live: true,
        playlistKey,
        width,
        height,
        startedAt: row?.startedAt ?? new Date(),
        endedAt: null,
        updatedAt: new Date(),
      }).where(eq(streams.id, streamId));
    },

    async onThumbnail({ streamId, thumbnailKey }) {
      await db.update(streams).set({ thumbnailKey, updatedAt: new Date() }).where(eq(streams.id, streamId));
    },

    async onEnded({ streamId, playlistKey, lengthSeconds }) {
      await db.transaction(async (tx) => {
        // Whole seconds, rounded up: a short replay still has a length.
        await tx.update(streams).set({ live: false, endedAt: new Date(), playlistKey, lengthSeconds: Math.ceil(lengthSeconds), updatedAt: new Date() })
          .where(eq(streams.id, streamId));
        await tx.update(streamViews).set({ leftAt: new Date() }).where(and(eq(streamViews.streamId, streamId), isNull(streamViews.leftAt)));
      });
      const end: RealtimeMessage = { type: 'STREAM-END' };
      await deps.bus.publish(busChannelOf(streamChannelOf(streamId)), end);
    },

    async locatePlaylist(streamId) {
      const [row] = await db.select({ key: streams.playlistKey }).from(streams).where(and(eq(streams.id, streamId), isNull(streams.deletedAt)));
      return row?.key ?? null;
    },

    async locateThumbnail(streamId) {
      const [row] = await db.select({ key: streams.thumbnailKey }).from(streams).where(and(
        eq(streams.id, streamId),
        isNull(streams.deletedAt),
        eq(streams.hidden, false),
        ne(streams.audience, 'PRIVATE'),
        ne(streams.rating, 'PLUS_18'),
      ));
      return row?.key ?? null;
    },
  };
}
