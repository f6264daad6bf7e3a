/**
 * Subscriptions: plan templates, creators' plans, subscribing with coins through the ledger, renewals
 * and the benefits subscribers get (priority chat, no pay wall or a discount on paid streams, no ads).
 */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createPlanOffers } from './offers';
import { createPlanCheckouts } from './plan-checkouts';
import { createRenewals, type Renewals } from './renewals';
import { registerSubscriptionRoutes } from './routes';
import { createSubscriptionsService, type SubscriptionsService } from './service';
import './events';

export { activeBenefits, activeBenefitsSql, activePlanLevel, activeSubscribersSql, isSubscribedSql, offersPlan, offersThisPlan, subscribedTo } from './reads';
export type { Benefits } from './tables';
export type { SubscriptionsService } from './service';
export type { Renewals } from './renewals';
export { createRenewals } from './renewals';
export { ensurePlanTemplates, PLAN_TEMPLATES } from './templates';

declare module '../../platform/module' {
  interface ModuleServices {
    subscriptions: SubscriptionsService;
    renewals: Renewals;
  }
}

/** How often the renewal job looks for subscriptions whose period ended. */
export const RENEWAL_EVERY_MS = 60_000;

export function createSubscriptionsModule(ctx: ModuleContext): AppModule {
  const feePercent = ctx.config.platformFees.subscription ?? 0;
  const accounts = ctx.service('accounts');
  const ledger = ctx.service('ledger');
  const subscriptions = createSubscriptionsService({
    db: ctx.db,
    ledger,
    accounts,
    social: ctx.service('social'),
    outbox: ctx.platform.outbox,
    feePercent,
    ratingThreshold: ctx.config.ratingThreshold,
  });
  ctx.fill('subscriptionStanding', (viewerId, userId) => subscriptions.standing(viewerId, userId));
  const planCheckouts = createPlanCheckouts({ db: ctx.db, subscriptions, hostedDeposits: ctx.service('hostedDeposits'), accounts });
  ctx.fill('paymentCredited', planCheckouts.credited);
  const planOffers = createPlanOffers({ db: ctx.db, subscriptions, accounts });
  const renewals = createRenewals({ db: ctx.db, ledger, outbox: ctx.platform.outbox, feePercent });
  ctx.events.onDurable('account.deleted', ({ userId }) => subscriptions.forgetAccount(userId));
  return {
    name: 'subscriptions',
    services: { subscriptions, renewals },
    routes: (app) => registerSubscriptionRoutes(app, { db: ctx.db, subscriptions, planCheckouts, planOffers }),
    jobs: [{ name: 'subscription-renewals', everyMs: RENEWAL_EVERY_MS, roles: ['worker'], run: async () => void (await renewals.renewDue(new Date())) }],
  };
}
