/** The broadcaster's side of a stream: the current stream, its setup, Go Live, End Stream and the encoder's health. */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { LIVE_TAG, type IngestHealth as IngestHealthAnswer, type updateStreamInfo } from '../../../common/api/streams';
import { breaksPaidStaysPaid } from '../../../common/rules/pay-wall';
import { RECOMMENDED_KEYFRAME_INTERVAL_S } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { canGoLive, type Permission } from '../../../common/permissions';
import { SKINS, type Rating, type SkinId } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import type { DomainEventHub } from '../../platform/events';
import type { EventOutbox } from '../../platform/event-outbox';
import type { IngestHealth } from '../../platform/media/ingest-session';
import type { Principal } from '../../platform/http/auth';
import { badRequest, conflict, forbidden } from '../../platform/http/errors';
import type { MediaControl } from './media-control';
import type { StreamReads } from './stream-reads';
import type { StreamRow } from './stream-info';
import { streams } from './tables';
import './events';

type SetupData = z.output<typeof updateStreamInfo.input>['data'];

const LIVE_PERMISSION: Record<Rating, Permission> = {
  G: 'CREATE STREAM_LIVE_G',
  PLUS_14: 'CREATE STREAM_LIVE_PLUS14',
  PLUS_18: 'CREATE STREAM_LIVE_PLUS18',
};

/** Whether a stream with this rating may belong to the skin (18+ only where adult content is offered). */
const skinKeepsRating = (rating: Rating, skin: SkinId) => rating !== 'PLUS_18' || SKINS[skin].flags.adultContent;

export const mayStreamWithRating = (perms: readonly string[], rating: Rating, skin: SkinId) =>
  perms.includes(LIVE_PERMISSION[rating]) && skinKeepsRating(rating, skin);

/** GO LIVE's rule: the broadcast setup was saved with a title. */
function assertSetUp(row: StreamRow) {
  if (!row.setupAt || row.title.trim() === '') throw badRequest(MSG.updateBroadcastInfoFirst);
}

const INGEST_STATE = { starting: 'starting', live: 'live', grace: 'reconnecting', ending: 'ending', ended: 'ending' } as const;

/** The ingest's measurement as the owner reads it, with a warning where the encoder should be set differently. */
function ingestHealthAnswer({ state, reading }: IngestHealth): IngestHealthAnswer {
  const keyframes = reading?.keyframeIntervalSeconds ?? null;
  return {
    state: INGEST_STATE[state],
    bitrate_kbps: reading?.bitrateKbps ?? null,
    frame_rate: reading?.framesPerSecond ?? null,
    width: reading?.width ?? null,
    height: reading?.height ?? null,
    keyframe_interval: keyframes,
    video_codec: reading?.videoCodec ?? null,
    audio_codec: reading?.audioCodec ?? null,
    measured_seconds: reading?.measuredSeconds ?? 0,
    warnings: keyframes !== null && keyframes > RECOMMENDED_KEYFRAME_INTERVAL_S
      ? [fill(MSG.keyframeIntervalTooLong, { seconds: keyframes, max: RECOMMENDED_KEYFRAME_INTERVAL_S })]
      : [],
  };
}

