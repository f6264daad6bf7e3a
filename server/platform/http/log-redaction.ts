/** Request log lines without the credentials some URLs carry (OAuth codes and state, sign-in tickets, mail links). */
import type { FastifyRequest } from 'fastify';

const SECRET_PARAMS = ['code', 'state', 'social', 'token', 'ticket', 'access_token', 'id_token', 'tracking_id', 'impression_id'];

export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  for (const name of SECRET_PARAMS) if (params.has(name)) params.set(name, 'redacted');
  return `${url.slice(0, query)}?${params}`;
}

/** Fastify's own request serializer, with the URL redacted. */
export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
