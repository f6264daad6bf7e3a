/** HTTP handlers of live streams and stream listings. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as interactionsApi from '../../../common/api/stream-interactions';
import * as api from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { canGoLive } from '../../../common/permissions';
import { forbidden } from '../../platform/http/errors';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import type { Principal } from '../../platform/http/auth';
import type { AccountsService } from '../accounts';
import type { StreamInteractions } from './interactions';
import type { CachedListings } from './cached-listings';
import type { createStreamModeration } from './moderation';
import type { StreamAccess } from './access';
import type { Broadcasting } from './broadcasting';
import type { StreamViewing } from './viewing';
import type { JoinThrottle } from './join-throttle';
import { playbackClientOf, viewerKey, viewerOf } from './viewer';

export interface StreamRoutesDeps {
  broadcasting: Broadcasting;
  viewing: Pick<StreamViewing, 'info' | 'join' | 'leave'>;
  access: Pick<StreamAccess, 'lookup'>;
  listing: CachedListings;
  interactions: StreamInteractions;
  moderation: ReturnType<typeof createStreamModeration>;
  accounts: AccountsService;
  rtmpUrl(request: FastifyRequest): string;
  stopBroadcast(streamId: number): Promise<void>;
  likeLimit: number;
  joinThrottle: JoinThrottle;
}

export function registerStreamRoutes(app: FastifyInstance, deps: StreamRoutesDeps): void {
  const { broadcasting, viewing, access, listing } = deps;
  const tags = ['streams'];

  addRoute(app, api.getLiveStream, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal, request }) => {
    if (!canGoLive(principal.perms)) throw forbidden(MSG.cannotGoLive);
    const row = await broadcasting.currentStream(principal.userId, request.skin);
    const me = (await deps.accounts.sessionUser(principal.userId, { skin: request.skin, origin: request.publicOrigin }, principal));
    return {
      stream: { ...(await viewing.info(row, viewerOf(request, principal))), rtmp_url: deps.rtmpUrl(request), broadcast_key: me.broadcast_key ?? '' },
    };
  });

  addRoute(app, api.regenerateKey, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal, request }) => {
    if (!canGoLive(principal.perms)) throw forbidden(MSG.cannotGoLive);
    const broadcastKey = await deps.accounts.regenerateBroadcastKey(principal.userId);
    const current = await broadcasting.currentStream(principal.userId, request.skin);
    if (current.live) await deps.stopBroadcast(current.id);
    return { broadcast_key: broadcastKey };
  });

  // The setup form is the owner's: UPDATE STREAM_ANY acts through the report actions (spec §6).
  addRoute(app, api.updateStreamInfo, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal, request }) => {
    const row = await broadcasting.updateSetup(input.id, principal, input.data, request.skin);
    return { stream: await viewing.info(row, viewerOf(request, principal)) };
  });

  addRoute(app, api.goLive, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal, request }) => ({
    stream: await viewing.info(await broadcasting.goLive(input.id, principal), viewerOf(request, principal)),
  }));

  addRoute(app, api.endStream, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal, request }) => ({
    stream: await viewing.info(await broadcasting.endStream(input.id, principal), viewerOf(request, principal)),
  }));

  addRoute(app, api.streamIngestHealth, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => ({
    ingest: await broadcasting.ingestHealth(input.id, principal),
  }));

  // Checked on a stream with a price: on a free one the pay wall asks nothing of anyone.
  addRoute(app, api.streamJoin, { auth: 'anonymous', access: ACCESS.payWall, tags }, async ({ input, principal, request, reply }) => {
    const viewer = viewerOf(request, principal);
    await deps.joinThrottle.take(request, reply);
    const { row, hls } = await viewing.join(input.stream_id, viewer, await playbackClientOf(request));
    return {
      stream: await viewing.info(row, viewer),
      url: { hls, dash: null, file: null, width: row.width ?? 1280, height: row.height ?? 720 },
    };
  });

  addRoute(app, api.streamLookup, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) => {
    const viewer = viewerOf(request, principal);
    return { stream: await viewing.info(await access.lookup(input.id, viewer), viewer) };
  });

  addRoute(app, api.leaveStream, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) => {
    await viewing.leave(input.id, viewerOf(request, principal), input.likes ?? 0, deps.likeLimit);
    return {};
  });

  addRoute(app, api.deleteStream, { auth: 'user', access: ACCESS.stream('GRANT PERMISSION'), tags }, async ({ input, principal }) => {
    await deps.moderation.remove(principal, input.id);
    return {};
  });

  addRoute(app, api.addStreamThumbnail, { auth: 'user', access: ACCESS.stream('UPDATE STREAM_ANY'), tags }, async ({ input, principal }) => ({
    thumbnail_url: await deps.moderation.refreshThumbnail(principal, input.id),
  }));

  addRoute(app, api.reportStreamAction, { auth: 'user', access: ACCESS.with(ACCESS.permission('UPDATE STREAM_ANY'), { perms: { 'GRANT PERMISSION': 403 } }), tags }, async ({ input, principal }) => {
    const affected = await deps.moderation.act(principal, input.stream_ids, input.event, input.user_comment);
    return { affected };
  });

  addRoute(app, interactionsApi.sendRating, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, request }) =>
    deps.interactions.rate(input.stream_id, viewerOf(request, principal), input.id, input.rating),
  );

  addRoute(app, interactionsApi.saveStream, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, request }) =>
    deps.interactions.save(input.stream_id, viewerOf(request, principal), input.user_id, input.save),
  );

  addRoute(app, interactionsApi.savedStreams, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal, request }) =>
    listing.saved({ userId: principal.userId, skin: request.skin }, input));

  addRoute(app, interactionsApi.reportStream, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, request }) => {
    await deps.interactions.report(input.id, viewerOf(request, principal), input.type, input.user_comment);
    return {};
  });

  addRoute(app, interactionsApi.banViewer, { auth: 'user', access: ACCESS.stream('UPDATE STREAM_ANY', 'GRANT PERMISSION'), tags }, async ({ input, principal }) => {
    await deps.interactions.banViewer(input.stream_id, principal, input.user_id);
    return {};
  });

  const listingViewer = (request: FastifyRequest, principal: Principal | null) => ({
    userId: principal?.userId ?? null,
    skin: request.skin,
    viewerKey: () => viewerKey(viewerOf(request, principal)),
  });

  addRoute(app, api.userStreams, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) =>
    listing.user(input.id, listingViewer(request, principal), input.isAdult ?? false, input),
  );

  addRoute(app, api.listChannelStreams, { auth: 'anonymous', access: ACCESS.public, tags: ['channels'] }, async ({ input, principal, request }) =>
    listing.channel(input.id, listingViewer(request, principal), input),
  );

  addRoute(app, api.listStreams, { auth: 'anonymous', access: ACCESS.public, tags: ['channels'] }, async ({ input, principal, request }) =>
    listing.all(listingViewer(request, principal), input),
  );

  addRoute(app, api.searchStream, { auth: 'anonymous', access: ACCESS.public, tags: ['channels'] }, async ({ input, principal, request }) =>
    listing.search(input.search, listingViewer(request, principal), input),
  );
}
