/**
 * Streams: broadcast setup, go live over RTMP, who may watch, join and leave, the pay wall, listings,
 * ratings, saves, reports, bans and moderator actions. It owns the streams tables and answers the
 * ingest's callbacks; what happens to a stream goes out as domain events (./events.ts).
 */
import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { createReadCache } from '../../platform/cache/read-cache';
import { createMediaServer, type MediaServer } from '../../platform/media/media-server';
import type { AppModule, ModuleContext } from '../../platform/module';
import { broadcasterScoreReads } from './broadcaster-scores';
import { createBroadcastCallbacks, type BroadcastCallbacks } from './broadcast-callbacks';
import { registerBrowserBroadcastRoute } from './browser-broadcast';
import { createChannelModerators, type ChannelModerators } from './channel-moderators';
import { createCachedListings, LISTINGS_TAG } from './cached-listings';
import { createStreamInteractions } from './interactions';
import { createStreamListing } from './listing';
import { createJoinThrottle } from './join-throttle';
import { createMediaControl } from './media-control';
import { createPlaybackGate } from './playback-gate';
import { createStreamModeration, type StreamModeration } from './moderation';
import { registerStreamRoutes } from './routes';
import { createStreamAccess, type ShowRules, type StreamAccess } from './access';
import { createBroadcasting, type Broadcasting } from './broadcasting';
import { createStreamReads, type StreamReads } from './stream-reads';
import { createStreamViewing, type AdCampaigns, type ActiveGoals, type RealtimeLikes, type StreamViewing } from './viewing';
import { broadcasterChannels, streams as streamsTable } from './tables';
import './events';

export { mayActOnAnyStream, mayUsePriorityChat, minimumSql, plainlyWatchableSql, streamLiveSql, type ShowRules, type StreamAccess } from './access';
export type { Broadcasting } from './broadcasting';
export type { StreamReads } from './stream-reads';
export type { StreamViewing } from './viewing';
export { userIdOfViewerKey, type Viewer, viewerKey } from './viewer';
export type { StreamRow } from './stream-info';
export { featuredCandidatesSql, streamCountSql, streamReportsSql, type StreamModeration } from './moderation';
export { viewerOf } from './viewer';
export type { ChannelModerators } from './channel-moderators';
export { likesOfStreamsStarted, type RealtimeLikesOn, type StreamCard, streamCards, streamingOf, viewFactsSql } from './analytics-reads';
export { type PastView, recordPastReport, recordPastViews } from './past-views';
export { createMediaAddresses, type MediaAddresses, mediaViewerKey, signedMediaViewer } from './signed-media';

declare module '../../platform/module' {
  interface ModuleServices {
    /** Streams as they are, whoever asks. */
    streamReads: StreamReads;
    /** What a viewer may do with a stream: watch rules, pay wall, priority chat. */
    streamAccess: StreamAccess;
    /** Joining, the stream as its viewer sees it, who watches, likes. */
    streamViewing: StreamViewing;
    /** The broadcaster's side: setup, Go Live, End Stream, ingest health. */
    broadcasting: Broadcasting;
    broadcastCallbacks: BroadcastCallbacks;
    media: MediaServer;
    streamModeration: StreamModeration;
    /** Who the broadcasters appointed to moderate their chat. */
    channelModerators: ChannelModerators;
  }
  interface ModuleHooks {
    realtimeLikes: RealtimeLikes;
    adCampaigns: AdCampaigns;
    streamGoals: ActiveGoals;
    showRules: ShowRules;
  }
}

/** Who moderates a channel is kept this long per instance; a change drops it at once on every instance over the bus (this bounds a missed drop). */
const MODERATORS_CACHE_MS = 30_000;

