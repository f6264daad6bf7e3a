/**
 * Payouts (decision 0061): creators' earnings held for the chargeback window, payout methods behind one
 * seam (the bank-transfer export, and Stripe Connect and PayPal Payouts when configured: decisions 0063, 0064), `payoutReadiness`, payout requests through the ledger's `payouts`
 * holding account, automatic schedules, and the console's queue with the bank file's export and import.
 */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createBankTransfers } from './bank-transfers';
import { createConnectAccounts } from './connect-accounts';
import { registerConnectRoutes, type StripePayouts } from './connect-routes';
import { createEarnings } from './earnings';
import { createPayoutQueue } from './queue';
import { createReadiness, type PayoutReadinessCheck } from './readiness';
import { createProcessorPayouts, type ProcessorPayouts } from './processor-payouts';
import { createPayoutRequests } from './requests';
import { createPayPalPayouts } from './paypal-payouts';
import { registerPayPalPayoutRoutes, type PayPalPayoutsSetup } from './paypal-routes';
import { registerPayoutRoutes } from './routes';
import { createSchedules, type Schedules } from './schedules';
import { createStripeConnect } from './stripe-connect';
import { methodOf } from './methods';
import { stripeConnectAccounts } from './tables';
import { eq } from 'drizzle-orm';
import './events';

export type { TaxForms, PayoutReadinessCheck } from './readiness';

declare module '../../platform/module' {
  interface ModuleServices {
    /** Whether a creator may be paid: the payout method's onboarding and the tax form (decision 0061). */
    payoutReadiness: PayoutReadinessCheck;
    /** Automatic payouts: the job's run, for tests and operators. */
    automaticPayouts: Pick<Schedules, 'runDue'>;
    /** Payouts through a processor (Stripe Connect, decision 0063; PayPal, 0064), when one is configured: the reconcile job's run, for tests and operators. */
    processorPayouts: { reconcile(now?: Date): Promise<{ asked: number; settled: number }> } | null;
  }
}

export function createPayoutsModule(ctx: ModuleContext): AppModule {
  const { db, config } = ctx;
  const { holdSeconds, minimumCoins } = config.payouts;
  const ledger = ctx.service('ledger');
  const accounts = ctx.service('accounts');
  const readiness = createReadiness({ db, taxForms: ctx.service('taxInfo') });
  const requests = createPayoutRequests({ db, ledger, outbox: ctx.platform.outbox, readiness, holdSeconds, minimumCoins });
  const earnings = createEarnings({ db, requests, holdSeconds, minimumCoins });
  const schedules = createSchedules({ db, requests, holdSeconds, minimumCoins, log: ctx.log });
  const queue = createPayoutQueue({ db, ledger, accounts, requests, holdSeconds });
  const bank = createBankTransfers({
    db, requests,
    accountName: async (ids) => {
      const people = await accounts.publicUsers(ids);
      return (id) => people.get(id)?.username ?? '';
    },
  });
  const connect = config.stripe?.connectWebhookSecrets
    ? createStripeConnect({ secretKey: config.stripe.secretKey, apiBase: config.stripe.apiBase, webhookSecrets: config.stripe.connectWebhookSecrets })
    : null;
  const stripe: StripePayouts | null = connect && {
    api: connect,
    accounts: createConnectAccounts({ db, stripe: connect }),
    payouts: createProcessorPayouts({
      db, requests, processor: connect, log: ctx.log, method: 'stripe_connect', name: 'Stripe',
      destination: async (userId) => (await db.select({ id: stripeConnectAccounts.accountId }).from(stripeConnectAccounts).where(eq(stripeConnectAccounts.userId, userId)))[0]?.id ?? null,
    }),
  };
  const paypalApi = config.paypal?.payoutsWebhookId ? createPayPalPayouts({ ...config.paypal, webhookId: config.paypal.payoutsWebhookId }) : null;
  const paypal: PayPalPayoutsSetup | null = paypalApi && {
    api: paypalApi,
    payouts: createProcessorPayouts({
      db, requests, processor: paypalApi.processor, log: ctx.log, method: 'paypal', name: 'PayPal',
      destination: async (userId) => {
        const row = await methodOf(db, userId);
        return row?.method === 'paypal' ? row.accountNumber : null;
      },
    }),
  };
  const processors = [stripe?.payouts, paypal?.payouts].filter((p): p is ProcessorPayouts => p !== undefined && p !== null);
  const reconcileAll = async (now?: Date) => {
    const total = { asked: 0, settled: 0 };
    for (const processor of processors) {
      const done = await processor.reconcile(now);
      total.asked += done.asked;
      total.settled += done.settled;
    }
    return total;
  };
  ctx.fill('nextWithdrawDate', earnings.nextWithdrawDate);
  return {
    name: 'payouts',
    services: { payoutReadiness: readiness, automaticPayouts: schedules, processorPayouts: processors.length > 0 ? { reconcile: reconcileAll } : null },
    routes: async (app) => {
      registerPayoutRoutes(app, { db, ledger, earnings, readiness, requests, schedules, queue, bank, stripe, processors });
      await registerConnectRoutes(app, stripe);
      await registerPayPalPayoutRoutes(app, { db, paypal });
    },
    jobs: [
      // Several instances may run it at once: a lease per schedule, a key per run (schedules.ts).
      { name: 'automatic-payouts', everyMs: 60_000, roles: ['worker'], run: async () => void (await schedules.runDue()) },
      // Processor payouts whose answer was lost (or never asked for): leased per request (processor-payouts.ts).
      ...(processors.length > 0 ? [{ name: 'reconcile-processor-payouts', everyMs: 60_000, roles: ['worker' as const], run: async () => void (await reconcileAll()) }] : []),
    ],
  };
}
export { STRIPE_PAYOUTS_WEBHOOK_PATH } from './connect-routes';
export { PAYPAL_PAYOUTS_WEBHOOK_PATH } from './paypal-routes';
