/** A NUL character in any text of a body or query is refused before any schema runs: PostgreSQL cannot store it. */
import type { FastifyInstance } from 'fastify';
import { MSG } from '../../../common/messages';
import { sendError } from './error-handler';

/** The path of the first text holding a NUL character, or null; nesting deeper than JSON bodies go is not searched. */
export function nulPath(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'body' : null;
  if (depth > 64 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '')].join('.');
    const found = nulPath(item, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const field = nulPath(request.body) ?? nulPath(request.query);
    if (field !== null) return sendError(reply, 'validation', MSG.textHasNul, { field, errors: { [field]: MSG.textHasNul } });
  });
}
