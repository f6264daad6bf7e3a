/**
 * Chat and likes on streams, behind the realtime gateway (/ws): the gateway asks these rules who may
 * subscribe and what a client may send; what other modules report (domain events) goes out as frames.
 */
import { userChannelOf } from '../../../common/realtime-channels';
import { ACCESS } from '../../platform/http/access';
import { installRealtimeGateway } from '../../platform/realtime/gateway';
import { createPresence } from '../../platform/realtime/presence';
import type { AppModule, ModuleContext } from '../../platform/module';
import { userIdOfViewerKey, viewerKey, viewerOf } from '../streams';
import { createChatService, type ChatService, type MeetingRules, type MessageRules, type ToyRules } from './service';
import { createReadCache } from '../../platform/cache/read-cache';
import { createChatRules } from './chat-rules';
import { createChatModeration } from './moderation';
import { createEmotes } from './emotes';
import { registerChatRoutes } from './routes';
import { tipMessage } from './tip-message';

export type { ChatService, MeetingRules, MessageRules, ToyRules } from './service';
export { tipMessage } from './tip-message';

declare module '../../platform/module' {
  interface ModuleServices {
    chat: ChatService;
  }
  interface ModuleHooks {
    meetingRules: MeetingRules;
    toyRules: ToyRules;
    messageRules: MessageRules;
  }
}

const RULES = 'server/modules/chat/service.ts';

/**
 * The priority chat channel: the owner, and subscribers when the skin has subscriptions (spec §6);
 * plain users, moderators and admins are not subscribers (403), a visitor is asked to log in.
 */
const PRIORITY_CHAT = ACCESS.with(ACCESS.signedIn, { cells: { user: 403, other: 403, moderator: 403, admin: 403 } });

/** Chat rules and emotes are kept this long per instance; a change drops them at once on every instance over the bus (this bounds a missed drop). */
const CHAT_CACHE_MS = 30_000;

export async function createChatModule(ctx: ModuleContext): Promise<AppModule> {
  const { app, db, events } = ctx;
  const streamReads = ctx.service('streamReads');
  const accounts = ctx.service('accounts');
  const presence = createPresence(db, ctx.log, {
    userIdOf: userIdOfViewerKey,
    onWritten: (channels) => void chat.publishViewerCounts(channels).catch((error: unknown) => ctx.log.warn({ err: error }, 'viewer count not published')),
  });
  // The gateway calls the chat rules and the chat publishes through the gateway: each reaches the other once both exist.
  const gateway = await installRealtimeGateway(app, ctx.bus, {
    authorizeSubscribe: (channel, principal, request, after) => chat.authorizeSubscribe(channel, viewerOf(request, principal), after),
    handleSend: (channel, frame, principal, request) => chat.handleSend(channel, frame, viewerOf(request, principal)),
    countsPresence: (channel) => chat.countsPresence(channel),
    presenceKey: (principal, request) => viewerKey(viewerOf(request, principal)),
    onPresenceChange: (channel, principal, change) => chat.onPresenceChange(channel, principal, change),
  }, { presence, ...ctx.config.realtimeCaps });
  const chatCache = await createReadCache(ctx.bus, { name: 'chat', ttlMs: CHAT_CACHE_MS, log: ctx.log });
  const moderators = ctx.service('channelModerators');
  const chatRules = createChatRules({ db, cache: chatCache, social: ctx.service('social'), streamAccess: ctx.service('streamAccess'), moderators });
  const emotes = createEmotes({ db, files: ctx.files, cache: chatCache, accounts });
  const moderation = createChatModeration({ db, streamReads, moderators, accounts, emotes, publish: (channel, message) => gateway.publish(channel, message) });
  const chat = createChatService({
    db, streamReads, chatRules, moderation, emotes, streamAccess: ctx.service('streamAccess'), streamViewing: ctx.service('streamViewing'), accounts, ledger: ctx.service('ledger'), likeLimit: ctx.config.streamViewerLikeLimit, log: ctx.log,
    publish: gateway.publish, removeFromChannels: gateway.removeFromChannels, recheckChannel: gateway.recheckChannel,
    presenceInstanceId: presence.instanceId,
    signedInMembers: (channel) => presence.userIds(channel),
    meetingRules: ctx.hook('meetingRules', 'meetings'),
    toyRules: ctx.hook('toyRules', 'toys'),
    messageRules: ctx.hook('messageRules', 'messages'),
  });

  ctx.fill('realtimeLikes', chat.realtimeLikes);

  events.on('stream.options-changed', ({ streamId, chatEnabled }) =>
    chat.publishToStream(streamId, { type: 'STREAM-OPTIONS', options: { chat_enabled: chatEnabled } }));
  events.on('stream.price-changed', ({ streamId, tipViewerMinAmount }) =>
    chat.publishToStream(streamId, { type: 'TIP-ENFORCE', data: { tip_viewer_min_amount: tipViewerMinAmount } }));
  events.on('stream.access-changed', ({ streamId }) => chat.recheckStream(streamId));
  // A subscription that ends (a failed renewal) or changes takes its priority chat and pay-wall rights with it:
  // from the event outbox, so a crash does not leave the rights behind; checking again twice is harmless.
  events.onDurable('subscription.changed', async ({ creatorId }) => {
    for (const streamId of await streamReads.openStreamIdsOf(creatorId)) await chat.recheckStream(streamId);
  });
  events.on('stream.viewer-banned', ({ streamId, userId }) => chat.blockViewer(streamId, userId));
  // A deleted account's sockets close on every instance, even after a crash (closing none twice is harmless).
  events.onDurable('account.deleted', ({ userId }) => gateway.disconnectUser(userId));
  events.on('stream.ended', ({ streamId }) => chat.publishToStream(streamId, { type: 'STREAM-END' }));
  events.on('stream.went-live', ({ streamId, ownerId }) => gateway.publish(userChannelOf(ownerId), { type: 'STREAM-LIVE', data: { stream_id: streamId } }));
  events.on('stream.stopped', ({ streamId, ownerId, reason }) => gateway.publish(userChannelOf(ownerId), { type: 'STREAM-STOPPED', data: { stream_id: streamId, reason } }));
  events.on('tip.received', async (tip) => {
    const tipper = tip.tipper ?? (await accounts.publicUsers([tip.tipperId])).get(tip.tipperId);
    await chat.publishToStream(tip.streamId, tipMessage({
      transferId: tip.transferId, tipperId: tip.tipperId, streamOwnerId: tip.ownerId, amount: tip.amount, at: new Date(tip.at), tipper, message: tip.message,
      menuItem: tip.menuItem,
    }));
  });

  return {
    name: 'chat',
    services: { chat },
    routes: (app) => registerChatRoutes(app, { chat, chatRules, moderation, moderators, emotes, files: ctx.files }),
    realtime: [
      { op: 'subscribe', name: 'stream:<id>', auth: 'anonymous', access: ACCESS.public, handler: RULES },
      { op: 'subscribe', name: 'stream:<id>:priority', auth: 'user', access: PRIORITY_CHAT, handler: RULES },
      { op: 'subscribe', name: 'user:<id>', auth: 'user', access: ACCESS.ownerOnly, handler: RULES },
      { op: 'send', name: 'COMMENT', auth: 'user', access: ACCESS.signedIn, handler: RULES },
      { op: 'send', name: 'LIKE', auth: 'user', access: ACCESS.notOwner, handler: RULES },
    ],
    async stop() {
      await presence.close().catch((error: unknown) => ctx.log.warn({ err: error }, 'presence not cleared'));
      await chatCache.close();
    },
  };
}
