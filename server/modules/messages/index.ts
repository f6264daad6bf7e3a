/**
 * Direct messages between members (decision 0086): conversations, who may write to whom, read receipts
 * and typing on the members' own channels, blocks, and reports into the console's queue.
 */
import { ACCESS } from '../../platform/http/access';
import type { AppModule, ModuleContext } from '../../platform/module';
import { activeSubscribersSql, offersThisPlan } from '../subscriptions';
import { followersSql } from '../social';
import { createBroadcasts, type Broadcasts } from './broadcasts';
import { createMessageModeration, type MessageModeration } from './moderation';
import { createWritePermission } from './permission';
import { registerMessageRoutes } from './routes';
import { createMessages, type Messages } from './service';

export type { Messages } from './service';
export { directMessageReportsSql, type MessageModeration } from './moderation';
export { createBroadcasts } from './broadcasts';

declare module '../../platform/module' {
  interface ModuleServices {
    messages: Messages;
    /** Moderators' removals of reported direct messages (audited). */
    messageModeration: MessageModeration;
    /** Creators' messages to many and their delivery (the job's work, for the benchmark). */
    messageBroadcasts: Broadcasts;
  }
}

export function createMessagesModule(ctx: ModuleContext): AppModule {
  const permission = createWritePermission({ social: ctx.service('social'), subscriptions: ctx.service('subscriptions') });
  const messages = createMessages({ db: ctx.db, accounts: ctx.service('accounts'), permission, publish: ctx.service('chat').publish, log: ctx.log });
  const broadcasts = createBroadcasts({
    db: ctx.db,
    audienceSql: (senderId, audience, planId) => (audience === 'followers' ? followersSql(senderId) : activeSubscribersSql(senderId, planId ?? undefined)),
    offersPlan: offersThisPlan,
    publish: ctx.service('chat').publish,
    log: ctx.log,
  });
  ctx.fill('messageRules', { typing: (senderId, to) => messages.typing(senderId, to) });
  ctx.events.onDurable('account.deleted', ({ userId }) => messages.forgetAccount(userId));
  return {
    name: 'messages',
    services: { messages, messageModeration: createMessageModeration({ db: ctx.db }), messageBroadcasts: broadcasts },
    routes: (app) => registerMessageRoutes(app, { messages, broadcasts }),
    jobs: [{ name: 'deliver-message-broadcasts', everyMs: 1000, roles: ['worker'], run: async () => void (await broadcasts.deliver()) }],
    realtime: [{ op: 'send', name: 'DM-TYPING', auth: 'user', access: ACCESS.signedIn, handler: 'server/modules/messages/service.ts' }],
  };
}
