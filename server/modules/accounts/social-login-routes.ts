/**
 * Social sign-in over HTTP: the browser's redirect dance (start → provider → callback) and the calls
 * that finish it from the login page (user-social-login, user-fb-login, user-social-register).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as api from '../../../common/api/social-login';
import { SOCIAL_ERRORS, SOCIAL_PROVIDERS, socialCallbackPath, socialStartPath, type SocialProvider } from '../../../common/api/social-login';
import { skinField } from '../../../common/api/fields';
import { MSG } from '../../../common/messages';
import { SKINS, type SkinId } from '../../../common/skins';
import type { Captcha } from '../../platform/captcha';
import type { Db } from '../../platform/db/client';
import { conflict, forbidden, notFound } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import type { SessionStore } from '../../platform/http/sessions';
import type { AccountsService } from './service';
import { clientMeta, requireCaptcha, sessionStarter } from './sign-in';
import { TICKET_TTL_MS, type CallbackOutcome, type SocialLoginService } from './social-login-service';
import { isSecureRequest } from '../../platform/http/public-origin';

export interface SocialLoginRoutesDeps {
  db: Db;
  sessions: SessionStore;
  accounts: AccountsService;
  socialLogin: SocialLoginService;
  captcha: Captcha;
  /** Base of the callback URL the providers know; unset → the address the browser used. */
}

/** Binds a flow to the browser that started it: without it, anyone's callback link would sign a victim into their account. */
const FLOW_COOKIE = 'll_oauth_state';
const FLOW_COOKIE_PATH = '/api/auth/';
/** Binds a sign-up ticket to the browser that finished the flow: a ticket link sent to someone else signs no one in. */
const TICKET_COOKIE = 'll_social_ticket';
const TICKET_COOKIE_PATH = '/api/user/';
const LOGIN_REDIRECT = '/channel/group';

const AUTHORIZATION_RESPONSE = new Set(['code', 'state', 'iss', 'error', 'error_description', 'error_uri']);

const startQuery = z.strictObject({ service: skinField.optional() });
const callbackParam = z.string().max(4096);
/**
 * The provider's authorization response, passed whole to openid-client (it checks iss, state, error...).
 * Its fields are named for the document; providers add their own (Google: scope, authuser, prompt).
 */
const callbackParams = z
  .object({
    code: callbackParam.optional(),
    state: callbackParam.optional(),
    iss: callbackParam.optional(),
    error: callbackParam.optional(),
    error_description: callbackParam.optional(),
    error_uri: callbackParam.optional(),
  })
  .catchall(callbackParam)
  .refine((params) => Object.keys(params).length <= 20 && Object.keys(params).every((name) => name.length <= 64), 'Too many parameters');

const redirect = (status: number, description: string): RouteDocs => ({
  responses: { [status]: { description, headers: { Location: { schema: { type: 'string' }, description: 'Where the browser goes next' } } } },
  refusals: [404],
});
const startDocs: RouteDocs = { ...redirect(302, "To the provider's sign-in page."), refusals: [403, 404] };
const callbackDocs = redirect(
  302,
  'Signed in: to the channel page, with the session cookie set. A new user: to the login page with a sign-up ticket (`social`, `type`). Refused: to the login page with `social_error`.',
);
const formPostDocs: RouteDocs = {
  ...redirect(303, 'To the GET callback, with the authorization response in the query.'),
  security: [],
  description: "Apple's `response_mode=form_post` answer: a cross-site form post, so no CSRF token; the GET callback checks the flow.",
};

