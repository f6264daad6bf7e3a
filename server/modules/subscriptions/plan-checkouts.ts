/**
 * A plan paid on a processor's page (decision 0059). Money still enters only as a deposit: the payer is
 * sent to the processor for the plan's coins (an unlisted package at the list rate), and the transaction
 * that credits them takes the subscription from the wallet. When it cannot be taken then (the plan was
 * withdrawn or changed, the payer subscribed meanwhile) the coins stay in the wallet and the row says why.
 */
import { and, eq } from 'drizzle-orm';
import { COINS_PER_USD } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { periodLabel } from '../../../common/rules/plans';
import { coins } from '../../../common/rules/format';
import { sqlState, type Db, type Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { InsufficientFunds } from '../ledger';
import type { HostedDeposits, PaymentCredited } from '../wallet';
import type { SubscriptionsService } from './service';
import { planCheckouts, subscriptionPlans } from './tables';

const UNIQUE_VIOLATION = '23505';

/** Why a credited payment's subscription was not taken, for the payer; null for a failure that should roll the settlement back. */
function notTaken(error: unknown): string | null {
  if (error instanceof AppError) return error.message;
  if (error instanceof InsufficientFunds) return MSG.subscribeNeedsCoins;
  // Another subscribe to the same creator won the one-enabled index.
  if (sqlState(error) === UNIQUE_VIOLATION) return MSG.alreadySubscribed;
  return null;
}

export function createPlanCheckouts(deps: { db: Db; subscriptions: SubscriptionsService; hostedDeposits: HostedDeposits; accounts: AccountsService }) {
  const { db, hostedDeposits } = deps;
  const { checkouts } = deps.subscriptions;

  /** Fills the wallet's `paymentCredited` hook: runs inside the settlement's transaction. */
  const credited: PaymentCredited = async (tx, payment) => {
    const [row] = await tx.select().from(planCheckouts)
      .where(and(eq(planCheckouts.paymentId, payment.id), eq(planCheckouts.state, 'pending'))).for('update');
    if (!row) return null;
    try {
      // A savepoint: a refused subscription leaves the credited coins in the wallet.
      const subscription = await tx.transaction((sp) => checkouts.takeWithin(sp, {
        paymentId: row.paymentId, subscriberId: row.subscriberId, creatorId: row.creatorId, planId: row.planId, price: row.price, autoRenew: row.autoRenew,
      }));
      await tx.update(planCheckouts).set({ state: 'subscribed', subscriptionId: subscription.id, settledAt: new Date() }).where(eq(planCheckouts.paymentId, row.paymentId));
      return () => checkouts.announceSubscribed(subscription);
    } catch (error) {
      const reason = notTaken(error);
      if (reason === null) throw error;
      await tx.update(planCheckouts).set({ state: 'kept', outcome: reason, settledAt: new Date() }).where(eq(planCheckouts.paymentId, row.paymentId));
      return null;
    }
  };

  return {
    credited,

    /** `address`: the payer's, for the deposit risk checks (decision 0058). */
    async start(principal: Principal, input: { plan_id: number; user_id: number; auto_renew: boolean; payment_method: 'card' | 'paypal' | 'bitcoin' }, returnUrl: string, address: string | null) {
      const plan = await checkouts.planToPay(principal.userId, input.user_id, input.plan_id);
      if (!hostedDeposits.isHosted(input.payment_method)) throw badRequest(MSG.paymentMethodUnavailable, 'payment_method');
      const [contact, people] = await Promise.all([deps.accounts.mailContact(principal.userId), deps.accounts.publicUsers([plan.userId])]);
      const checkout = await hostedDeposits.start({
        userId: principal.userId,
        email: contact?.email ?? '',
        method: input.payment_method,
        renewMonthly: false,
        returnUrl,
        address,
        coins: plan.price,
        description: `${plan.name}, ${periodLabel(plan.period)}, with @${people.get(plan.userId)?.username ?? ''}: ${coins(plan.price)}`,
        alongside: async (tx: Executor, paymentId: number) => {
          await tx.insert(planCheckouts).values({
            paymentId, subscriberId: principal.userId, creatorId: plan.userId, planId: plan.id, price: plan.price, autoRenew: input.auto_renew,
          });
        },
      });
      return { checkout, coins: plan.price, amount: (plan.price * 100) / COINS_PER_USD, currency: 'USD' as const };
    },

    /** The payment as the processor says (asked while pending, which may settle it here) and what became of the plan. */
    async result(principal: Principal, paymentId: number) {
      const read = async () => (await db.select().from(planCheckouts)
        .where(and(eq(planCheckouts.paymentId, paymentId), eq(planCheckouts.subscriberId, principal.userId))))[0];
      if (!(await read())) throw notFound(MSG.paymentUnknown);
      const payment = await hostedDeposits.result(principal.userId, paymentId);
      const row = (await read())!;
      const [creator, subscription, [plan]] = await Promise.all([
        deps.accounts.publicUsers([row.creatorId]),
        row.subscriptionId === null ? null : checkouts.subscription(principal, row.subscriptionId),
        db.select({ name: subscriptionPlans.name }).from(subscriptionPlans).where(eq(subscriptionPlans.id, row.planId)),
      ]);
      const unpaid = payment.status !== 'pending' && payment.status !== 'succeeded';
      return {
        payment,
        state: unpaid ? ('unpaid' as const) : row.state,
        message: row.state === 'kept' ? fill(MSG.planCheckoutKept, { coins: coins(row.price), reason: row.outcome ?? '' }) : null,
        creator: { user_id: row.creatorId, username: creator.get(row.creatorId)?.username ?? '' },
        plan_name: plan?.name ?? '',
        subscription,
      };
    },
  };
}

export type PlanCheckouts = ReturnType<typeof createPlanCheckouts>;
