/** HTTP handlers of the chat: a broadcast's stored chat for its replay, the broadcasters' chat rules (the live chat is realtime). */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/chat';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { viewerOf } from '../streams';
import type { ChatRulesService } from './chat-rules';
import type { ChatService } from './service';

export function registerChatRoutes(app: FastifyInstance, deps: { chat: ChatService; chatRules: ChatRulesService }): void {
  addRoute(app, api.replayChat, { auth: 'anonymous', access: ACCESS.payWall, tags: ['chat'] }, async ({ input, principal, request }) =>
    deps.chat.replayChat(input.id, viewerOf(request, principal), input.from_ms, input.limit),
  );

  addRoute(app, api.getChatRules, { auth: 'anonymous', access: ACCESS.public, tags: ['chat'] }, async ({ input, principal }) => ({
    rules: await deps.chatRules.of(input.user_id, principal),
  }));

  addRoute(app, api.saveChatRules, { auth: 'user', access: ACCESS.signedIn, tags: ['chat'] }, async ({ input, principal }) => ({
    rules: await deps.chatRules.save(principal.userId, input),
  }));
}
