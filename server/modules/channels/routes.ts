import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/system';
import { MSG } from '../../../common/messages';
import { notFound } from '../../platform/http/errors';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import type { ChannelsService } from './service';

export function registerChannelRoutes(app: FastifyInstance, deps: { channels: ChannelsService }): void {
  addRoute(app, api.baseGroup, { auth: 'anonymous', access: ACCESS.public, tags: ['channels'] }, async ({ principal, request }) => ({
    channels: await deps.channels.baseGroup(request.skin, principal !== null),
  }));

  addRoute(app, api.group, { auth: 'anonymous', access: ACCESS.public, tags: ['channels'] }, async ({ input, principal, request }) => {
    const found = await deps.channels.group(input.id, request.skin, principal !== null);
    if (!found) throw notFound(MSG.noSuchChannel);
    return found;
  });
}
