/** Puts the realtime gateway in front of the chat module's rules. */
import type { FastifyInstance } from 'fastify';
import type { Bus } from '../../platform/bus/bus';
import type { Db } from '../../platform/db/client';
import { installRealtimeGateway } from '../../platform/realtime/gateway';
import { createPresence } from '../../platform/realtime/presence';
import type { AccountsService } from '../accounts/service';
import { viewerOf } from '../streams/routes';
import type { StreamsService } from '../streams/service';
import { createChatService } from './service';

export async function installChat(app: FastifyInstance, deps: { db: Db; bus: Bus; streams: StreamsService; accounts: AccountsService; likeLimit: number }) {
  const presence = createPresence(deps.db, app.log);
  app.addHook('onClose', async () => presence.close().catch((error: unknown) => app.log.warn({ err: error }, 'presence not cleared')));
  // The gateway calls the chat rules and the chat publishes through the gateway: each reaches the other once both exist.
  const gateway = await installRealtimeGateway(app, deps.bus, {
    authorizeSubscribe: (channel, principal, request) => chat.authorizeSubscribe(channel, viewerOf(request, principal)),
    handleSend: (channel, frame, principal, request) => chat.handleSend(channel, frame, viewerOf(request, principal)),
    countsPresence: (channel) => chat.countsPresence(channel),
    presenceKey: (principal, request) => (principal ? `user:${principal.userId}` : viewerOf(request, null).guestKey),
    onPresenceChange: (channel, principal, change) => chat.onPresenceChange(channel, principal, change),
  }, { presence });
  const chat = createChatService({ ...deps, publish: gateway.publish, removeFromChannels: gateway.removeFromChannels, recheckChannel: gateway.recheckChannel, log: app.log });
  return chat;
}
