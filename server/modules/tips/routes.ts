/** HTTP handlers of tips, supporters and earnings. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/tips';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { viewerOf, type StreamReads } from '../streams';
import type { TipMenu } from './menu';
import type { TipsService } from './service';

export function registerTipRoutes(app: FastifyInstance, deps: { tips: TipsService; menu: TipMenu; streamReads: Pick<StreamReads, 'ownStream'> }): void {
  const { tips, menu } = deps;
  const ownStream = deps.streamReads.ownStream;
  const tags = ['tips'];

  // The key's first request is kept in the tip's transfer: the hot path takes no extra round trip.
  addRoute(app, api.sendTip, { auth: 'user', access: ACCESS.notOwner, tags, keyKept: 'transfer' }, async ({ input, principal, request, keyed }) =>
    tips.send(viewerOf(request, principal), input.stream_id, input.amount, keyed, input.message, input.menu_item_id),
  );

  addRoute(app, api.tipMenu, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input }) => ({ items: await menu.items(input.user_id) }));

  addRoute(app, api.saveTipMenu, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    items: await menu.save(principal.userId, input.items),
  }));

  addRoute(app, api.menuRequests, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => ({
    requests: await menu.requests((await ownStream(input.id, principal)).id),
  }));

  addRoute(app, api.markMenuRequest, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => ({
    request: await menu.mark((await ownStream(input.stream_id, principal)).id, input.request_id, input.done),
  }));

  addRoute(app, api.streamSupporters, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) => ({
    supporters: await tips.supporters(input.id, viewerOf(request, principal), input.limit),
  }));

  addRoute(app, api.liveSession, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => tips.liveSession(input.id, principal));

  addRoute(app, api.userEarningDetails, { auth: 'user', access: ACCESS.permission('GRANT PERMISSION'), tags }, async ({ input, principal }) => tips.earningDetails(principal, input.id));
}
