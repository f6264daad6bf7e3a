/** Liveness (the process answers) and readiness (the database answers). */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';

const READY_TIMEOUT_MS = 2000;

export function installHealth(app: FastifyInstance, db: Db): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ response: 'success', status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database did not answer in time')), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([db.execute(sql`select 1`), timeout]);
      return { response: 'success', status: 'ready' };
    } catch {
      return reply.status(503).send({ response: 'unavailable', message: 'The database is not reachable.' });
    } finally {
      clearTimeout(timer);
    }
  });
}
