/**
 * Serves the built single-page app; every other GET outside the API falls back to index.html. The
 * build writes brotli and gzip copies beside each file (scripts/precompress-web.ts): a browser that
 * accepts one gets it. Hashed files under assets/ never change, so they are cached for a year;
 * index.html, which names them, is checked again on every visit.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const INDEX = /[\\/]index\.html(\.br|\.gz)?$/;
const API_PREFIXES = ['/api/', '/ws', '/metrics', '/healthz', '/readyz', '/media/'];

export async function installWebApp(app: FastifyInstance, webDist: string): Promise<
  ((request: FastifyRequest, reply: FastifyReply) => boolean) | undefined
> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'web app not built: run `npm run build:web`; serving the API only');
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      else if (INDEX.test(filePath)) reply.header('cache-control', 'no-cache');
    },
  });
  // Static files other than index.html: registered one by one at start (the build output is small).
  return (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' || API_PREFIXES.some((p) => urlPath.startsWith(p))) return false;
    reply.sendFile('index.html');
    return true;
  };
}