export function createBroadcasting(deps: {
  db: Db;
  reads: Pick<StreamReads, 'findStream' | 'ownStream'>;
  media: Pick<MediaControl, 'stopBroadcast' | 'ingestHealth'>;
  events: DomainEventHub;
  /** `stream.went-live` is written with the go-live: the followers' notices follow it at least once. */
  outbox: EventOutbox;
  /** Drops the cached listings on every instance: a title, an audience, a go-live or an end shows in them. */
  listingsChanged?: () => Promise<void>;
}) {
  const { db, events } = deps;

  const ownStream = deps.reads.ownStream;

  return {
    /** The broadcaster's stream that has not ended; a new one (with the last setup, hidden) otherwise. */
    async currentStream(userId: number, skin: SkinId): Promise<StreamRow> {
      const open = () =>
        db.select().from(streams)
          .where(and(eq(streams.userId, userId), isNull(streams.endedAt), isNull(streams.deletedAt)))
          .limit(1);
      const [existing] = await open();
      if (existing) return existing;
      const [last] = await db.select().from(streams).where(eq(streams.userId, userId)).orderBy(desc(streams.id)).limit(1);
      await db.insert(streams).values({
        userId,
        skin,
        rating: last?.rating ?? SKINS[skin].defaultRating,
        ...(last
          ? {
              title: last.title,
              description: last.description,
              audience: last.audience,
              chatEnabled: last.chatEnabled,
              setupAt: last.setupAt,
              // A moderator's decision outlives one broadcast.
              ratingLocked: last.ratingLocked,
              audienceLocked: last.audienceLocked,
            }
          : {}),
      }).onConflictDoNothing(); // another request created it first (one open stream per broadcaster)
      const [created] = await open();
      return created!;
    },

    /** Broadcast setup and the owner's edit form. Saving marks the stream ready for Go Live. */
    async updateSetup(streamId: number, principal: Principal, data: SetupData, skin: SkinId) {
      const row = await ownStream(streamId, principal);
      if (data.rating && row.ratingLocked && data.rating !== row.rating) throw forbidden(MSG.setByModerator);
      if (data.audience && row.audienceLocked && data.audience !== row.audience && data.audience !== 'PRIVATE') {
        throw forbidden(MSG.setByModerator);
      }
      if (data.rating && data.rating !== row.rating && !mayStreamWithRating(principal.perms, data.rating, skin)) {
        throw forbidden(MSG.ratingNotAllowed);
      }
      if (data.audience && row.audience === 'PRIVATE' && data.audience !== 'PRIVATE' && row.endedAt) {
        throw badRequest(MSG.privateReplayAudience, 'data.audience');
      }
      if (data.tip_viewer_min_amount !== undefined && breaksPaidStaysPaid(row.tipViewerMinAmount, data.tip_viewer_min_amount)) {
        throw badRequest(MSG.paidStaysPaid, 'data.tip_viewer_min_amount');
      }
      const title = data.title === undefined ? undefined : data.title.includes(LIVE_TAG) ? data.title : `${data.title} ${LIVE_TAG}`;
      const [updated] = await db.update(streams).set({
        ...(title !== undefined ? { title } : {}),
        ...(data.description !== undefined ? { description: data.description } : {}),
        ...(data.audience ? { audience: data.audience } : {}),
        ...(data.rating ? { rating: data.rating } : {}),
        // The stream is set up where it is saved, unless its 18+ rating cannot play there (it stays where it can).
        ...(skinKeepsRating(data.rating ?? row.rating, skin) ? { skin } : {}),
        ...(data.chat_enabled !== undefined ? { chatEnabled: data.chat_enabled } : {}),
        ...(data.tip_viewer_min_amount !== undefined ? { tipViewerMinAmount: data.tip_viewer_min_amount } : {}),
        setupAt: row.setupAt ?? new Date(),
        updatedAt: new Date(),
      }).where(and(
        eq(streams.id, streamId),
        // A concurrent edit that made the stream paid wins over one making it free.
        data.tip_viewer_min_amount === 0 ? eq(streams.tipViewerMinAmount, 0) : undefined,
      )).returning();
      if (!updated) throw badRequest(MSG.paidStaysPaid, 'data.tip_viewer_min_amount');
      const priceChanged = data.tip_viewer_min_amount !== undefined && row.tipViewerMinAmount !== updated.tipViewerMinAmount;
      if (data.chat_enabled !== undefined) await events.emit('stream.options-changed', { streamId, chatEnabled: updated.chatEnabled });
      // Viewers hear the new price first; then sockets of those who now owe leave the channels.
      if (priceChanged) await events.emit('stream.price-changed', { streamId, tipViewerMinAmount: updated.tipViewerMinAmount });
      if (data.audience !== undefined || data.rating !== undefined || priceChanged) await events.emit('stream.access-changed', { streamId });
      else await deps.listingsChanged?.();
      return updated;
    },

    async goLive(streamId: number, principal: Principal) {
      const row = await ownStream(streamId, principal);
      assertSetUp(row);
      const { updated, wentLive } = await db.transaction(async (tx) => {
        const [shown] = await tx.update(streams).set({ hidden: false, updatedAt: new Date() }).where(eq(streams.id, streamId)).returning();
        const live = shown!.live ? { streamId, ownerId: shown!.userId, title: shown!.title } : null;
        if (live) await deps.outbox.write(tx, 'stream.went-live', live);
        return { updated: shown!, wentLive: live };
      });
      if (wentLive) await deps.outbox.afterCommit('stream.went-live', wentLive);
      else await deps.listingsChanged?.();
      return updated;
    },

    /**
     * Whether the owner may send this stream from the browser now (decision 0082): GO LIVE's rules, on a
     * stream that has not ended, by an account that may broadcast at all (the ingest checks that again).
     */
    async mayBroadcastFromBrowser(streamId: number, principal: Principal): Promise<StreamRow> {
      const row = await ownStream(streamId, principal);
      if (row.endedAt) throw conflict(MSG.browserBroadcastStreamEnded);
      if (!canGoLive(principal.perms)) throw forbidden(MSG.cannotGoLive);
      assertSetUp(row);
      return row;
    },

    /**
     * The owner ends the broadcast. The media instance disconnects the encoder and closes the playlist
     * (its onEnded hook then records the replay's length and tells viewers); the row is marked ended
     * here too, so the answer, and the next get-live-stream, are true on any instance at once.
     */
    async endStream(streamId: number, principal: Principal) {
      const row = await ownStream(streamId, principal);
      if (!row.live) throw conflict(MSG.streamNotLive);
      await deps.media.stopBroadcast(streamId);
      await db.update(streams).set({ live: false, endedAt: sql`coalesce(${streams.endedAt}, now())`, updatedAt: new Date() })
        .where(eq(streams.id, streamId));
      await deps.listingsChanged?.();
      return deps.reads.findStream(streamId);
    },

    /** The owner's reading of their encoder's feed, from the instance that ingests it; null while nothing publishes. */
    async ingestHealth(streamId: number, principal: Principal): Promise<IngestHealthAnswer | null> {
      const row = await ownStream(streamId, principal);
      if (!row.live) return null;
      const health = await deps.media.ingestHealth(streamId);
      return health && ingestHealthAnswer(health);
    },
  };
}

export type Broadcasting = ReturnType<typeof createBroadcasting>;
