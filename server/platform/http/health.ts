/** Liveness (the process answers) and readiness (the database answers). */
import { ACCESS } from './access';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MSG } from '../../../common/messages';
import type { Db } from '../db/client';
import type { RouteDocs } from './openapi';
import { sendError } from './error-handler';

const READY_TIMEOUT_MS = 2000;

const statusAnswer = (status: string) => ({
  'application/json': {
    schema: {
      type: 'object' as const,
      required: ['response', 'status'],
      properties: { response: { type: 'string' as const, enum: ['success'] }, status: { type: 'string' as const, enum: [status] } },
    },
  },
});
const tags = ['operations'];
const livenessDocs: RouteDocs = { responses: { 200: { description: 'The process answers.', content: statusAnswer('ok') } } };
const readinessDocs: RouteDocs = {
  responses: {
    200: { description: 'The database answers.', content: statusAnswer('ready') },
    503: { description: `The database does not answer within ${READY_TIMEOUT_MS / 1000} s.`, content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } } },
  },
};

export function installHealth(app: FastifyInstance, db: Db): void {
  app.get('/healthz', { schema: { tags, summary: 'Liveness: the process answers' }, config: { access: ACCESS.public, openapi: livenessDocs } }, async () => ({ response: 'success', status: 'ok' }));

  app.get('/readyz', { schema: { tags, summary: 'Readiness: the database answers' }, config: { access: ACCESS.public, openapi: readinessDocs } }, async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database did not answer in time')), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([db.execute(sql`select 1`), timeout]);
      return { response: 'success', status: 'ready' };
    } catch {
      return sendError(reply, 'unavailable', MSG.databaseUnreachable);
    } finally {
      clearTimeout(timer);
    }
  });
}
