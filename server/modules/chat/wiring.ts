/** Puts the realtime gateway in front of the chat module's rules. */
import type { FastifyInstance } from 'fastify';
import { busChannelOf } from '../../../common/realtime';
import type { Bus } from '../../platform/bus/bus';
import type { Db } from '../../platform/db/client';
import { installRealtimeGateway } from '../../platform/realtime/gateway';
import type { AccountsService } from '../accounts/service';
import { viewerOf } from '../streams/routes';
import type { StreamsService } from '../streams/service';
import { createChatService } from './service';

export async function installChat(app: FastifyInstance, deps: { db: Db; bus: Bus; streams: StreamsService; accounts: AccountsService; likeLimit: number }) {
  const chat = createChatService({ ...deps, publish: (channel, message) => deps.bus.publish(busChannelOf(channel), message) });
  await installRealtimeGateway(app, deps.bus, {
    authorizeSubscribe: (channel, principal, request) => chat.authorizeSubscribe(channel, viewerOf(request, principal)),
    handleSend: (channel, frame, principal, request) => chat.handleSend(channel, frame, viewerOf(request, principal)),
  });
  return chat;
}
