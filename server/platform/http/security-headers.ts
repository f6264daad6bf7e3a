/** Security headers on every response; the API docs page keeps its own inline scripts. */
import type { FastifyInstance } from 'fastify';

export interface SecurityHeaderOptions {
  /**
   * An outside conference server the meeting room embeds (CONFERENCE=jitsi): its external API script
   * and its frame are allowed from that origin, and nothing else is.
   */
  conferenceOrigin?: string | undefined;
  /** Lovense's browser SDK (TOYS=lovense): its script and its connections are allowed from that origin. */
  toySdkOrigin?: string | undefined;
}

export function contentSecurityPolicy({ conferenceOrigin, toySdkOrigin }: SecurityHeaderOptions = {}): string {
  const conference = conferenceOrigin ? ` ${conferenceOrigin}` : '';
  const toySdk = toySdkOrigin ? ` ${toySdkOrigin}` : '';
  const toySockets = toySdkOrigin ? ` ${toySdkOrigin.replace(/^http/, 'ws')}` : '';
  return [
    "default-src 'self'",
    // 'wasm-unsafe-eval' compiles WebAssembly (the meeting room's person segmentation, served from this
    // origin) and nothing else: no eval, no Function().
    `script-src 'self' 'wasm-unsafe-eval'${conference}${toySdk}`,
    ...(conferenceOrigin ? [`frame-src${conference}`] : []),
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob:",
    `connect-src 'self' ws: wss:${toySdk}${toySockets}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

export function installSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions = {}): void {
  const csp = contentSecurityPolicy(options);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    if (!request.url.startsWith('/api/docs')) {
      reply.header('content-security-policy', csp);
      reply.header('x-frame-options', 'DENY');
    }
  });
}
