/**
 * The operator console (decision 0024): the reports queue, users, featured streams, custom channels, system messages, the
 * mail outbox, the audit log and the periodic jobs, for administrators and the moderators' permissions (common/console.ts).
 * It owns `report_handlings`; every change goes through the module that owns the item, audited.
 */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createReportsQueue } from './reports';
import { registerConsoleRoutes } from './routes';

export function createConsoleModule(ctx: ModuleContext): AppModule {
  const { db } = ctx;
  const accounts = ctx.use('accounts');
  const streamModeration = ctx.use('streamModeration');
  const queue = createReportsQueue({ db, accounts, streamModeration, postModeration: ctx.use('postModeration') });
  return {
    name: 'console',
    routes(app) {
      registerConsoleRoutes(app, {
        db, accounts, accountAdmin: ctx.use('accountAdmin'), channels: ctx.use('channels'), streamModeration, system: ctx.use('system'), queue,
        mailTransport: ctx.platform.mailer.transport, jobs: ctx.platform.jobs,
      });
    },
  };
}