export async function createStreamsModule(ctx: ModuleContext): Promise<AppModule> {
  const { db, config, events } = ctx;
  const accounts = ctx.service('accounts');
  const social = ctx.service('social');
  const mediaIsLocal = config.role === 'all' || config.role === 'media';
  // The media server needs the callbacks, the callbacks need broadcasting, which needs media control:
  // the control reads `media` once it exists.
  const mediaControl = createMediaControl(() => media, ctx.bus, mediaIsLocal, config.playbackTtlSeconds);
  // Listings every visitor sees alike are kept about a second; what changes a tile or a listing drops them on every instance.
  const listingsCache = await createReadCache(ctx.bus, { name: 'stream-listings', ttlMs: config.readCacheMs, log: ctx.log });
  const listingsChanged = () => listingsCache.invalidate([LISTINGS_TAG]);
  for (const event of ['stream.went-live', 'stream.ended', 'stream.access-changed'] as const) events.on(event, listingsChanged);
  const moderatorsCache = await createReadCache(ctx.bus, { name: 'channel-moderators', ttlMs: MODERATORS_CACHE_MS, log: ctx.log });
  const channelModerators = createChannelModerators({ db, accounts, cache: moderatorsCache });
  const reads = createStreamReads(db);
  const showRules = ctx.hook('showRules', 'shows');
  const access = createStreamAccess({ db, reads, accounts, social, ledger: ctx.service('ledger'), showRules });
  const viewing = createStreamViewing({
    db, reads, access, accounts, social, media: mediaControl,
    realtimeLikes: ctx.hook('realtimeLikes', 'chat'), adCampaigns: ctx.hook('adCampaigns', 'ads'), activeGoals: ctx.hook('streamGoals', 'goals'),
  });
  const broadcasting = createBroadcasting({ db, reads, media: mediaControl, events, outbox: ctx.platform.outbox, listingsChanged });
  const broadcastCallbacks = createBroadcastCallbacks({ db, accounts, broadcasting, events, outbox: ctx.platform.outbox });
  const media = createMediaServer({
    config,
    files: ctx.files,
    liveDir: config.storage.liveDir,
    callbacks: broadcastCallbacks,
    log: ctx.log,
    secret: config.playbackSecret ?? (await ctx.secret('playback')),
    graceMs: config.rtmpGraceMs,
    renditions: config.liveRenditions,
  });
  const moderation = createStreamModeration({ db, accountAdmin: ctx.service('accountAdmin'), media: mediaControl, events });
  ctx.fill('broadcasterScores', broadcasterScoreReads(db, viewing.realtimeLikesOn));
  await mediaControl.listen();
  const playbackGate = createPlaybackGate({ access, tokens: media.tokens, events, bus: ctx.bus });
  await playbackGate.listen();

  // A deleted account's streams leave every listing; a live one ends and its viewers are checked again
  // (from the event outbox: hiding, stopping and checking again are all harmless when delivered twice).
  events.onDurable('account.deleted', async ({ userId }) => {
    const hidden = await db.update(streamsTable).set({ hidden: true, updatedAt: new Date() })
      .where(eq(streamsTable.userId, userId)).returning({ id: streamsTable.id, live: streamsTable.live });
    await listingsChanged();
    for (const stream of hidden.filter((s) => s.live)) {
      await mediaControl.stopBroadcast(stream.id);
      await events.emit('stream.access-changed', { streamId: stream.id });
    }
  });

  return {
    name: 'streams',
    services: { streamReads: reads, streamAccess: access, streamViewing: viewing, broadcasting, broadcastCallbacks, media, streamModeration: moderation, channelModerators },
    routes(app) {
      media.registerRoutes(
        app,
        { playlist: broadcastCallbacks.locatePlaylist, thumbnail: broadcastCallbacks.locateThumbnail },
        playbackGate,
        access.keptOut,
      );
      registerStreamRoutes(app, {
        broadcasting,
        viewing,
        access,
        listing: createCachedListings({
          listing: createStreamListing({ db, accounts, social, realtimeLikes: viewing.realtimeLikesOn }),
          channels: ctx.service('channels'),
          cache: listingsCache,
          onPromotedShown: (ownerIds, viewerKey) => void events.emit('stream.promoted-shown', { ownerIds, viewerKey }),
        }),
        interactions: createStreamInteractions({ db, reads, access, accounts, moderators: channelModerators, events }),
        moderation,
        accounts,
        likeLimit: config.streamViewerLikeLimit,
        joinThrottle: createJoinThrottle(db, config.streamJoinsPerAddress),
        stopBroadcast: (streamId) => mediaControl.stopBroadcast(streamId),
        rtmpUrl: (request) => config.rtmpPublicUrl ?? `rtmp://${request.hostname}:${media.ingest.port || config.rtmpPort}/live`,
      });
      registerBrowserBroadcastRoute(app, {
        broadcasting,
        reads,
        accounts,
        // An instance without the media role relays to the public ingest address, where the media instances listen.
        publishUrl: (streamKey) => (mediaIsLocal ? media.ingest.publishUrl(streamKey) : config.rtmpPublicUrl ? `${config.rtmpPublicUrl.replace(/\/$/, '')}/${streamKey}` : null),
        ffmpegPath: media.ffmpegPath,
      });
    },
    async start() {
      if (mediaIsLocal) await media.start();
    },
    // Putting live broadcasts in grace still writes to the database: the media stops before it closes.
    async stop() {
      await media.stop();
      await listingsCache.close();
      await moderatorsCache.close();
    },
  };
}

/** True (as SQL) when the user is listed in the Women or Men channel; `userId` may be a column of the embedding statement. */
export const inGenderChannelSql = (userId: number | SQL | AnyColumn, gender: 'women' | 'men') =>
  sql`exists (select 1 from ${broadcasterChannels} bc where bc.user_id = ${userId} and bc.gender = ${gender})`;
