/** The streams module's answers to the RTMP ingest (server/platform/media/ingest-callbacks.ts). */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { canGoLive } from '../../../common/permissions';
import { isSkinId } from '../../../common/skins';
import type { Db, Tx } from '../../platform/db/client';
import { LEASE_TTL_MS, type IngestCallbacks, type PlaylistLocator } from '../../platform/media/ingest-callbacks';
import type { DomainEventHub } from '../../platform/events';
import type { EventOutbox } from '../../platform/event-outbox';
import { BROADCAST_KEY_PATTERN, type AccountsService } from '../accounts';
import { mayStreamWithRating, type Broadcasting } from './broadcasting';
import { hasPublicPicture } from './stream-info';
import { broadcastLeases, streams, streamViews } from './tables';

export interface BroadcastCallbacks extends IngestCallbacks {
  /** This process's name on the leases it holds. */
  readonly instanceId: string;
  /** A playlist to serve (not for deleted streams); who may play it was decided when the token was signed. */
  locatePlaylist: PlaylistLocator;
  /** A thumbnail to show as a plain image: only for streams that listings may show. */
  locateThumbnail: PlaylistLocator;
}

/** The broadcast is over: no longer live, its viewers have left. */
async function endStream(tx: Tx, streamId: number, replay: { playlistKey?: string; lengthSeconds: number | null }): Promise<void> {
  await tx.update(streams).set({
    live: false,
    endedAt: sql`coalesce(${streams.endedAt}, now())`,
    ...(replay.playlistKey ? { playlistKey: replay.playlistKey } : {}),
    // Whole seconds, rounded up: a short replay still has a length.
    ...(replay.lengthSeconds !== null ? { lengthSeconds: Math.ceil(replay.lengthSeconds) } : {}),
    updatedAt: new Date(),
  }).where(eq(streams.id, streamId));
  await tx.update(streamViews).set({ leftAt: new Date() }).where(and(eq(streamViews.streamId, streamId), isNull(streamViews.leftAt)));
}

/** A key startBroadcast refused is refused from memory this long (a client retrying a wrong key costs no lookups). */
const REFUSED_KEY_MS = 10_000;

