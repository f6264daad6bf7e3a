/** HTTP handlers of the chat: a broadcast's stored chat for its replay (the live chat is realtime). */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/chat';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { viewerOf } from '../streams';
import type { ChatService } from './service';

export function registerChatRoutes(app: FastifyInstance, deps: { chat: ChatService }): void {
  addRoute(app, api.replayChat, { auth: 'anonymous', access: ACCESS.payWall, tags: ['chat'] }, async ({ input, principal, request }) =>
    deps.chat.replayChat(input.id, viewerOf(request, principal), input.from_ms, input.limit),
  );
}
