/** Which skin a request speaks for: the X-Service header, else the route prefix, else the default. */
import type { FastifyInstance } from 'fastify';
import { isSkinId, skinFromPath, type SkinId } from '../../../common/skins';

declare module 'fastify' {
  interface FastifyRequest {
    skin: SkinId;
  }
}

export function installSkinResolution(app: FastifyInstance): void {
  app.decorateRequest('skin', 'limelight');
  app.addHook('onRequest', async (request) => {
    const header = request.headers['x-service'];
    request.skin = isSkinId(header) ? header : skinFromPath(request.url);
  });
}