export function createBroadcastCallbacks(deps: {
  db: Db;
  accounts: AccountsService;
  broadcasting: Pick<Broadcasting, 'currentStream'>;
  events: DomainEventHub;
  /** `stream.went-live` is written with the go-live: the followers' notices follow it at least once. */
  outbox: EventOutbox;
  now?: () => number;
}): BroadcastCallbacks {
  const { db } = deps;
  const instanceId = randomUUID();
  const leaseExpiry = (ms = LEASE_TTL_MS) => sql`now() + ${`${ms} milliseconds`}::interval`;
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

    instanceId,

    async startBroadcast(streamKey) {
      const publisher = await deps.accounts.publisherByKey(streamKey);
      if (!publisher) {
        refuse(streamKey);
        throw new Error('this key may not publish');
      }
      if (!canGoLive(publisher.perms)) {
        refuse(streamKey);
        // Their key is known: the dashboard of their open stream (if any) says why, rather than waiting.
        const [open] = await db.select({ id: streams.id }).from(streams)
          .where(and(eq(streams.userId, publisher.user.id), isNull(streams.endedAt), isNull(streams.deletedAt))).limit(1);
        if (open) await deps.events.emit('stream.stopped', { streamId: open.id, ownerId: publisher.user.id, reason: 'may-not-broadcast' });
        throw new Error('this account may not broadcast live');
      }
      const skin = isSkinId(publisher.user.service) ? publisher.user.service : 'limelight';
      const stream = await deps.broadcasting.currentStream(publisher.user.id, skin);
      if (!mayStreamWithRating(publisher.perms, stream.rating, isSkinId(stream.skin) ? stream.skin : skin)) {
        await deps.events.emit('stream.stopped', { streamId: stream.id, ownerId: publisher.user.id, reason: 'rating-not-allowed' });
        throw new Error(`the stream's rating ${stream.rating} may not be broadcast by this account in ${stream.skin}`);
      }
      if (!stream.live) return { streamId: stream.id };
      // Still live under a lease: its instance went away (or the encoder moved); this one continues the broadcast.
      const [taken] = await db.update(broadcastLeases).set({ instanceId, inGrace: false, expiresAt: leaseExpiry() })
        .where(eq(broadcastLeases.streamId, stream.id)).returning({ broadcastId: broadcastLeases.broadcastId });
      return taken ? { streamId: stream.id, continues: taken.broadcastId } : { streamId: stream.id };
    },

    async onLive({ streamId, broadcastId, playlistKey, width, height }) {
      const wentLive = await db.transaction(async (tx) => {
        const [row] = await tx.select({ startedAt: streams.startedAt, live: streams.live }).from(streams).where(eq(streams.id, streamId));
        const [updated] = await tx.update(streams).set({
          live: true,
          playlistKey,
          width,
          height,
          startedAt: row?.startedAt ?? new Date(),
          endedAt: null,
          updatedAt: new Date(),
        }).where(eq(streams.id, streamId)).returning({ ownerId: streams.userId, title: streams.title, hidden: streams.hidden });
        const lease = { instanceId, broadcastId, inGrace: false, expiresAt: leaseExpiry() };
        if (updated) await tx.insert(broadcastLeases).values({ streamId, ...lease }).onConflictDoUpdate({ target: broadcastLeases.streamId, set: lease });
        // A broadcast continued on another instance is the same broadcast: its followers heard of it once.
        const wentLive = updated && !updated.hidden && !row?.live ? { streamId, ownerId: updated.ownerId, title: updated.title } : null;
        if (wentLive) await deps.outbox.write(tx, 'stream.went-live', wentLive);
        return wentLive;
      });
      if (wentLive) await deps.outbox.afterCommit('stream.went-live', wentLive);
    },

    async onThumbnail({ streamId, thumbnailKey }) {
      await db.update(streams).set({ thumbnailKey, updatedAt: new Date() }).where(eq(streams.id, streamId));
    },

    async onEnded({ streamId, playlistKey, lengthSeconds, reason }) {
      const ended = await db.transaction(async (tx) => {
        const [lease] = await tx.select().from(broadcastLeases).where(eq(broadcastLeases.streamId, streamId)).for('update');
        const elsewhere = lease && lease.instanceId !== instanceId && lease.expiresAt.getTime() > Date.now();
        if (elsewhere) return false;
        if (lease) await tx.delete(broadcastLeases).where(eq(broadcastLeases.streamId, streamId));
        await endStream(tx, streamId, { playlistKey, lengthSeconds });
        return true;
      });
      if (!ended) return;
      await deps.events.emit('stream.ended', { streamId });
      if (reason) {
        // The platform stopped it, not its owner: they are told why on their dashboard.
        const [row] = await db.select({ ownerId: streams.userId }).from(streams).where(eq(streams.id, streamId));
        if (row) await deps.events.emit('stream.stopped', { streamId, ownerId: row.ownerId, reason });
      }
    },

    async renewLeases(streamIds) {
      if (!streamIds.length) return new Set();
      const held = await db.update(broadcastLeases).set({ expiresAt: leaseExpiry() })
        .where(and(eq(broadcastLeases.instanceId, instanceId), inArray(broadcastLeases.streamId, streamIds)))
        .returning({ streamId: broadcastLeases.streamId });
      return new Set(held.map((l) => l.streamId));
    },

    async releaseLeases(streamIds, graceMs) {
      if (!streamIds.length) return;
      await db.update(broadcastLeases).set({ inGrace: true, expiresAt: leaseExpiry(graceMs) })
        .where(and(eq(broadcastLeases.instanceId, instanceId), inArray(broadcastLeases.streamId, streamIds)));
    },

    async endExpiredBroadcasts(closePlaylist) {
      // Deleting the lease is the claim: of several sweeping instances, one gets each row.
      const expired = await db.delete(broadcastLeases).where(lt(broadcastLeases.expiresAt, sql`now()`)).returning({ streamId: broadcastLeases.streamId });
      // Live with no lease at all: a crash between claim and end, or a broadcast from before leases (not one just going live: that writes both at once).
      const orphans = await db.select({ streamId: streams.id }).from(streams)
        .where(and(eq(streams.live, true), lt(streams.updatedAt, sql`now() - ${`${LEASE_TTL_MS} milliseconds`}::interval`),
          sql`not exists (select 1 from ${broadcastLeases} bl where bl.stream_id = ${streams.id})`));
      let count = 0;
      for (const { streamId } of [...expired, ...orphans]) {
        const [row] = await db.select({ playlistKey: streams.playlistKey }).from(streams).where(and(eq(streams.id, streamId), eq(streams.live, true)));
        if (!row) continue;
        const lengthSeconds = row.playlistKey ? await closePlaylist(row.playlistKey) : null;
        const ended = await db.transaction(async (tx) => {
          const [again] = await tx.select({ streamId: broadcastLeases.streamId }).from(broadcastLeases).where(eq(broadcastLeases.streamId, streamId)).for('update');
          if (again) return false; // its encoder came back meanwhile
          await endStream(tx, streamId, { lengthSeconds });
          return true;
        });
        if (!ended) continue;
        count += 1;
        await deps.events.emit('stream.ended', { streamId });
      }
      return count;
    },

    async isLeased(streamId) {
      const [lease] = await db.select({ streamId: broadcastLeases.streamId }).from(broadcastLeases)
        .where(and(eq(broadcastLeases.streamId, streamId), gt(broadcastLeases.expiresAt, sql`now()`)));
      return lease !== undefined;
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
