/** Who asks, as the streams rules see it: the principal (or a guest), the skin, a stable guest key; and the client they ask from. */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SkinId } from '../../../common/skins';
import type { Principal } from '../../platform/http/auth';
import { CSRF_COOKIE } from '../../platform/http/csrf';

export interface Viewer {
  principal: Principal | null;
  skin: SkinId;
  /** Stable for a guest's address, so a guest counts once per stream. */
  guestKey: string;
}

const SIGNED_IN_KEY = 'user:';

/**
 * A guest is their address: views, presence and playback count a guest once per address, never by a
 * header the client writes (a rotated User-Agent made one address forty viewers). The address is the
 * one TRUST_PROXY allows (request.ip).
 */
export const guestKeyOf = (ip: string) => `guest:${createHash('sha256').update(ip).digest('base64url').slice(0, 22)}`;

/** The viewer as views, likes and playback know them: the signed-in user, else the guest's browser. */
export const viewerKey = (viewer: Viewer) => (viewer.principal ? `${SIGNED_IN_KEY}${viewer.principal.userId}` : viewer.guestKey);
/** The user id a viewer key stands for, or null for a guest's. */
export const userIdOfViewerKey = (key: string): number | null => (key.startsWith(SIGNED_IN_KEY) ? Number(key.slice(SIGNED_IN_KEY.length)) : null);

/** Who a playback address is for: the viewer and the skin they watch in (an 18+ stream plays only in its skin). */
export const playbackViewer = (viewer: Viewer) => `${viewerKey(viewer)}|${viewer.skin}`;

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
