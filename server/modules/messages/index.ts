/**
 * Direct messages between members (decision 0086): conversations, who may write to whom, read receipts
 * and typing on the members' own channels, blocks, and reports into the console's queue; photos and
 * videos from the sender's vault, free or paid and unlocked through the ledger (decision 0088).
 */
import { ACCESS } from '../../platform/http/access';
import type { AppModule, ModuleContext } from '../../platform/module';
import { activeSubscribersSql, offersThisPlan } from '../subscriptions';
import { followersSql } from '../social';
import { createBroadcastDelivery } from './broadcast-delivery';
import { createBroadcasts, type Broadcasts } from './broadcasts';
import { createMessageMedia } from './media';
import { createMessageModeration, type MessageModeration } from './moderation';
import { createWritePermission } from './permission';
import { registerMessageRoutes } from './routes';
import { createMessages, type Messages } from './service';
import { createMessageUnlocks, type MessageUnlocks } from './unlocks';

export type { Messages } from './service';
export { directMessageReportsSql, type MessageModeration } from './moderation';
export { createBroadcastDelivery, type BroadcastDelivery } from './broadcast-delivery';
export { createMessageMedia } from './media';
export { createMessageUnlocks } from './unlocks';

declare module '../../platform/module' {
  interface ModuleServices {
    messages: Messages;
    /** Moderators' removals of reported direct messages (audited). */
    messageModeration: MessageModeration;
    /** Creators' messages to many. */
    messageBroadcasts: Broadcasts;
    /** Paid messages' unlocks through the ledger (decision 0088). */
    messageUnlocks: MessageUnlocks;
  }
}

export function createMessagesModule(ctx: ModuleContext): AppModule {
  const permission = createWritePermission({ social: ctx.service('social'), subscriptions: ctx.service('subscriptions') });
  const vault = ctx.service('vault');
  const media = createMessageMedia({ db: ctx.db, view: vault.view });
  const vaultMedium = (ownerId: number, mediaId: number) => vault.forMessage(ownerId, mediaId);
  const unlocks = createMessageUnlocks({ db: ctx.db, ledger: ctx.service('ledger'), media, feePercent: ctx.config.platformFees.message_unlock ?? 0 });
  const messages = createMessages({ db: ctx.db, accounts: ctx.service('accounts'), permission, media, vaultMedium, publish: ctx.service('chat').publish, log: ctx.log });
  const broadcasts = createBroadcasts({ db: ctx.db, offersPlan: offersThisPlan, vaultMedium, media, unlocks });
  const delivery = createBroadcastDelivery({
    db: ctx.db,
    audienceSql: (senderId, audience, planId) => (audience === 'followers' ? followersSql(senderId) : activeSubscribersSql(senderId, planId ?? undefined)),
    publish: ctx.service('chat').publish,
    media,
    log: ctx.log,
  });
  ctx.fill('looseMediaRules', { standing: (mediaId: number, viewerId: number) => media.standing(mediaId, viewerId) });
  ctx.fill('messageRules', { typing: (senderId, to) => messages.typing(senderId, to) });
  ctx.events.onDurable('account.deleted', ({ userId }) => messages.forgetAccount(userId));
  return {
    name: 'messages',
    services: { messages, messageModeration: createMessageModeration({ db: ctx.db }), messageBroadcasts: broadcasts, messageUnlocks: unlocks },
    routes: (app) => registerMessageRoutes(app, { messages, broadcasts, unlocks }),
    jobs: [{ name: 'deliver-message-broadcasts', everyMs: 1000, roles: ['worker'], run: async () => void (await delivery.deliver()) }],
    realtime: [{ op: 'send', name: 'DM-TYPING', auth: 'user', access: ACCESS.signedIn, handler: 'server/modules/messages/service.ts' }],
  };
}
