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
  const accounts = ctx.service('accounts');
  const streamModeration = ctx.service('streamModeration');
  const queue = createReportsQueue({ db, accounts, streamModeration, postModeration: ctx.service('postModeration'), messageModeration: ctx.service('messageModeration') });
  return {
    name: 'console',
    routes(app) {
      registerConsoleRoutes(app, {
        db, accounts, accountAdmin: ctx.service('accountAdmin'), channels: ctx.service('channels'), streamModeration, system: ctx.service('system'), queue,
        mailTransport: ctx.platform.mailer.transport, jobs: ctx.platform.jobs,
      });
    },
  };
}
