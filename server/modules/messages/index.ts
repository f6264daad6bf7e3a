/**
 * Direct messages between members (decision 0086): conversations, who may write to whom, read receipts
 * and typing on the members' own channels, blocks, and reports into the console's queue.
 */
import { ACCESS } from '../../platform/http/access';
import type { AppModule, ModuleContext } from '../../platform/module';
import { createMessageModeration, type MessageModeration } from './moderation';
import { createWritePermission } from './permission';
import { registerMessageRoutes } from './routes';
import { createMessages, type Messages } from './service';

export type { Messages } from './service';
export { directMessageReportsSql, type MessageModeration } from './moderation';

declare module '../../platform/module' {
  interface ModuleServices {
    messages: Messages;
    /** Moderators' removals of reported direct messages (audited). */
    messageModeration: MessageModeration;
  }
}

export function createMessagesModule(ctx: ModuleContext): AppModule {
  const permission = createWritePermission({ social: ctx.service('social'), subscriptions: ctx.service('subscriptions') });
  const messages = createMessages({ db: ctx.db, accounts: ctx.service('accounts'), permission, publish: ctx.service('chat').publish, log: ctx.log });
  ctx.fill('messageRules', { typing: (senderId, to) => messages.typing(senderId, to) });
  ctx.events.onDurable('account.deleted', ({ userId }) => messages.forgetAccount(userId));
  return {
    name: 'messages',
    services: { messages, messageModeration: createMessageModeration({ db: ctx.db }) },
    routes: (app) => registerMessageRoutes(app, { messages }),
    realtime: [{ op: 'send', name: 'DM-TYPING', auth: 'user', access: ACCESS.signedIn, handler: 'server/modules/messages/service.ts' }],
  };
}
