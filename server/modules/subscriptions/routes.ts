/** HTTP handlers of plans and subscriptions (spec part 2 §7 Subscriptions). */
import type { FastifyInstance } from 'fastify';
import * as offerApi from '../../../common/api/plan-offers';
import * as api from '../../../common/api/subscriptions';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { ACCESS, type Access } from '../../platform/http/access';
import { tooManyRequests } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import { createThrottle } from '../../platform/throttle';
import { DEPOSIT_THROTTLE_KEY, WALLET_THROTTLE } from '../wallet';
import type { PlanOffers } from './offers';
import type { PlanCheckouts } from './plan-checkouts';
import type { SubscriptionsService } from './service';

/** Where a payer comes back to from a processor's page unless the call names another page: the subscription dashboard. */
export const PLAN_CHECKOUT_RETURN_PATH = '/subscription';

/** A user's own lists and figures, or anyone's for GRANT PERMISSION (moderators) and admins. */
const OWN_OR_GRANT: Access = ACCESS.with(ACCESS.self, {
  cells: { moderator: 'ok' },
  perms: { 'GRANT PERMISSION': 'ok', 'UPDATE STREAM_ANY': 403, 'ALLOW REPORT_STREAM_HIDE': 403 },
});
/** One subscription, to its subscriber or its creator (the owner), GRANT PERMISSION holders and admins; to anyone else it is not there. */
const PARTIES_OR_GRANT: Access = ACCESS.with(ACCESS.signedIn, {
  cells: { user: 404, other: 404 },
  perms: { 'GRANT PERMISSION': 'ok', 'UPDATE STREAM_ANY': 404, 'ALLOW REPORT_STREAM_HIDE': 404 },
});
/** The subscriber alone acts on a subscription; to anyone else it is not there. */
const SUBSCRIBER_ONLY: Access = ACCESS.with(ACCESS.signedIn, { cells: { user: 404, other: 404, moderator: 404, admin: 404 } });
/** A creator's own plan; to anyone else it is not there. */
const PLAN_OWNER_ONLY = SUBSCRIBER_ONLY;

export function registerSubscriptionRoutes(app: FastifyInstance, deps: { db: Db; subscriptions: SubscriptionsService; planCheckouts: PlanCheckouts; planOffers: PlanOffers }): void {
  const { subscriptions, planCheckouts, planOffers } = deps;
  const tags = ['subscriptions'];
  const throttle = createThrottle(deps.db, { windowMs: WALLET_THROTTLE.windowMs });

  addRoute(app, api.planTemplates, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => ({
    templates: await subscriptions.templates(principal.userId),
  }));

  addRoute(app, api.planList, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal }) =>
    subscriptions.plans(input.id, principal?.userId ?? null));

  // CREATE PLAN is a new account's permission: the refusal of a user without it is proven in subscriptions.int.test.ts.
  addRoute(app, api.planAdd, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => subscriptions.addPlan(principal, input));

  addRoute(app, api.planMargin, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input }) => subscriptions.margin(input.currency));

  addRoute(app, api.planDelete, { auth: 'user', access: PLAN_OWNER_ONLY, tags }, async ({ input, principal }) => subscriptions.deletePlan(principal, input.plan_id));

  addRoute(app, api.listSubscribers, { auth: 'user', access: OWN_OR_GRANT, tags }, async ({ input, principal }) => subscriptions.mySubscribers(principal, input));

  addRoute(app, api.listSubscriptions, { auth: 'user', access: OWN_OR_GRANT, tags }, async ({ input, principal }) => subscriptions.mySubscriptions(principal, input));

  addRoute(app, api.lookupSubscription, { auth: 'user', access: PARTIES_OR_GRANT, tags }, async ({ input, principal }) => subscriptions.lookup(principal, input.id));

  addRoute(app, api.subscriptionHistory, { auth: 'user', access: PARTIES_OR_GRANT, tags }, async ({ input, principal }) => subscriptions.history(principal, input.id));

  addRoute(app, api.cancelSubscription, { auth: 'user', access: SUBSCRIBER_ONLY, tags }, async ({ input, principal }) => subscriptions.cancel(principal, input.id));

  addRoute(app, api.renewSubscription, { auth: 'user', access: SUBSCRIBER_ONLY, tags }, async ({ input, principal }) => subscriptions.renew(principal, input.id));

  addRoute(app, api.subscribe, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, idempotencyKey }) =>
    subscriptions.subscribe(principal, input, idempotencyKey));

  addRoute(app, api.subscribeCheckout, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, request }) => {
    // Counted with deposits: both open a checkout at the processor.
    if ((await throttle.attempt([{ key: DEPOSIT_THROTTLE_KEY(principal.userId), limit: WALLET_THROTTLE.deposits }])).limited) throw tooManyRequests(MSG.tooManyPayments);
    return planCheckouts.start(principal, input, `${request.publicOrigin}${input.return_path ?? PLAN_CHECKOUT_RETURN_PATH}`, request.ip);
  });

  addRoute(app, api.subscribeCheckoutResult, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) =>
    planCheckouts.result(principal, input.payment_id));

  addRoute(app, api.subscriberStats, { auth: 'user', access: OWN_OR_GRANT, tags }, async ({ input, principal }) => subscriptions.stats(principal, input.id));

  // Offers (decision 0089): a creator's own plan and offers; to anyone else they are not there.
  addRoute(app, offerApi.offerAdd, { auth: 'user', access: PLAN_OWNER_ONLY, tags }, async ({ input, principal }) => planOffers.add(principal, input));

  addRoute(app, offerApi.offerWithdraw, { auth: 'user', access: PLAN_OWNER_ONLY, tags }, async ({ input, principal }) => planOffers.withdraw(principal, input.offer_id));

  addRoute(app, offerApi.offerList, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => planOffers.list(principal));

  addRoute(app, offerApi.offerLookup, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal }) =>
    planOffers.lookup(principal?.userId ?? null, input.code));

  addRoute(app, offerApi.offerClaim, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, idempotencyKey }) =>
    planOffers.claim(principal, input, idempotencyKey));
}
