/** HTTP handlers of the accounts domain: parse with the contract, call the service, return data. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as api from '../../../common/api/accounts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { oneOf } from '../../../common/api/fields';
import { SKINS } from '../../../common/skins';
import { CAPTCHA_STRENGTHS, type Captcha } from '../../platform/captcha';
import type { Db } from '../../platform/db/client';
import type { RouteDocs } from '../../platform/http/openapi';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { clearSessionCookie, SESSION_COOKIE, type SessionStore } from '../../platform/http/sessions';
import type { AccountsService } from './service';
import { clientMeta as meta, requireCaptcha, requireLoginProof, sessionStarter } from './sign-in';
import type { SettingsService } from './settings-service';

export interface AccountRoutesDeps {
  settings: SettingsService;
  db: Db;
  accounts: AccountsService;
  sessions: SessionStore;
  captcha: Captcha;
  csrfTokenFor(request: FastifyRequest, reply: FastifyReply): string;
}

const challengeQuery = z.strictObject({
  strength: z.enum(CAPTCHA_STRENGTHS, { error: oneOf(CAPTCHA_STRENGTHS) }).optional().meta({
    description: '`strong` for a login that answered `proof_required`; `standard` (the default) otherwise.',
  }),
});

const challengeDocs: RouteDocs = {
  responses: {
    200: {
      description: 'An ALTCHA challenge; the widget solves it and sends the solution as `altcha` with sign-up or login.',
      content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
    },
  },
};

export function registerAccountRoutes(app: FastifyInstance, deps: AccountRoutesDeps): void {
  const { accounts, sessions, captcha } = deps;
  const tags = ['accounts'];

  const startSession = sessionStarter(deps.db, sessions);

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/captcha/challenge',
    { schema: { tags, summary: 'A proof-of-work challenge for the captcha widget', querystring: challengeQuery }, config: { access: ACCESS.public, openapi: challengeDocs } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return captcha.challenge(request.query.strength);
    },
  );

  addRoute(app, api.csrfToken, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ request, reply }) => {
    reply.header('cache-control', 'no-store');
    return { token: deps.csrfTokenFor(request, reply) };
  });

  addRoute(app, api.register, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, request, reply }) => {
    await requireCaptcha(captcha, input.altcha);
    const skin = input.service ?? request.skin;
    const { userId, session } = await accounts.register(input, skin, meta(request));
    await startSession(request, reply, session);
    return { user_id: userId, user: await accounts.sessionUser(userId, { skin, origin: request.publicOrigin }) };
  });

  addRoute(app, api.login, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, request, reply }) => {
    const remember = input.rememberMe ?? true;
    const { userId, session } = await accounts.login(input.username, input.password, remember, meta(request), (strong) =>
      requireLoginProof(captcha, input.altcha, strong), SKINS[input.service ?? request.skin].supportEmail,
    );
    await startSession(request, reply, session);
    return { user: await accounts.sessionUser(userId, { skin: input.service ?? request.skin, origin: request.publicOrigin }) };
  });

  addRoute(app, api.sessionDetail, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal, request }) => ({
    user: await accounts.sessionUser(principal.userId, { skin: request.skin, origin: request.publicOrigin }, principal),
  }));

  addRoute(app, api.checkUserSession, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ principal, reply }) => {
    reply.header('cache-control', 'no-store');
    return { is_logged_in: principal !== null, user_id: principal?.userId ?? 0 };
  });

  addRoute(app, api.logout, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ request, reply }) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await sessions.destroy(token);
    clearSessionCookie(reply);
    return {};
  });

  addRoute(app, api.getInterestList, { auth: 'anonymous', access: ACCESS.public, tags }, async () => ({
    interests: await accounts.listInterests(),
  }));

  addRoute(app, api.addUserInterest, { auth: 'user', access: ACCESS.self, tags }, async ({ input, principal }) => {
    accounts.assertSelfOrAdmin(principal, input.id);
    await accounts.setInterests(input.id, input.interest_ids);
    return { interests: await accounts.interestsOf(input.id) };
  });

  addRoute(app, api.userInterestList, { auth: 'user', access: ACCESS.self, tags }, async ({ input, principal }) => {
    accounts.assertSelfOrAdmin(principal, input.id);
    return { interests: await accounts.interestsOf(input.id) };
  });

  addRoute(app, api.updateUserInfo, { auth: 'user', access: ACCESS.self, tags }, async ({ input, principal, request }) => {
    accounts.assertSelfOrAdmin(principal, input.id);
    await deps.settings.updateInfo(input.id, input.params);
    return { user: await accounts.sessionUser(input.id, { skin: request.skin, origin: request.publicOrigin }) };
  });
}
