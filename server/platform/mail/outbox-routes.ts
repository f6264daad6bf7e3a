/** GET /api/dev/outbox: administrators read the kept mail (the page /dev/outbox). */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/mail';
import type { Db } from '../db/client';
import { ACCESS } from '../http/access';
import { addRoute } from '../http/route';
import { listMail, type MailTransport } from './outbox';

export function registerOutboxRoutes(app: FastifyInstance, deps: { db: Db; transport: MailTransport }): void {
  addRoute(app, api.listOutbox, { auth: 'admin', access: ACCESS.admin, tags: ['mail'] }, async ({ input, reply }) => {
    reply.header('cache-control', 'no-store');
    return { messages: await listMail(deps.db, input), transport: deps.transport };
  });
}
