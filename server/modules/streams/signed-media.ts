/**
 * Addresses of stored files signed for one viewer, with the playback tokens' scheme: `<prefix>/<id>/<file>?token=`.
 * The token names the viewer and the skin they looked from; a fetch is served only to that viewer (posts'
 * media, ads' creatives), so a copied address dies with its token or in other hands.
 */
import type { FastifyRequest } from 'fastify';
import type { PlaybackTokens } from '../../platform/media/playback-tokens';
import { viewerOf, type Viewer } from './viewer';

/** Who a media token is signed for: the signed-in user or the guest, and the skin they look from (18+ rules). */
export const mediaViewerKey = (viewer: Viewer) => `${viewer.principal ? `u:${viewer.principal.userId}` : viewer.guestKey}|${viewer.skin}`;

export function createMediaAddresses(prefix: string, tokens: PlaybackTokens, ttlSeconds: number) {
  return (viewer: Viewer) => {
    const key = mediaViewerKey(viewer);
    return (id: number, file: string) => `${prefix}/${id}/${file}?token=${encodeURIComponent(tokens.sign(id, key, ttlSeconds))}`;
  };
}
export type MediaAddresses = ReturnType<typeof createMediaAddresses>;

/**
 * The viewer a fetch of `<prefix>/<id>/…?token=` is for, when the fetcher is that viewer; null otherwise.
 * Images and players fetch from a path that names no skin: the token says which one.
 */
export async function signedMediaViewer(request: FastifyRequest, tokens: PlaybackTokens, id: number): Promise<{ viewer: Viewer; token: string } | null> {
  const token = (request.query as { token?: unknown }).token;
  const signedFor = typeof token === 'string' && token.length <= 200 ? tokens.verify(token, id) : null;
  if (signedFor === null) return null;
  const viewer = viewerOf(request, await request.currentPrincipal());
  const asSigned = { ...viewer, skin: signedFor.slice(signedFor.lastIndexOf('|') + 1) as Viewer['skin'] };
  return mediaViewerKey(asSigned) === signedFor ? { viewer: asSigned, token: token as string } : null;
}
