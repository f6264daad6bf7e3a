import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/system';
import { addRoute } from '../../platform/http/route';
import type { ChannelsService } from './service';

export function registerChannelRoutes(app: FastifyInstance, deps: { channels: ChannelsService }): void {
  addRoute(app, api.baseGroup, { auth: 'anonymous', tags: ['channels'] }, async ({ principal, request }) => ({
    channels: await deps.channels.baseGroup(request.skin, principal !== null),
  }));
}
