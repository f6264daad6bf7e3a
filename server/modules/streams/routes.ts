/** HTTP handlers of live streams and stream listings. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as interactionsApi from '../../../common/api/stream-interactions';
import * as api from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { canGoLive } from '../../../common/permissions';
import { forbidden, notFound } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import type { Principal } from '../../platform/http/auth';
import type { AccountsService } from '../accounts/service';
import type { ChannelsService } from '../channels/service';
import type { StreamInteractions } from './interactions';
import type { StreamListing } from './listing';
import type { createStreamModeration } from './moderation';
import { guestKeyOf, type StreamsService, type Viewer } from './service';

export interface StreamRoutesDeps {
  streams: StreamsService;
  listing: StreamListing;
  interactions: StreamInteractions;
  moderation: ReturnType<typeof createStreamModeration>;
  channels: ChannelsService;
  accounts: AccountsService;
  rtmpUrl(request: FastifyRequest): string;
  /** Reload the keys the ingest accepts (this instance; others refresh on their timer). */
  onKeyChanged(): Promise<void>;
  stopBroadcast(streamId: number): Promise<void>;
  likeLimit: number;
  /** What the realtime side does when a stream changes (wired to the chat module in app.ts). */
  realtime: StreamRealtime;
}

export interface StreamRealtime {
  /** STREAM-OPTIONS to the stream's viewers (chat toggled). */
  optionsChanged(streamId: number, options: { chat_enabled: boolean }): Promise<void>;
  /** The stream's audience, rating or existence changed: sockets on its channels are checked again. */
  accessChanged(streamId: number): Promise<void>;
  /** BLOCKED to the banned viewer's sockets, which leave the stream's channels on every instance. */
  viewerBanned(streamId: number, userId: number): Promise<void>;
  /** TIP-ENFORCE to the stream's viewers: the stream payment changed (spec part 1 §4). */
  tipEnforced(streamId: number, tipViewerMinAmount: number): Promise<void>;
}

export const viewerOf = <P extends Principal | null>(request: FastifyRequest, principal: P): Viewer & { principal: P } => ({
  principal,
  skin: request.skin,
  guestKey: guestKeyOf(request.ip, request.headers['user-agent']),
});

