/** The address people reach this installation at: PUBLIC_URL, else the origin the request came to. */
import type { FastifyInstance, FastifyRequest } from 'fastify';

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

/**
 * Whether cookies must be Secure: the request came over TLS (to us, or to a trusted proxy in front), or
 * the installation's public address is https, whatever a proxy in front tells us.
 */
export const isSecureRequest = (request: FastifyRequest): boolean => request.protocol === 'https' || request.publicOrigin.startsWith('https:');
