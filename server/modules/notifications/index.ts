/**
 * Notifications (decision 0025): domain events become notifications (`sources.ts`); a go-live is fanned
 * out to followers by a job (`fanout.ts`); each notification is in the bell at once (`announce.ts`) and
 * goes out by e-mail and Web Push through an outbox the delivery job works through (`delivery.ts`).
 */
import { createDrain } from '../../platform/jobs/drain';
import type { AppModule, ModuleContext } from '../../platform/module';
import { createAnnouncer } from './announce';
import { pushBalanceChanges } from './balance-frames';
import { createDelivery } from './delivery';
import { createFanout } from './fanout';
import { createPush, loadVapidKeys, type Push } from './push';
import { registerNotificationRoutes } from './routes';
import { listenForNotifications } from './sources';
import { createTipNotices } from './tip-notices';
import { createNotificationReads, type Created, type NotificationReads } from './store';

declare module '../../platform/module' {
  interface ModuleServices {
    notifications: { reads: NotificationReads; push: Push; runJobs: () => Promise<void> };
  }
}

/** The address in a From header ("Limelight <no-reply@x>" → no-reply@x), for the VAPID contact. */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from;

export async function createNotificationsModule(ctx: ModuleContext): Promise<AppModule> {
  const { db, config, log } = ctx;
  const accounts = ctx.service('accounts');
  const chat = ctx.service('chat');
  const settings = ctx.service('settings');
  const origin = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
  const onError = (job: string) => (error: unknown) => log.warn({ err: error, job }, 'notifications job failed');

  const reads = createNotificationReads({ db, publicUsers: accounts.publicUsers });
  const announcer = createAnnouncer({ db, reads, publish: chat.publish });
  const push = createPush({
    db, keys: await loadVapidKeys(db), subject: `mailto:${addressOf(config.mailFrom)}`, allowedHosts: config.notifications.pushServiceHosts,
  });
  const delivery = createDelivery({
    db, mailer: ctx.platform.mailer, push, publicUsers: accounts.publicUsers, emailLinkToken: settings.emailLinkToken, origin, leaseSeconds: config.notifications.deliveryLeaseSeconds, log,
  });
  const deliveries = createDrain(delivery.step, onError('deliver-notifications'));

  /** After a notification committed: the bell now, the mail and push soon. A failure here loses nothing (the outbox has it). */
  async function created(rows: Created[]) {
    if (rows.length === 0) return;
    if (rows.some((row) => row.delivering)) deliveries.wake();
    await announcer.created(rows).catch((error: unknown) => log.warn({ err: error }, 'notification frames not published'));
  }

  const fanout = createFanout({ db, batch: config.notifications.fanoutBatch, announce: created });
  const fanouts = createDrain(fanout.step, onError('fan-out-notifications'));
  const tipNotices = createTipNotices({ db, created });
  listenForNotifications({ db, events: ctx.events, fanout, wakeFanout: fanouts.wake, tipNotices, created });
  pushBalanceChanges({ events: ctx.events, ledger: ctx.service('ledger'), publish: chat.publish, log });

  return {
    name: 'notifications',
    services: {
      notifications: {
        reads,
        push,
        runJobs: async () => {
          await ctx.platform.outbox.deliverDue();
          await fanouts.run();
          await deliveries.run();
        },
      },
    },
    routes: (app) => registerNotificationRoutes(app, { reads, push, announcer }),
    jobs: [
      { name: 'fan-out-notifications', everyMs: config.notifications.jobEveryMs, roles: ['worker'], run: fanouts.run },
      { name: 'deliver-notifications', everyMs: config.notifications.jobEveryMs, roles: ['worker'], run: deliveries.run },
    ],
  };
}
