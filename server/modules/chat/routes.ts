/**
 * HTTP handlers of the chat: a broadcast's stored chat for its replay, the broadcasters' chat rules and
 * moderators, what moderators do to lines and viewers, and the operator's platform-wide words (the live chat
 * is realtime).
 */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/chat';
import { mayUseArea } from '../../../common/console';
import { ACCESS } from '../../platform/http/access';
import type { Principal } from '../../platform/http/auth';
import { notFound } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import { authorize } from '../../platform/http/auth';
import { imageUploadDocs, servePictures, uploadedImage } from '../../platform/http/uploaded-image';
import type { FileStore } from '../../platform/storage/storage';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MSG } from '../../../common/messages';
import { EMOTES } from '../../../common/rules/emotes';
import { EMOTE_PREFIX, type EmotesService } from './emotes';
import { type ChannelModerators, viewerOf } from '../streams';
import type { ChatRulesService } from './chat-rules';
import type { ChatModeration } from './moderation';
import type { ChatService } from './service';

/** What a channel's moderators do: the broadcaster's and platform moderators' alike; appointed moderators are proven in chat-moderation.int.test.ts. */
const CHANNEL_MODERATORS = ACCESS.with(ACCESS.stream('UPDATE STREAM_ANY', 'GRANT PERMISSION'), { cells: { user: 403, other: 403 }, perms: { 'ALLOW REPORT_STREAM_HIDE': 403 } });
/** The operator's words: administrators alone; anyone else is not told the console has them. */
const OPERATOR = ACCESS.hiddenUnless();

export function registerChatRoutes(app: FastifyInstance, deps: {
  chat: ChatService; chatRules: ChatRulesService; moderation: ChatModeration; moderators: ChannelModerators; emotes: EmotesService; files: FileStore;
}): void {
  const tags = ['chat'];
  addRoute(app, api.replayChat, { auth: 'anonymous', access: ACCESS.payWall, tags }, async ({ input, principal, request }) =>
    deps.chat.replayChat(input.id, viewerOf(request, principal), input.from_ms, input.limit),
  );

  addRoute(app, api.getChatRules, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal }) => ({
    rules: await deps.chatRules.of(input.user_id, principal !== null && (await deps.moderators.mayModerateChannel(principal, input.user_id))),
  }));

  addRoute(app, api.saveChatRules, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => {
    const { user_id: channel = principal.userId, ...rules } = input;
    await deps.moderators.assertModerates(principal, channel);
    return { rules: await deps.chatRules.save(channel, principal.userId, rules) };
  });

  addRoute(app, api.chatModerators, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => ({
    moderators: await deps.moderators.list(principal.userId),
  }));
  addRoute(app, api.addChatModerator, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    moderators: await deps.moderators.add(principal.userId, input.username),
  }));
  addRoute(app, api.removeChatModerator, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    moderators: await deps.moderators.remove(principal.userId, input.user_id),
  }));

  addRoute(app, api.chatModeration, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) =>
    deps.moderation.state(input.stream_id, principal),
  );
  addRoute(app, api.deleteChatLine, { auth: 'user', access: CHANNEL_MODERATORS, tags }, async ({ input, principal }) => {
    await deps.moderation.deleteLine(input.stream_id, principal, input.timetoken);
    return {};
  });
  addRoute(app, api.approveChatLine, { auth: 'user', access: CHANNEL_MODERATORS, tags }, async ({ input, principal }) => {
    await deps.moderation.approveLine(input.stream_id, principal, input.timetoken);
    return {};
  });
  addRoute(app, api.timeOutChatter, { auth: 'user', access: CHANNEL_MODERATORS, tags }, async ({ input, principal }) => ({
    until: (await deps.moderation.timeOut(input.stream_id, principal, input.user_id, input.minutes)).toISOString(),
  }));

  const operator = (principal: Principal | null): Principal => {
    if (!principal || !mayUseArea(principal, 'chat')) throw notFound();
    return principal;
  };
  addRoute(app, api.platformChatFilter, { auth: 'anonymous', access: OPERATOR, tags }, async ({ principal }) => {
    operator(principal);
    return { words: await deps.chatRules.platformWords() };
  });
  addRoute(app, api.setPlatformChatFilter, { auth: 'anonymous', access: OPERATOR, tags }, async ({ input, principal }) => ({
    words: await deps.chatRules.savePlatformWords(operator(principal).userId, input.words),
  }));

  registerEmoteRoutes(app, deps.emotes, deps.files);
}

function registerEmoteRoutes(app: FastifyInstance, emotes: EmotesService, files: FileStore) {
  const tags = ['chat'];
  addRoute(app, api.emotes, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input }) => ({ emotes: await emotes.list(input.user_id) }));
  addRoute(app, api.deleteEmote, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    emotes: await emotes.remove(principal.userId, input.code),
  }));

  const schema = { tags, summary: api.uploadEmote.summary, querystring: api.emoteUploadFields, response: { 200: api.uploadEmote.output } };
  app.withTypeProvider<ZodTypeProvider>().post(api.uploadEmote.path, { schema, config: { auth: 'user', access: ACCESS.signedIn, openapi: imageUploadDocs(EMOTES.maxBytes, [409, 413]) } }, async (request) => {
    const principal = (await authorize(request, 'user'))!;
    const fields = request.query;
    const upload = await uploadedImage(request, MSG.emoteTooBig);
    return { response: 'success' as const, emotes: await emotes.add(principal.userId, fields.code, fields.min_plan_level, upload) };
  });

  servePictures(app, { path: '/media/emotes', prefix: EMOTE_PREFIX, what: 'emote', tags, files });
}
