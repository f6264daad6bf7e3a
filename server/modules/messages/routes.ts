/** HTTP handlers of direct messages: every call is the signed-in member's own. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../platform/http/auth';
import * as api from '../../../common/api/messages';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { viewerOf } from '../streams';
import type { Broadcasts } from './broadcasts';
import type { Messages } from './service';
import type { MessageUnlocks } from './unlocks';

export function registerMessageRoutes(app: FastifyInstance, deps: { messages: Messages; broadcasts: Broadcasts; unlocks: MessageUnlocks }): void {
  const { messages, broadcasts, unlocks } = deps;
  const signedIn = (request: FastifyRequest, principal: Principal) => ({ ...viewerOf(request, principal), principal });
  const own = { auth: 'user', access: ACCESS.signedIn, tags: ['messages'] } as const;

  addRoute(app, api.getMessageSettings, own, async ({ principal }) => ({ settings: await messages.settings(principal.userId) }));

  addRoute(app, api.saveMessageSettings, own, async ({ input, principal }) => ({
    settings: await messages.saveSettings(principal.userId, input),
  }));

  addRoute(app, api.conversations, own, async ({ input, principal }) => messages.list(principal.userId, input));

  addRoute(app, api.unreadMessages, own, async ({ principal }) => ({ unread: await messages.unread(principal.userId) }));

  addRoute(app, api.thread, own, async ({ input, principal, request }) => messages.thread(signedIn(request, principal), input));

  addRoute(app, api.sendMessage, own, async ({ input, principal, request }) => ({ message: await messages.send(signedIn(request, principal), input) }));

  addRoute(app, api.messageLookup, own, async ({ input, principal, request }) => ({ message: await unlocks.lookup(signedIn(request, principal), input.message_id) }));

  addRoute(app, api.unlockMessage, own, async ({ input, principal, request }) => unlocks.unlock(signedIn(request, principal), input.message_id));

  addRoute(app, api.messageUnlocks, own, async ({ input, principal, request }) => unlocks.list(signedIn(request, principal), input));

  addRoute(app, api.readMessages, own, async ({ input, principal }) => ({
    unread: await messages.read(principal.userId, input.user_id, input.message_id),
  }));

  addRoute(app, api.blockMember, own, async ({ input, principal }) => ({
    blocked: await messages.block(principal.userId, input.user_id, input.block),
  }));

  addRoute(app, api.sendToMany, own, async ({ input, principal, request }) => ({ broadcast: await broadcasts.send(signedIn(request, principal), input) }));

  addRoute(app, api.broadcasts, own, async ({ input, principal, request }) => broadcasts.list(signedIn(request, principal), input));

  addRoute(app, api.reportMessage, own, async ({ input, principal }) => {
    await messages.report(principal.userId, input);
    return {};
  });
}