export function registerSocialLoginRoutes(app: FastifyInstance, deps: SocialLoginRoutesDeps): void {
  const { socialLogin, accounts } = deps;
  const startSession = sessionStarter(deps.db, deps.sessions);
  const tags = ['accounts'];
  const typed = app.withTypeProvider<ZodTypeProvider>();

  const callbackUrl = (request: FastifyRequest, provider: SocialProvider) =>
    `${request.publicOrigin}${socialCallbackPath(provider)}`;

  function assertAllowed(provider: SocialProvider, skin: SkinId) {
    if (provider === 'facebook' && SKINS[skin].flags.facebookMigrated) throw forbidden(MSG.facebookMigrated);
  }

  function assertOffered(provider: SocialProvider) {
    if (!socialLogin.offers(provider)) throw notFound();
  }

  async function redirectAfterCallback(request: FastifyRequest, reply: FastifyReply, provider: SocialProvider, outcome: CallbackOutcome) {
    const prefix = SKINS[outcome.skin ?? request.skin].prefix;
    switch (outcome.kind) {
      case 'signed-in':
        await startSession(request, reply, outcome.session);
        return reply.redirect(`${prefix}${LOGIN_REDIRECT}`);
      case 'ticket':
        reply.setCookie(TICKET_COOKIE, outcome.binder, {
          path: TICKET_COOKIE_PATH,
          httpOnly: true,
          sameSite: 'lax',
          secure: isSecureRequest(request),
          maxAge: TICKET_TTL_MS / 1000,
        });
        return reply.redirect(`${prefix}/user/login?${new URLSearchParams({ social: outcome.ticket, type: provider })}`);
      case 'failed':
        request.log.warn({ provider, reason: outcome.reason }, 'social sign-in refused');
        return reply.redirect(`${prefix}/user/login?social_error=${outcome.code}`);
    }
  }

  for (const provider of SOCIAL_PROVIDERS) {
    typed.get(
      socialStartPath(provider),
      { schema: { tags, summary: `Sign in with ${provider}: redirects to the provider`, querystring: startQuery }, config: { access: ACCESS.public, openapi: startDocs } },
      async (request, reply) => {
        const skin = request.query.service ?? request.skin;
        assertAllowed(provider, skin);
        assertOffered(provider);
        let started;
        try {
          started = await socialLogin.begin(provider, skin, callbackUrl(request, provider));
        } catch (error) {
          request.log.warn({ provider, err: error }, 'social sign-in could not start');
          return reply.redirect(`${SKINS[skin].prefix}/user/login?social_error=${SOCIAL_ERRORS.failed}`);
        }
        reply.setCookie(FLOW_COOKIE, started.state, {
          path: FLOW_COOKIE_PATH,
          httpOnly: true,
          sameSite: 'lax',
          secure: isSecureRequest(request),
          maxAge: 600,
        });
        return reply.redirect(started.url.href);
      },
    );

    typed.get(
      socialCallbackPath(provider),
      { schema: { tags, summary: `Where ${provider} sends the browser back`, querystring: callbackParams }, config: { access: ACCESS.public, openapi: callbackDocs } },
      async (request, reply) => {
        assertOffered(provider);
        const url = new URL(callbackUrl(request, provider));
        url.search = new URLSearchParams(request.query as Record<string, string>).toString();
        const outcome = await socialLogin.complete(provider, url, request.cookies[FLOW_COOKIE], clientMeta(request));
        reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
        return redirectAfterCallback(request, reply, provider, outcome);
      },
    );
  }

  // Apple answers with a cross-site form POST, which carries no SameSite=Lax cookie: turn it into the
  // GET callback (a top-level GET navigation does carry it), where the flow is checked as for the others.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    for (const provider of SOCIAL_PROVIDERS.filter((p) => socialLogin.responseMode(p) === 'form_post')) {
      scope.withTypeProvider<ZodTypeProvider>().post(
        socialCallbackPath(provider),
        {
          schema: { tags, summary: `Where ${provider} posts the browser back`, body: callbackParams, consumes: ['application/x-www-form-urlencoded'] },
          config: { csrf: false, access: ACCESS.public, openapi: formPostDocs },
        },
        async (request, reply) => {
          // Only the authorization response: Apple's `user` field (name, email) would otherwise land in URLs and logs.
          const response = new URLSearchParams(Object.entries(request.body).filter(([name]) => AUTHORIZATION_RESPONSE.has(name)));
          return reply.redirect(`${socialCallbackPath(provider)}?${response}`, 303);
        },
      );
    }
  });

  /** A ticket never switches a signed-in browser to another account (a forged link would do just that). */
  async function assertSignedOut(request: FastifyRequest) {
    if (await request.currentPrincipal()) throw conflict(MSG.alreadySignedIn);
  }

  async function loginWithTicket(provider: SocialProvider, token: string, skin: SkinId, request: FastifyRequest, reply: FastifyReply) {
    assertAllowed(provider, skin);
    await assertSignedOut(request);
    const { userId, session } = await socialLogin.loginWithTicket(provider, token, request.cookies[TICKET_COOKIE], clientMeta(request));
    reply.clearCookie(TICKET_COOKIE, { path: TICKET_COOKIE_PATH });
    await startSession(request, reply, session);
    return { user: await accounts.sessionUser(userId, { skin, origin: request.publicOrigin }) };
  }

  addRoute(app, api.userSocialLogin, { auth: 'anonymous', access: ACCESS.signedOut, tags }, ({ input, request, reply }) =>
    loginWithTicket(input.type, input.token, input.service ?? request.skin, request, reply),
  );

  addRoute(app, api.userFbLogin, { auth: 'anonymous', access: ACCESS.signedOut, tags }, ({ input, request, reply }) =>
    loginWithTicket('facebook', input.token, input.service ?? request.skin, request, reply),
  );

  addRoute(app, api.socialRegister, { auth: 'anonymous', access: ACCESS.signedOut, tags }, async ({ input, request, reply }) => {
    await requireCaptcha(deps.captcha, input.altcha);
    const skin = input.service ?? request.skin;
    assertAllowed(input.social_media_type, skin);
    await assertSignedOut(request);
    const { userId, session } = await socialLogin.register(input, request.cookies[TICKET_COOKIE], skin, clientMeta(request));
    reply.clearCookie(TICKET_COOKIE, { path: TICKET_COOKIE_PATH });
    await startSession(request, reply, session);
    return { user_id: userId, user: await accounts.sessionUser(userId, { skin, origin: request.publicOrigin }) };
  });
}
