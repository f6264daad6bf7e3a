/** The streams module's answers to the RTMP ingest (server/platform/media/ingest-hooks.ts). */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { canGoLive } from '../../../common/permissions';
import { isSkinId } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import type { IngestHooks, PlaylistLocator } from '../../platform/media/ingest-hooks';
import type { DomainEventHub } from '../../platform/events';
import { BROADCAST_KEY_PATTERN, type AccountsService } from '../accounts';
import { mayStreamWithRating, type StreamsService } from './service';
import { hasPublicPicture } from './stream-view';
import { streams, streamViews } from './tables';

export interface BroadcastHooks extends IngestHooks {
  /**
   * At the media node's start nothing publishes yet: streams still marked live lost their end to a
   * crash (boot cleanup reports the playlists it closes; these may have been closed already).
   */
  endStaleLiveStreams(): Promise<number>;
  /** A playlist to serve (not for deleted streams); who may play it was decided when the token was signed. */
  locatePlaylist: PlaylistLocator;
  /** A thumbnail to show as a plain image: only for streams that listings may show. */
  locateThumbnail: PlaylistLocator;
}

/** A key startBroadcast refused is refused from memory this long (a client retrying a wrong key costs no lookups). */
const REFUSED_KEY_MS = 10_000;

export function createBroadcastHooks(deps: {
  db: Db;
  accounts: AccountsService;
  streams: StreamsService;
  events: DomainEventHub;
  now?: () => number;
}): BroadcastHooks {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const refusedUntil = new Map<string, number>();
  const refuse = (streamKey: string) => {
    if (refusedUntil.size >= 10_000) refusedUntil.clear();
    refusedUntil.set(streamKey, now() + REFUSED_KEY_MS);
  };

  return {
    // From memory only (node-media-server does not wait): the lookup itself is startBroadcast's, at connect
    // time, so a key works the moment it is shown and nothing loads every publisher's key.
    canPublish: (streamKey) => BROADCAST_KEY_PATTERN.test(streamKey) && (refusedUntil.get(streamKey) ?? 0) <= now(),

    async endStaleLiveStreams() {
      const ended = await db.update(streams).set({ live: false, endedAt: sql`coalesce(${streams.endedAt}, now())`, updatedAt: new Date() })
        .where(eq(streams.live, true)).returning({ id: streams.id });
      return ended.length;
    },

    async startBroadcast(streamKey) {
      const publisher = await deps.accounts.publisherByKey(streamKey);
      if (!publisher || !canGoLive(publisher.perms)) {
        refuse(streamKey);
        throw new Error('this key may not publish');
      }
      const skin = isSkinId(publisher.user.service) ? publisher.user.service : 'limelight';
      const stream = await deps.streams.currentStream(publisher.user.id, skin);
      if (!mayStreamWithRating(publisher.perms, stream.rating, isSkinId(stream.skin) ? stream.skin : skin)) {
        throw new Error('the stream rating needs a permission this broadcaster lacks');
      }
      return { streamId: stream.id };
    },

    async onLive({ streamId, playlistKey, width, height }) {
      const [row] = await db.select({ startedAt: streams.startedAt }).from(streams).where(eq(streams.id, streamId));
      const [updated] = await db.update(streams).set({
        live: true,
        playlistKey,
        width,
        height,
        startedAt: row?.startedAt ?? new Date(),
        endedAt: null,
        updatedAt: new Date(),
      }).where(eq(streams.id, streamId)).returning({ ownerId: streams.userId, title: streams.title, hidden: streams.hidden });
      if (updated && !updated.hidden) await deps.events.emit('stream.went-live', { streamId, ownerId: updated.ownerId, title: updated.title });
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
      await deps.events.emit('stream.ended', { streamId });
    },

    async locatePlaylist(streamId) {
      const [row] = await db.select({ key: streams.playlistKey }).from(streams).where(and(eq(streams.id, streamId), isNull(streams.deletedAt)));
      return row?.key ?? null;
    },

    async locateThumbnail(streamId) {
      const [row] = await db.select({ key: streams.thumbnailKey, audience: streams.audience, rating: streams.rating, tipViewerMinAmount: streams.tipViewerMinAmount })
        .from(streams).where(and(eq(streams.id, streamId), isNull(streams.deletedAt), eq(streams.hidden, false)));
      return row && hasPublicPicture(row) ? row.key : null;
    },
  };
}
