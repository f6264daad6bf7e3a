/** The address people reach this installation at: PUBLIC_URL, else the origin the request came to. */
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    publicOrigin: string;
  }
}

export function installPublicOrigin(app: FastifyInstance, configured: string | undefined): void {
  const fixed = configured?.replace(/\/+$/, '');
  app.decorateRequest('publicOrigin', '');
  app.addHook('onRequest', async (request) => {
    request.publicOrigin = fixed ?? `${request.protocol}://${request.host}`;
  });
}
