/** HTTP handlers of direct messages: every call is the signed-in member's own. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/messages';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import type { Broadcasts } from './broadcasts';
import type { Messages } from './service';

export function registerMessageRoutes(app: FastifyInstance, deps: { messages: Messages; broadcasts: Broadcasts }): void {
  const { messages, broadcasts } = deps;
  const own = { auth: 'user', access: ACCESS.signedIn, tags: ['messages'] } as const;

  addRoute(app, api.getMessageSettings, own, async ({ principal }) => ({ settings: await messages.settings(principal.userId) }));

  addRoute(app, api.saveMessageSettings, own, async ({ input, principal }) => ({
    settings: await messages.saveSettings(principal.userId, input),
  }));

  addRoute(app, api.conversations, own, async ({ input, principal }) => messages.list(principal.userId, input));

  addRoute(app, api.unreadMessages, own, async ({ principal }) => ({ unread: await messages.unread(principal.userId) }));

  addRoute(app, api.thread, own, async ({ input, principal }) => messages.thread(principal, input));

  addRoute(app, api.sendMessage, own, async ({ input, principal }) => ({ message: await messages.send(principal, input) }));

  addRoute(app, api.readMessages, own, async ({ input, principal }) => ({
    unread: await messages.read(principal.userId, input.user_id, input.message_id),
  }));

  addRoute(app, api.blockMember, own, async ({ input, principal }) => ({
    blocked: await messages.block(principal.userId, input.user_id, input.block),
  }));

  addRoute(app, api.sendToMany, own, async ({ input, principal }) => ({ broadcast: await broadcasts.send(principal, input) }));

  addRoute(app, api.broadcasts, own, async ({ input, principal }) => broadcasts.list(principal.userId, input));

  addRoute(app, api.reportMessage, own, async ({ input, principal }) => {
    await messages.report(principal.userId, input);
    return {};
  });
}
