/**
 * CSRF: a random secret in an HttpOnly cookie; the token is its HMAC under the installation's key.
 * Every state-changing request must send the token as X-CSRF-Token.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './error-handler';
import { isSecureRequest } from './public-origin';

export const CSRF_COOKIE = 'll_csrf';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: a cross-site form post the route checks by other means (an OAuth form_post callback and its state).
     * true: checked even on GET (a call the contract made a GET although it changes state).
     */
    csrf?: boolean;
  }
}
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a route checks the token: every unsafe method, unless the route opts out; a GET when it opts in. */
export function checksCsrf(method: string, wanted: boolean | undefined): boolean {
  return wanted !== false && (!SAFE_METHODS.has(method) || wanted === true);
}

export function createCsrf(key: string) {
  const sign = (secret: string) => createHmac('sha256', key).update(secret).digest('base64url');

  function tokenFor(request: FastifyRequest, reply: FastifyReply): string {
    let secret = request.cookies[CSRF_COOKIE];
    if (!secret || secret.length > 100) {
      secret = randomBytes(24).toString('base64url');
      reply.setCookie(CSRF_COOKIE, secret, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: isSecureRequest(request),
      });
    }
    return sign(secret);
  }

  function isValid(request: FastifyRequest): boolean {
    const secret = request.cookies[CSRF_COOKIE];
    const header = request.headers['x-csrf-token'];
    if (!secret || typeof header !== 'string') return false;
    const expected = Buffer.from(sign(secret));
    const given = Buffer.from(header);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  function install(app: FastifyInstance) {
    app.addHook('onRequest', async (request, reply) => {
      if (!checksCsrf(request.method, request.routeOptions.config.csrf)) return;
      if (!isValid(request)) {
        return sendError(reply, 'csrf');
      }
    });
  }

  return { tokenFor, install };
}