export function registerStreamRoutes(app: FastifyInstance, deps: StreamRoutesDeps): void {
  const { streams, listing } = deps;
  const tags = ['streams'];

  addRoute(app, api.getLiveStream, { auth: 'user', tags }, async ({ principal, request }) => {
    if (!canGoLive(principal.perms)) throw forbidden(MSG.cannotGoLive);
    const row = await streams.currentStream(principal.userId, request.skin);
    const me = (await deps.accounts.sessionUser(principal.userId, { skin: request.skin, origin: request.publicOrigin }));
    return {
      stream: { ...(await streams.info(row, viewerOf(request, principal))), rtmp_url: deps.rtmpUrl(request), broadcast_key: me.broadcast_key ?? '' },
    };
  });

  addRoute(app, api.regenerateKey, { auth: 'user', tags }, async ({ principal, request }) => {
    if (!canGoLive(principal.perms)) throw forbidden(MSG.cannotGoLive);
    const broadcastKey = await deps.accounts.regenerateBroadcastKey(principal.userId);
    await deps.onKeyChanged();
    const current = await streams.currentStream(principal.userId, request.skin);
    if (current.live) await deps.stopBroadcast(current.id);
    return { broadcast_key: broadcastKey };
  });

  addRoute(app, api.updateStreamInfo, { auth: 'user', tags }, async ({ input, principal, request }) => {
    const priceBefore = input.data.tip_viewer_min_amount === undefined ? undefined : (await streams.findStream(input.id)).tipViewerMinAmount;
    const row = await streams.updateSetup(input.id, principal, input.data, request.skin);
    const priceChanged = priceBefore !== undefined && priceBefore !== row.tipViewerMinAmount;
    if (input.data.chat_enabled !== undefined) await deps.realtime.optionsChanged(row.id, { chat_enabled: row.chatEnabled });
    // Viewers hear the new price first; then sockets of those who now owe leave the channels.
    if (priceChanged) await deps.realtime.tipEnforced(row.id, row.tipViewerMinAmount);
    if (input.data.audience !== undefined || input.data.rating !== undefined || priceChanged) await deps.realtime.accessChanged(row.id);
    return { stream: await streams.info(row, viewerOf(request, principal)) };
  });

  addRoute(app, api.goLive, { auth: 'user', tags }, async ({ input, principal, request }) => ({
    stream: await streams.info(await streams.goLive(input.id, principal), viewerOf(request, principal)),
  }));

  addRoute(app, api.streamJoin, { auth: 'anonymous', tags }, async ({ input, principal, request }) => {
    const viewer = viewerOf(request, principal);
    const { row, hls } = await streams.join(input.stream_id, viewer);
    return {
      stream: await streams.info(row, viewer),
      url: { hls, dash: null, file: null, width: row.width ?? 1280, height: row.height ?? 720 },
    };
  });

  addRoute(app, api.streamLookup, { auth: 'anonymous', tags }, async ({ input, principal, request }) => {
    const viewer = viewerOf(request, principal);
    return { stream: await streams.info(await streams.lookup(input.id, viewer), viewer) };
  });

  addRoute(app, api.leaveStream, { auth: 'anonymous', tags }, async ({ input, principal, request }) => {
    await streams.leave(input.id, viewerOf(request, principal), input.likes ?? 0, deps.likeLimit);
    return {};
  });

  addRoute(app, api.deleteStream, { auth: 'user', tags }, async ({ input, principal }) => {
    await streams.remove(input.id, principal);
    await deps.realtime.accessChanged(input.id);
    return {};
  });

  addRoute(app, api.addStreamThumbnail, { auth: 'user', tags }, async ({ input, principal }) => ({
    thumbnail_url: await streams.refreshThumbnail(input.id, principal),
  }));

  addRoute(app, api.reportStreamAction, { auth: 'user', tags }, async ({ input, principal }) => {
    const affected = await deps.moderation.act(principal, input.stream_ids, input.event, input.user_comment);
    // Deleted, suspended, 18+ or followers-only now: viewers already on the channel are checked again.
    for (const streamId of input.stream_ids) await deps.realtime.accessChanged(streamId);
    return { affected };
  });

  addRoute(app, interactionsApi.sendRating, { auth: 'user', tags }, async ({ input, principal, request }) =>
    deps.interactions.rate(input.stream_id, viewerOf(request, principal), input.id, input.rating),
  );

  addRoute(app, interactionsApi.saveStream, { auth: 'user', tags }, async ({ input, principal, request }) =>
    deps.interactions.save(input.stream_id, viewerOf(request, principal), input.user_id, input.save),
  );

  addRoute(app, interactionsApi.savedStreams, { auth: 'user', tags }, async ({ input, principal, request }) =>
    listing.saved({ userId: principal.userId, skin: request.skin }, input));

  addRoute(app, interactionsApi.reportStream, { auth: 'user', tags }, async ({ input, principal, request }) => {
    await deps.interactions.report(input.id, viewerOf(request, principal), input.type, input.user_comment);
    return {};
  });

  addRoute(app, interactionsApi.banViewer, { auth: 'user', tags }, async ({ input, principal }) => {
    await deps.interactions.banViewer(input.stream_id, principal, input.user_id);
    await deps.realtime.viewerBanned(input.stream_id, input.user_id);
    return {};
  });

  const listingViewer = (request: FastifyRequest, principal: Principal | null) => ({ userId: principal?.userId ?? null, skin: request.skin });

  addRoute(app, api.userStreams, { auth: 'anonymous', tags }, async ({ input, principal, request }) =>
    listing.user(input.id, listingViewer(request, principal), input.isAdult ?? false, input),
  );

  addRoute(app, api.listChannelStreams, { auth: 'anonymous', tags: ['channels'] }, async ({ input, principal, request }) => {
    const channel = await deps.channels.find(input.id);
    if (!channel) throw notFound('No such channel.');
    return listing.channel(channel, listingViewer(request, principal), input);
  });

  addRoute(app, api.listStreams, { auth: 'anonymous', tags: ['channels'] }, async ({ input, principal, request }) =>
    listing.all(listingViewer(request, principal), input),
  );

  addRoute(app, api.searchStream, { auth: 'anonymous', tags: ['channels'] }, async ({ input, principal, request }) =>
    listing.search(input.search, listingViewer(request, principal), input),
  );
}
