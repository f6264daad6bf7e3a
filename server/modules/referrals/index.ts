/**
 * The referral programme (decision 0023): links per holder and campaign (`codes.ts`), sign-ups credited to
 * the first link their browser carried (`attribution.ts`), commissions settled per period through the
 * ledger (`settlement.ts`) and the dashboard's reports (`reports.ts`).
 */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createAttribution, type Attribution } from './attribution';
import { createReferralCodes, type ReferralCodes } from './codes';
import { createReferralReports } from './reports';
import { registerReferralRoutes } from './routes';
import { createReferralSettlement, SETTLEMENT_EVERY_MS, type ReferralSettlement } from './settlement';

declare module '../../platform/module' {
  interface ModuleServices {
    referrals: { codes: ReferralCodes; attribution: Attribution; settlement: ReferralSettlement };
  }
}

export function createReferralsModule(ctx: ModuleContext): AppModule {
  const { db, config } = ctx;
  const codes = createReferralCodes({ db });
  const attribution = createAttribution({ db, codes });
  const settlement = createReferralSettlement({ db, ledger: ctx.service('ledger'), rates: config.referrals.rates, periodMs: config.referrals.settlementMs, log: ctx.log });
  const reports = createReferralReports({ db, codes, settlement, rates: config.referrals.rates });
  ctx.fill('registrations', async (registration) => void (await attribution.credit(registration)));
  ctx.fill('referralCodes', (userId) => codes.firstId(userId));
  return {
    name: 'referrals',
    services: { referrals: { codes, attribution, settlement } },
    routes: (app) => registerReferralRoutes(app, { codes, reports }),
    jobs: [{ name: 'settle-referral-commissions', everyMs: SETTLEMENT_EVERY_MS, roles: ['worker'], run: async () => void (await settlement.run()) }],
  };
}
