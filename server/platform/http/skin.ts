/**
 * Which skin a request speaks for: the X-Service header; else the route prefix of the URL (pages);
 * else the prefix of the page that made the call (Referer); else the default skin.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_SKIN, isSkinId, skinFromPath, type SkinId } from '../../../common/skins';

declare module 'fastify' {
  interface FastifyRequest {
    skin: SkinId;
  }
}

function refererPath(request: FastifyRequest): string | null {
  const referer = request.headers.referer;
  if (!referer) return null;
  try {
    return new URL(referer).pathname;
  } catch {
    return null;
  }
}

export function resolveSkin(request: FastifyRequest): SkinId {
  const header = request.headers['x-service'];
  if (isSkinId(header)) return header;
  // A WebSocket cannot carry headers from a browser: the page names its skin in the address.
  const named = (request.query as Record<string, unknown> | undefined)?.service;
  if (isSkinId(named)) return named;
  const fromUrl = skinFromPath(request.url);
  if (fromUrl !== DEFAULT_SKIN) return fromUrl;
  const fromPage = refererPath(request);
  return fromPage ? skinFromPath(fromPage) : DEFAULT_SKIN;
}

export function installSkinResolution(app: FastifyInstance): void {
  app.decorateRequest('skin', DEFAULT_SKIN);
  app.addHook('onRequest', async (request) => {
    request.skin = resolveSkin(request);
  });
}
