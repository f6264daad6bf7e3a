/**
 * Who an ad is shown to and counted for (decision 0037). Two keys:
 * - the counting key, one per person and window: the signed-in account, or a guest's address alone (a
 *   header or cookie anyone can change makes no new guest);
 * - the binding key a presentation id (the API's impression_id) is signed for: the account, or for a
 *   guest the address and the ad-viewer cookie set at presentation, so an id (or a VAST pixel) works only
 *   in the browser it was presented to.
 * Activity sent from another site's page counts nothing: our pages send their own origin, or none.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../platform/http/auth';
import { isSecureRequest } from '../../platform/http/public-origin';

export const AD_VIEWER_COOKIE = 'll_ad_viewer';
const COOKIE_VALUE = /^[A-Za-z0-9_-]{24}$/;

export interface AdViewer {
  /** `u:<user id>` or `ip:<hash of the address>`: activity counts once per window for it. */
  countingKey: string;
  /** What a presentation id is signed for. */
  bindingKey: string;
}

const addressKey = (ip: string) => `ip:${createHash('sha256').update(ip).digest('base64url').slice(0, 22)}`;

/**
 * The viewer of a request. With `reply` (a presentation), a guest without the ad-viewer cookie is given
 * one; without it (recording activity) a missing cookie binds to nothing any id was signed for.
 */
export function adViewerOf(request: FastifyRequest, principal: Principal | null, reply?: FastifyReply): AdViewer {
  if (principal) return { countingKey: `u:${principal.userId}`, bindingKey: `u:${principal.userId}` };
  const countingKey = addressKey(request.ip);
  let cookie = request.cookies[AD_VIEWER_COOKIE];
  if (!cookie || !COOKIE_VALUE.test(cookie)) {
    cookie = '';
    if (reply) {
      cookie = randomBytes(18).toString('base64url');
      reply.setCookie(AD_VIEWER_COOKIE, cookie, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecureRequest(request) });
    }
  }
  return { countingKey, bindingKey: `${countingKey}|v:${cookie}` };
}

const originOf = (address: string) => {
  try {
    return new URL(address).origin;
  } catch {
    return null;
  }
};

/** Whether `origin` (an Origin header) is the installation's public origin, or the one the request came to; default ports aside. */
export function isOwnOrigin(request: FastifyRequest, origin: string): boolean {
  const given = originOf(origin);
  return given !== null && (given === originOf(request.publicOrigin) || given === originOf(`${request.protocol}://${request.host}`));
}

/** Sent by another site's page: its Origin is not ours, or the browser says the fetch crossed sites. */
export function fromAnotherSite(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined && !isOwnOrigin(request, origin)) return true;
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}
