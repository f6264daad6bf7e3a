/** Who asks, as the streams rules see it: the principal (or a guest), the skin, a stable guest key; and the client they ask from. */
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../platform/http/auth';
import { CSRF_COOKIE } from '../../platform/http/csrf';
import { guestKeyOf, type Viewer } from './service';

export const viewerOf = <P extends Principal | null>(request: FastifyRequest, principal: P): Viewer & { principal: P } => ({
  principal,
  skin: request.skin,
  guestKey: guestKeyOf(request.ip),
});

/**
 * The client a playback address is signed for and checked against on every fetch: the signed-in
 * session, else the guest's browser (its CSRF cookie, set before any stream-join). Both cookies are
 * HttpOnly, so a copied address or token is worth nothing in another browser or session.
 */
export async function playbackClientOf(request: FastifyRequest): Promise<string> {
  const session = await request.currentSession();
  if (session) return `session:${session.id}`;
  const browser = request.cookies[CSRF_COOKIE];
  return typeof browser === 'string' && browser.length > 0 && browser.length <= 100 ? `browser:${browser}` : 'none';
}
