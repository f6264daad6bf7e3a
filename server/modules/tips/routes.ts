/** HTTP handlers of tips, supporters and earnings. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/tips';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { viewerOf } from '../streams';
import type { TipsService } from './service';

export function registerTipRoutes(app: FastifyInstance, deps: { tips: TipsService }): void {
  const { tips } = deps;
  const tags = ['tips'];

  // The key's first request is kept in the tip's transfer: the hot path takes no extra round trip.
  addRoute(app, api.sendTip, { auth: 'user', access: ACCESS.notOwner, tags, keyKept: 'transfer' }, async ({ input, principal, request, keyed }) =>
    tips.send(viewerOf(request, principal), input.stream_id, input.amount, keyed, input.message),
  );

  addRoute(app, api.streamSupporters, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) => ({
    supporters: await tips.supporters(input.id, viewerOf(request, principal), input.limit),
  }));

  addRoute(app, api.liveSession, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => tips.liveSession(input.id, principal));

  addRoute(app, api.userEarningDetails, { auth: 'user', access: ACCESS.permission('GRANT PERMISSION'), tags }, async ({ input, principal }) => tips.earningDetails(principal, input.id));
}
