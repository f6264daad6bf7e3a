/**
 * Subscriptions (spec part 1 §1, §4 Subscription, §5, §6; part 2 §4, §7, §8): creators' plans made from
 * templates, subscribing with coins (one ledger transfer, in the transaction that writes the
 * subscription), cancelling, renewing, and the lists and figures of the dashboard. The benefits of a
 * subscription last to the end of its paid period whatever happens to it (reads.ts).
 */
import { and, asc, count, countDistinct, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { EventOutbox } from '../../platform/event-outbox';
import type { HistoryEntry, PlanTemplate, Subscription } from '../../../common/api/subscriptions';
import { MSG, fill } from '../../../common/messages';
import { coins } from '../../../common/rules/format';
import { comparePlans, coinsToUsd, mayCancel, mayRenew, periodEnd, periodLabel } from '../../../common/rules/plans';
import { sqlState, type Db, type Executor } from '../../platform/db/client';
import type { DomainEvents } from '../../platform/events';
import type { Principal } from '../../platform/http/auth';
import { appError, conflict, forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { InsufficientFunds, type Ledger } from '../ledger';
import type { SocialService } from '../social';
import { subscriptionHistory, subscriptionPlans, subscriptions, planTemplates, type Benefits } from './tables';
import { historyRow, paymentLegs, renewalKey } from './payments';
import { activeBenefits } from './reads';
import { featureTexts } from './templates';
import './events';

const UNIQUE_VIOLATION = '23505';
const LOCK_NOT_AVAILABLE = '55P03';
/** The spec's subscribe codes (part 2 §8), sent as `error_code` with the refusal. */
export const SUBSCRIBE_CODES = { fundAccount: 10516, alreadySubscribed: 20002 } as const;

export const fundAccount = () => appError('fund_account', undefined, { error_code: SUBSCRIBE_CODES.fundAccount });
const alreadySubscribed = () => appError('already_subscribed', undefined, { error_code: SUBSCRIBE_CODES.alreadySubscribed });

type SubscriptionRow = typeof subscriptions.$inferSelect;
type PlanRow = typeof subscriptionPlans.$inferSelect;
interface Person { user_id: number; username: string; avatar: string | null }
/** An offer's first period (decision 0089): what it costs (0: free), how long it lasts, and its history line. */
export interface FirstPeriod { price: number; period: string; detail: string }
type ChangeReason = DomainEvents['subscription.changed'][0]['reason'];

/** Who may read a subscription: its subscriber, its creator, and GRANT PERMISSION holders (admins hold every permission). */
const maySeeSubscription = (p: Principal, row: SubscriptionRow) =>
  row.subscriberId === p.userId || row.creatorId === p.userId || p.role === 'admin' || p.perms.includes('GRANT PERMISSION');

export interface SubscriptionsDeps {
  db: Db;
  ledger: Ledger;
  accounts: AccountsService;
  social: SocialService;
  /** Platform percent of a subscription payment (config PLATFORM_FEES, kind `subscription`). */
  feePercent: number;
  /** Stars a rated creator needs before anyone may subscribe (config RATING_THRESHOLD). */
  ratingThreshold: number;
  /** Events that follow a commit at least once (a new subscriber told to the creator, a change to whatever depends on it). */
  outbox: EventOutbox;
  /** The clock: injected by tests that run months in seconds. */
  now?: () => Date;
}

const usd = (price: number) => ({ USD: coinsToUsd(price) });
const iso = (date: Date | string) => new Date(date).toISOString();

export function createSubscriptionsService(deps: SubscriptionsDeps) {
  const { db, ledger, accounts } = deps;
  const clock = deps.now ?? (() => new Date());

  async function people(ids: number[]): Promise<Map<number, Person>> {
    const found = await accounts.publicUsers([...new Set(ids)]);
    return new Map([...found].map(([id, p]) => [id, { user_id: id, username: p.username, avatar: p.avatar }]));
  }

  function toSubscription(row: SubscriptionRow, other: Person | undefined, now: Date, history?: HistoryEntry[]): Subscription {
    const renews = row.state === 'enabled' && row.autoRenew;
    return {
      subscription_id: row.id,
      plan_id: row.planId,
      plan_user_id: row.creatorId,
      plan_name: row.planName,
      plan_level: row.planLevel,
      user_id: other?.user_id ?? 0,
      username: other?.username ?? '',
      avatar: other?.avatar ?? null,
      price: row.price,
      price_formatted: coins(row.price),
      currency: row.currency,
      price_by_currency: usd(row.price),
      period: row.period,
      period_label: periodLabel(row.period),
      features: featureTexts(row.benefits),
      benefits: row.benefits,
      auto_renew: row.autoRenew,
      begin_date: iso(row.beginDate),
      end_date: iso(row.endDate),
      renewal_date: renews ? iso(row.endDate) : null,
      state: row.state,
      active: new Date(row.endDate) > now,
      ...(history ? { history } : {}),
    };
  }

  async function historyOf(subscriptionIds: number[]): Promise<Map<number, HistoryEntry[]>> {
    const byId = new Map<number, HistoryEntry[]>(subscriptionIds.map((id) => [id, []]));
    if (subscriptionIds.length === 0) return byId;
    const rows = await db.select().from(subscriptionHistory).where(inArray(subscriptionHistory.subscriptionId, subscriptionIds))
      .orderBy(desc(subscriptionHistory.id));
    for (const r of rows) byId.get(r.subscriptionId)?.push({ category: r.category, detail: r.detail, entry_date: iso(r.createdAt) });
    return byId;
  }

  /** A subscription its subscriber, its creator or a GRANT PERMISSION holder may see; 404 for anyone else. */
  async function visibleSubscription(principal: Principal, id: number): Promise<SubscriptionRow> {
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
    if (!row || !maySeeSubscription(principal, row)) throw notFound(MSG.subscriptionNotFound);
    return row;
  }

  /** Only the subscriber acts on a subscription (cancel, renew). */
  async function ownSubscription(principal: Principal, id: number, exec: Executor = db): Promise<SubscriptionRow> {
    const [row] = await exec.select().from(subscriptions).where(and(eq(subscriptions.id, id), eq(subscriptions.subscriberId, principal.userId))).for('update');
    if (!row) throw notFound(MSG.subscriptionNotFound);
    return row;
  }

  async function answerFor(principal: Principal, row: SubscriptionRow): Promise<Subscription> {
    const otherId = row.subscriberId === principal.userId ? row.creatorId : row.subscriberId;
    return toSubscription(row, (await people([otherId])).get(otherId), clock());
  }

  async function activePlan(planId: number, creatorId: number, exec: Executor = db): Promise<PlanRow> {
    const [row] = await exec.select().from(subscriptionPlans)
      .where(and(eq(subscriptionPlans.id, planId), eq(subscriptionPlans.userId, creatorId), isNull(subscriptionPlans.deletedAt)));
    if (!row) throw notFound(MSG.planNotFound);
    return row;
  }

  /** The spec's rating rule: a rated creator below the threshold cannot be subscribed to; an unrated one can. */
  async function assertRatedEnough(creatorId: number) {
    const { overall_rating: rating } = await deps.social.profile(creatorId, null);
    if (rating > 0 && rating < deps.ratingThreshold) throw appError('rating_too_low', fill(MSG.subscribeRatingTooLow, { n: deps.ratingThreshold }));
  }

  /**
   * The subscriber's current subscription to the creator, locked: one paid up now, or one that will still
   * be renewed (its renewal is due). Null when there is none, after retiring an enabled one that ended
   * without renewal (it frees the one-enabled index for the new one).
   */
  async function currentSubscription(tx: Executor, subscriberId: number, creatorId: number, now: Date): Promise<SubscriptionRow | null> {
    const rows = await tx.select().from(subscriptions)
      .where(and(eq(subscriptions.subscriberId, subscriberId), eq(subscriptions.creatorId, creatorId),
        or(gt(subscriptions.endDate, now), eq(subscriptions.state, 'enabled'))))
      .for('update');
    for (const row of rows) {
      if (new Date(row.endDate) > now || row.autoRenew) return row;
    }
    for (const row of rows) {
      await tx.update(subscriptions).set({ state: 'cancelled' }).where(eq(subscriptions.id, row.id));
      await tx.insert(subscriptionHistory).values(historyRow(row.id, 'EXPIRED', 'The paid period ended without renewal'));
    }
    return null;
  }

  /** currentSubscription's question, read only (listings): paid up now, or an enabled one still renewing. */
  async function holdsCurrent(subscriberId: number, creatorId: number): Promise<boolean> {
    const [row] = await db.select({ id: subscriptions.id }).from(subscriptions)
      .where(and(eq(subscriptions.subscriberId, subscriberId), eq(subscriptions.creatorId, creatorId),
        or(gt(subscriptions.endDate, clock()), and(eq(subscriptions.state, 'enabled'), eq(subscriptions.autoRenew, true)))))
      .limit(1);
    return row !== undefined;
  }

  const changeOf = (row: SubscriptionRow, reason: ChangeReason) => ({ subscriptionId: row.id, subscriberId: row.subscriberId, creatorId: row.creatorId, reason });

  /** In the change's transaction: what depends on the subscriber's benefits follows it at least once. */
  async function writeChanged(tx: Executor, row: SubscriptionRow, reason: ChangeReason) {
    await deps.outbox.write(tx, 'subscription.changed', changeOf(row, reason));
  }

  /** After the commit of writeChanged. */
  async function announceChanged(row: SubscriptionRow, reason: ChangeReason) {
    await deps.outbox.afterCommit('subscription.changed', changeOf(row, reason));
  }

  /** The ledger key of a subscription's first payment: scoped to the subscriber, so nobody can use (or block) another's keys. */
  const firstPaymentKey = (subscriberId: number, key: string) => `subscription:${subscriberId}:${key}`;

  /** The subscription a retried subscribe already paid for, if the key moved money before. */
  async function paidWithKey(key: string): Promise<SubscriptionRow | null> {
    const transferId = await ledger.transferIdByKey(key);
    if (transferId === null) return null;
    const [row] = await db.select({ s: subscriptions }).from(subscriptionHistory)
      .innerJoin(subscriptions, eq(subscriptions.id, subscriptionHistory.subscriptionId))
      .where(eq(subscriptionHistory.transferId, transferId));
    return row?.s ?? null;
  }

  async function templates(viewerId: number): Promise<PlanTemplate[]> {
    const [rows, own] = await Promise.all([
      db.select().from(planTemplates).where(eq(planTemplates.active, true)).orderBy(asc(planTemplates.level), asc(planTemplates.id)),
      db.select({ templateId: subscriptionPlans.templateId, price: subscriptionPlans.price, currency: subscriptionPlans.currency }).from(subscriptionPlans)
        .where(and(eq(subscriptionPlans.userId, viewerId), isNull(subscriptionPlans.deletedAt))),
    ]);
    const added = new Set(own.map((p) => `${p.templateId}:${p.currency}:${p.price}`));
    return rows.map((t) => ({
      template_id: t.id,
      name: t.name,
      description: t.description,
      level: t.level,
      features: featureTexts(t.benefits),
      benefits: t.benefits,
      prices: t.prices.map((p) => ({
        ...p,
        period_label: periodLabel(p.period),
        price_by_currency: usd(p.price),
        added: added.has(`${t.id}:${p.currency}:${p.price}`),
      })),
    }));
  }

  async function plans(creatorId: number, viewerId: number | null) {
    if (!(await accounts.isActive(creatorId))) throw notFound(MSG.userNotFound);
    const [rows, current] = await Promise.all([
      db.select().from(subscriptionPlans).where(and(eq(subscriptionPlans.userId, creatorId), isNull(subscriptionPlans.deletedAt))),
      viewerId === null || viewerId === creatorId ? Promise.resolve(false) : holdsCurrent(viewerId, creatorId),
    ]);
    const qualified = viewerId !== null && viewerId !== creatorId && !current;
    const listed = comparePlans(rows.map((p) => ({ ...p, plan_id: p.id, group_id: p.templateId })));
    return {
      subscribed: current,
      plans: listed.map((p) => ({
        plan_id: p.id,
        template_id: p.templateId,
        user_id: p.userId,
        name: p.name,
        description: p.description,
        level: p.level,
        features: featureTexts(p.benefits),
        benefits: p.benefits,
        price: p.price,
        currency: p.currency,
        period: p.period,
        period_label: periodLabel(p.period),
        price_by_currency: usd(p.price),
        prices: [{ price: p.price, currency: p.currency, period: p.period }],
        group_id: p.group_id,
        qualified,
        discount: p.discount,
        bestPrice: p.bestPrice,
      })),
    };
  }

  async function addPlan(principal: Principal, input: { template_id: number; price: number; currency: 'CON' }) {
    if (!principal.perms.includes('CREATE PLAN') && principal.role !== 'admin') throw appError('plan_permission');
    const [template] = await db.select().from(planTemplates).where(and(eq(planTemplates.id, input.template_id), eq(planTemplates.active, true)));
    if (!template) throw notFound(MSG.planTemplateNotFound);
    const offered = template.prices.find((p) => p.price === input.price && p.currency === input.currency);
    if (!offered) throw appError('validation', MSG.planPriceInvalid, { field: 'price', errors: { price: MSG.planPriceInvalid } });
    try {
      const [row] = await db.insert(subscriptionPlans).values({
        userId: principal.userId,
        templateId: template.id,
        name: template.name,
        description: template.description,
        level: template.level,
        benefits: template.benefits,
        price: offered.price,
        currency: offered.currency,
        period: offered.period,
      }).returning();
      const listed = await plans(principal.userId, principal.userId);
      return { plan: listed.plans.find((p) => p.plan_id === row!.id)! };
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION) throw conflict(MSG.planExists, 'price');
      throw error;
    }
  }

  /** Withdraws a plan: nobody subscribes to it or is renewed on it again; paid periods run to their end. */
  async function deletePlan(principal: Principal, planId: number) {
    const withdrawn = await db.transaction(async (tx) => {
      let plan: PlanRow | undefined;
      try {
        [plan] = await tx.select().from(subscriptionPlans)
          .where(and(eq(subscriptionPlans.id, planId), eq(subscriptionPlans.userId, principal.userId), isNull(subscriptionPlans.deletedAt)))
          .for('update', { noWait: true });
      } catch (error) {
        // A subscribe holds the plan while it pays: the plan is being subscribed to right now.
        if (sqlState(error) === LOCK_NOT_AVAILABLE) throw conflict(MSG.planInUse);
        throw error;
      }
      if (!plan) throw notFound(MSG.planNotFound);
      await tx.update(subscriptionPlans).set({ deletedAt: clock() }).where(eq(subscriptionPlans.id, planId));
      const ended = await tx.update(subscriptions).set({ state: 'deleted', autoRenew: false })
        .where(and(eq(subscriptions.planId, planId), eq(subscriptions.state, 'enabled'))).returning();
      if (ended.length > 0) {
        await tx.insert(subscriptionHistory).values(ended.map((s) => historyRow(s.id, 'PLAN_DELETED', `The creator withdrew the ${s.planName} plan: it ends on ${iso(s.endDate).slice(0, 10)}`)));
      }
      for (const row of ended) await writeChanged(tx, row, 'plan-deleted');
      return ended;
    });
    for (const row of withdrawn) await announceChanged(row, 'plan-deleted');
    return { plan_id: planId, subscribers: withdrawn.length };
  }

  /**
   * Writes a subscription's first period and pays it from the subscriber's wallet, inside `tx`: the plan
   * is held meanwhile (withdrawing it is refused, not raced). Throws notFound for a withdrawn plan,
   * alreadySubscribed, or InsufficientFunds. `first`: an offer's first period (decision 0089), its price
   * and length instead of the plan's; a free one moves no coins. The row keeps the plan's price and period,
   * which the renewals charge.
   */
  async function takeFirstPeriod(tx: Executor, order: { subscriberId: number; plan: PlanRow; autoRenew: boolean; key: string; first?: FirstPeriod }): Promise<SubscriptionRow> {
    const { subscriberId, plan } = order;
    const creatorId = plan.userId;
    const [held] = await tx.select({ id: subscriptionPlans.id }).from(subscriptionPlans)
      .where(and(eq(subscriptionPlans.id, plan.id), isNull(subscriptionPlans.deletedAt))).for('share');
    if (!held) throw notFound(MSG.planNotFound);
    const now = clock();
    if (await currentSubscription(tx, subscriberId, creatorId, now)) throw alreadySubscribed();
    const price = order.first?.price ?? plan.price;
    const [row] = await tx.insert(subscriptions).values({
      subscriberId,
      creatorId,
      planId: plan.id,
      planName: plan.name,
      planLevel: plan.level,
      benefits: plan.benefits,
      price: plan.price,
      currency: plan.currency,
      period: plan.period,
      autoRenew: order.autoRenew,
      beginDate: now,
      endDate: periodEnd(now, order.first?.period ?? plan.period),
    }).returning();
    const detail = order.first?.detail ?? `${plan.name}, ${periodLabel(plan.period)}: ${coins(plan.price)}`;
    if (price === 0) {
      await tx.insert(subscriptionHistory).values(historyRow(row!.id, 'SUBSCRIBED', detail));
      await writeChanged(tx, row!, 'subscribed');
      return row!;
    }
    const { fee, legs } = paymentLegs(subscriberId, creatorId, price, deps.feePercent);
    const { transferId } = await ledger.transfer({
      kind: 'subscription',
      idempotencyKey: order.key,
      fromUserId: subscriberId,
      toUserId: creatorId,
      amount: price,
      currency: 'CON',
      details: { subscription_id: row!.id, period_no: 1, fee, fee_percent: deps.feePercent },
      legs,
    }, tx);
    await tx.insert(subscriptionHistory).values(historyRow(row!.id, 'SUBSCRIBED', detail, transferId));
    await deps.outbox.write(tx, 'payment.received', { kind: 'subscription', transferId, payerId: subscriberId, payeeId: creatorId, amount: price, subjectId: row!.id, title: plan.name });
    await writeChanged(tx, row!, 'subscribed');
    return row!;
  }

  async function subscribe(principal: Principal, input: { plan_id: number; user_id: number; auto_renew: boolean }, idempotencyKey: string) {
    const subscriberId = principal.userId;
    const creatorId = input.user_id;
    if (creatorId === subscriberId) throw forbidden(MSG.subscribeSelf);
    const key = firstPaymentKey(subscriberId, idempotencyKey);
    const earlier = await paidWithKey(key);
    // The same key with another body never gets here: the route layer refused it (platform/http/idempotency.ts).
    if (earlier) return answerSubscribed(principal, earlier);
    if (!(await accounts.isActive(creatorId))) throw notFound(MSG.planNotFound);
    const plan = await activePlan(input.plan_id, creatorId);
    await assertRatedEnough(creatorId);
    // Coins that reached the subscriber as a creator sit in receiving shards: the payment below runs in a
    // transaction, where the ledger cannot gather them by itself.
    await ledger.gather(subscriberId, 'CON');
    await ledger.warmAccounts(paymentLegs(subscriberId, creatorId, plan.price, deps.feePercent).legs.map((l) => l.account));
    let created: SubscriptionRow;
    try {
      created = await db.transaction((tx) => takeFirstPeriod(tx, { subscriberId, plan, autoRenew: input.auto_renew, key }));
    } catch (error) {
      if (error instanceof InsufficientFunds) throw fundAccount();
      // Two subscribes at once: the one-enabled index lets one through; the same key's twin answers its outcome.
      if (sqlState(error) === UNIQUE_VIOLATION) {
        const twin = await paidWithKey(key);
        if (twin && twin.planId === input.plan_id) return answerSubscribed(principal, twin);
        throw alreadySubscribed();
      }
      throw error;
    }
    await announceChanged(created, 'subscribed');
    return answerSubscribed(principal, created);
  }

  async function answerSubscribed(principal: Principal, row: SubscriptionRow) {
    const [subscription, balance] = await Promise.all([answerFor(principal, row), ledger.balances(principal.userId)]);
    return { paid: true as const, message: MSG.subscribedNow, subscription, balance };
  }

  async function cancel(principal: Principal, id: number) {
    const row = await db.transaction(async (tx) => {
      const current = await ownSubscription(principal, id, tx);
      if (!mayCancel(current)) throw conflict(MSG.subscriptionNotCancellable);
      const [updated] = await tx.update(subscriptions).set({ state: 'cancelled', autoRenew: false }).where(eq(subscriptions.id, id)).returning();
      await tx.insert(subscriptionHistory).values(historyRow(id, 'CANCELLED', `Cancelled: the benefits last until ${iso(current.endDate).slice(0, 10)}`));
      await writeChanged(tx, updated!, 'cancelled');
      return updated!;
    });
    await announceChanged(row, 'cancelled');
    return { subscription: await answerFor(principal, row) };
  }

  /**
   * Renew: auto-renewal on again. A subscription whose period is over is charged for a new period now
   * (its period number keys the charge: a retry pays once).
   */
  async function renew(principal: Principal, id: number) {
    const [peek] = await db.select().from(subscriptions).where(and(eq(subscriptions.id, id), eq(subscriptions.subscriberId, principal.userId)));
    if (!peek) throw notFound(MSG.subscriptionNotFound);
    const { fee, legs } = paymentLegs(peek.subscriberId, peek.creatorId, peek.price, deps.feePercent);
    if (new Date(peek.endDate) <= clock()) {
      await ledger.gather(peek.subscriberId, 'CON');
      await ledger.warmAccounts(legs.map((l) => l.account));
    }
    let row: SubscriptionRow;
    try {
      row = await db.transaction(async (tx) => {
        const current = await ownSubscription(principal, id, tx);
        if (!mayRenew({ auto_renew: current.autoRenew, state: current.state })) throw conflict(MSG.subscriptionNotRenewable);
        const now = clock();
        if (new Date(current.endDate) > now) {
          const [updated] = await tx.update(subscriptions).set({ autoRenew: true }).where(eq(subscriptions.id, id)).returning();
          await tx.insert(subscriptionHistory).values(historyRow(id, 'AUTO_RENEW_ON', `Renews automatically from ${iso(current.endDate).slice(0, 10)}`));
          await writeChanged(tx, updated!, 'auto-renew-on');
          return updated!;
        }
        const [plan] = await tx.select({ id: subscriptionPlans.id }).from(subscriptionPlans)
          .where(and(eq(subscriptionPlans.id, current.planId), isNull(subscriptionPlans.deletedAt))).for('share');
        if (!plan) throw notFound(MSG.planNotFound);
        const periodNo = current.periodNo + 1;
        const { transferId } = await ledger.transfer({
          kind: 'subscription',
          idempotencyKey: renewalKey(id, periodNo),
          fromUserId: current.subscriberId,
          toUserId: current.creatorId,
          amount: current.price,
          currency: 'CON',
          details: { subscription_id: id, period_no: periodNo, fee, fee_percent: deps.feePercent },
          legs,
        }, tx);
        const [updated] = await tx.update(subscriptions)
          .set({ autoRenew: true, periodNo, beginDate: now, endDate: periodEnd(now, current.period) })
          .where(eq(subscriptions.id, id)).returning();
        await tx.insert(subscriptionHistory).values(historyRow(id, 'RENEWED', `${current.planName}: ${coins(current.price)}`, transferId));
        await writeChanged(tx, updated!, 'auto-renew-on');
        return updated!;
      });
    } catch (error) {
      if (error instanceof InsufficientFunds) throw fundAccount();
      throw error;
    }
    await announceChanged(row, 'auto-renew-on');
    const [subscription, balance] = await Promise.all([answerFor(principal, row), ledger.balances(principal.userId)]);
    return { subscription, balance };
  }

  /** Own lists, or anyone's for GRANT PERMISSION (and admins). */
  function assertMaySee(principal: Principal, userId: number) {
    if (userId !== principal.userId && principal.role !== 'admin' && !principal.perms.includes('GRANT PERMISSION')) throw forbidden();
  }

  async function listOf(where: ReturnType<typeof and>, otherSide: 'creator' | 'subscriber', page: { offset: number; limit: number }, detail: boolean) {
    const [rows, [total]] = await Promise.all([
      db.select().from(subscriptions).where(where).orderBy(desc(subscriptions.id)).offset(page.offset).limit(page.limit),
      db.select({ n: count() }).from(subscriptions).where(where),
    ]);
    const others = await people(rows.map((r) => (otherSide === 'creator' ? r.creatorId : r.subscriberId)));
    const history = detail ? await historyOf(rows.map((r) => r.id)) : null;
    const now = clock();
    return {
      subscriptions: rows.map((r) => toSubscription(r, others.get(otherSide === 'creator' ? r.creatorId : r.subscriberId), now, history?.get(r.id))),
      total: total?.n ?? 0,
    };
  }

  return {
    templates,
    plans,
    addPlan,
    deletePlan,
    subscribe,
    cancel,
    renew,

    /** What a plan paid on a processor's page needs (plan-checkouts.ts, decision 0059). */
    checkouts: {
      /** The plan, when the caller may subscribe to it now: the refusals of subscribe, before any money is asked. */
      async planToPay(subscriberId: number, creatorId: number, planId: number): Promise<PlanRow> {
        if (creatorId === subscriberId) throw forbidden(MSG.subscribeSelf);
        if (!(await accounts.isActive(creatorId))) throw notFound(MSG.planNotFound);
        const plan = await activePlan(planId, creatorId);
        await assertRatedEnough(creatorId);
        if (await currentSubscription(db, subscriberId, creatorId, clock())) throw alreadySubscribed();
        return plan;
      },

      /**
       * Takes the subscription inside the transaction that credited the payment's coins, keyed by the
       * payment: the refusals of subscribe when the plan went or changed, or the subscriber subscribed meanwhile.
       */
      async takeWithin(tx: Executor, order: { paymentId: number; subscriberId: number; creatorId: number; planId: number; price: number; autoRenew: boolean }) {
        const [plan] = await tx.select().from(subscriptionPlans)
          .where(and(eq(subscriptionPlans.id, order.planId), eq(subscriptionPlans.userId, order.creatorId), isNull(subscriptionPlans.deletedAt)));
        // Read in `tx` alone (the embedded database has one connection). The creator's rating was checked when the payer chose the plan.
        if (!plan || plan.price !== order.price || !(await accounts.isActive(order.creatorId, tx))) throw notFound(MSG.planNotFound);
        const key = firstPaymentKey(order.subscriberId, `checkout:${order.paymentId}`);
        return takeFirstPeriod(tx, { subscriberId: order.subscriberId, plan, autoRenew: order.autoRenew, key });
      },

      announceSubscribed: (row: SubscriptionRow) => announceChanged(row, 'subscribed'),

      async subscription(principal: Principal, id: number): Promise<Subscription | null> {
        const [row] = await db.select().from(subscriptions).where(and(eq(subscriptions.id, id), eq(subscriptions.subscriberId, principal.userId)));
        return row ? answerFor(principal, row) : null;
      },
    },

    /** What offers on plans need (offers.ts, decision 0089). */
    offers: {
      /** The refusals of subscribe that do not depend on the plan: oneself, a creator gone or rated too low, a current subscription. */
      async qualify(subscriberId: number, creatorId: number) {
        if (creatorId === subscriberId) throw forbidden(MSG.offerOwn);
        if (!(await accounts.isActive(creatorId))) throw notFound(MSG.offerNotFound);
        await assertRatedEnough(creatorId);
        if (await holdsCurrent(subscriberId, creatorId)) throw alreadySubscribed();
      },
      holdsCurrent,
      /** Whether the fan ever subscribed to the creator, a trial included (introductory offers are for new fans). */
      async subscribedBefore(exec: Executor, subscriberId: number, creatorId: number): Promise<boolean> {
        const [row] = await exec.select({ id: subscriptions.id }).from(subscriptions)
          .where(and(eq(subscriptions.subscriberId, subscriberId), eq(subscriptions.creatorId, creatorId))).limit(1);
        return row !== undefined;
      },
      /** Before the transaction: coins in receiving shards gathered, the payment's accounts resolved (subscribe does the same). */
      async prepare(subscriberId: number, creatorId: number, price: number) {
        if (price === 0) return;
        await ledger.gather(subscriberId, 'CON');
        await ledger.warmAccounts(paymentLegs(subscriberId, creatorId, price, deps.feePercent).legs.map((l) => l.account));
      },
      firstPaymentKey,
      takeWithin: (tx: Executor, order: { subscriberId: number; plan: PlanRow; autoRenew: boolean; key: string; first: FirstPeriod }) => takeFirstPeriod(tx, order),
      announceSubscribed: (row: SubscriptionRow) => announceChanged(row, 'subscribed'),
      async answer(principal: Principal, row: SubscriptionRow) {
        const [subscription, balance] = await Promise.all([answerFor(principal, row), ledger.balances(principal.userId)]);
        return { subscription, balance };
      },
    },

    /** Profiles: whether the viewer is subscribed to the user now, and may subscribe (signed in, not the user, plans on offer). */
    async standing(viewerId: number | null, userId: number) {
      if (viewerId === null || viewerId === userId) return { subscribed: false, can_subscribe: false };
      const [[offered], subscribed] = await Promise.all([
        db.select({ n: count() }).from(subscriptionPlans).where(and(eq(subscriptionPlans.userId, userId), isNull(subscriptionPlans.deletedAt))),
        activeBenefits(db, viewerId, userId),
      ]);
      return { subscribed: subscribed !== null, can_subscribe: (offered?.n ?? 0) > 0 && subscribed === null };
    },

    margin(currency: 'CON') {
      return { currency, margin: deps.feePercent, creator_share: 100 - deps.feePercent };
    },

    async mySubscriptions(principal: Principal, input: { user_id?: number | undefined; detail: boolean; offset: number; limit: number }) {
      const userId = input.user_id ?? principal.userId;
      assertMaySee(principal, userId);
      return listOf(and(eq(subscriptions.subscriberId, userId)), 'creator', input, input.detail);
    },

    async mySubscribers(principal: Principal, input: { user_id: number; all_subs: boolean; offset: number; limit: number }) {
      assertMaySee(principal, input.user_id);
      const where = and(eq(subscriptions.creatorId, input.user_id), input.all_subs ? undefined : gt(subscriptions.endDate, clock()));
      return listOf(where, 'subscriber', input, false);
    },

    async lookup(principal: Principal, id: number) {
      const row = await visibleSubscription(principal, id);
      const otherId = row.subscriberId === principal.userId ? row.creatorId : row.subscriberId;
      const history = await historyOf([row.id]);
      return { subscription: toSubscription(row, (await people([otherId])).get(otherId), clock(), history.get(row.id)) };
    },

    async history(principal: Principal, id: number) {
      const row = await visibleSubscription(principal, id);
      return { history: (await historyOf([row.id])).get(row.id) ?? [] };
    },

    async stats(principal: Principal, creatorId: number) {
      assertMaySee(principal, creatorId);
      const now = clock();
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const [[active], [all], [planCount], coinsTotal, coinsThisMonth] = await Promise.all([
        db.select({ n: countDistinct(subscriptions.subscriberId) }).from(subscriptions).where(and(eq(subscriptions.creatorId, creatorId), gt(subscriptions.endDate, now))),
        db.select({ n: countDistinct(subscriptions.subscriberId) }).from(subscriptions).where(eq(subscriptions.creatorId, creatorId)),
        db.select({ n: count() }).from(subscriptionPlans).where(and(eq(subscriptionPlans.userId, creatorId), isNull(subscriptionPlans.deletedAt))),
        ledger.receivedTotal(creatorId, 'subscription'),
        ledger.receivedTotal(creatorId, 'subscription', monthStart),
      ]);
      return {
        stats: {
          active_subscribers: active?.n ?? 0,
          total_subscribers: all?.n ?? 0,
          plans: planCount?.n ?? 0,
          coins_total: coinsTotal,
          revenue_usd: coinsToUsd(coinsTotal),
          coins_this_month: coinsThisMonth,
        },
      };
    },

    /** A deleted account: its subscriptions stop renewing, its plans are withdrawn (paid periods run out). */
    async forgetAccount(userId: number) {
      const ended = await db.transaction(async (tx) => {
        const cancelled = await tx.update(subscriptions).set({ state: 'cancelled', autoRenew: false })
          .where(and(eq(subscriptions.subscriberId, userId), eq(subscriptions.state, 'enabled'))).returning();
        await tx.update(subscriptionPlans).set({ deletedAt: clock() }).where(and(eq(subscriptionPlans.userId, userId), isNull(subscriptionPlans.deletedAt)));
        const withdrawn = await tx.update(subscriptions).set({ state: 'deleted', autoRenew: false })
          .where(and(eq(subscriptions.creatorId, userId), eq(subscriptions.state, 'enabled'))).returning();
        const rows = [...cancelled.map((s) => historyRow(s.id, 'CANCELLED', 'The account was deleted')),
          ...withdrawn.map((s) => historyRow(s.id, 'PLAN_DELETED', 'The creator\'s account was deleted'))];
        if (rows.length > 0) await tx.insert(subscriptionHistory).values(rows);
        for (const row of cancelled) await writeChanged(tx, row, 'cancelled');
        for (const row of withdrawn) await writeChanged(tx, row, 'plan-deleted');
        return [...cancelled, ...withdrawn];
      });
      for (const row of ended) await announceChanged(row, row.subscriberId === userId ? 'cancelled' : 'plan-deleted');
    },

  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
export type { Benefits };
