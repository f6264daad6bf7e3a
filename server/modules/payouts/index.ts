/**
 * Payouts (decision 0061): creators' earnings held for the chargeback window, payout methods behind one
 * seam (the bank-transfer export today), `payoutReadiness`, payout requests through the ledger's `payouts`
 * holding account, automatic schedules, and the console's queue with the bank file's export and import.
 */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createBankTransfers } from './bank-transfers';
import { createEarnings } from './earnings';
import { createPayoutQueue } from './queue';
import { createReadiness, type PayoutReadinessCheck } from './readiness';
import { createPayoutRequests } from './requests';
import { registerPayoutRoutes } from './routes';
import { createSchedules, type Schedules } from './schedules';
import './events';

export type { TaxForms, PayoutReadinessCheck } from './readiness';

declare module '../../platform/module' {
  interface ModuleServices {
    /** Whether a creator may be paid: the payout method's onboarding and the tax form (decision 0061). */
    payoutReadiness: PayoutReadinessCheck;
    /** Automatic payouts: the job's run, for tests and operators. */
    automaticPayouts: Pick<Schedules, 'runDue'>;
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
  ctx.fill('nextWithdrawDate', earnings.nextWithdrawDate);
  return {
    name: 'payouts',
    services: { payoutReadiness: readiness, automaticPayouts: schedules },
    routes: (app) => registerPayoutRoutes(app, { db, ledger, earnings, readiness, requests, schedules, queue, bank }),
    jobs: [
      // Several instances may run it at once: a lease per schedule, a key per run (schedules.ts).
      { name: 'automatic-payouts', everyMs: 60_000, roles: ['worker'], run: async () => void (await schedules.runDue()) },
    ],
  };
}
