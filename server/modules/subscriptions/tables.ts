import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { OFFER_KINDS, OFFER_RULES } from '../../../common/rules/plan-offers';
import { users } from '../accounts/tables';
import { ledgerTransfers } from '../ledger/tables';
import { payments } from '../wallet/tables';

/** What a plan gives (spec part 1 §1): priority chat, no pay wall, no ads, a discount on paid streams. */
export interface Benefits {
  priority_chat: boolean;
  no_paywall: boolean;
  no_ads: boolean;
  /** 0–1 off a paid stream's viewer minimum; 1 = no pay wall. */
  discount: number;
}

/** One price a template offers: a period code (RMONTH:1 …), a price in a currency. */
export interface TemplatePrice {
  price: number;
  currency: 'CON';
  period: string;
  description: string;
  /** ISO date from which the price is offered. */
  effective_date: string;
}

/** Plan templates: reference data present in every installation (decision 0004); creators make plans from them. */
export const planTemplates = pgTable('plan_templates', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  /** Stable name of the reference row, so a restart finds it and an operator's later changes stay. */
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  level: integer('level').notNull(),
  benefits: jsonb('benefits').$type<Benefits>().notNull(),
  prices: jsonb('prices').$type<TemplatePrice[]>().notNull(),
  active: boolean('active').notNull().default(true),
});

/** A creator's plan: one template at one of its prices. Deleting withdraws it (deleted_at) without touching paid periods. */
export const subscriptionPlans = pgTable(
  'subscription_plans',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    templateId: bigint('template_id', { mode: 'number' }).notNull().references(() => planTemplates.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    level: integer('level').notNull(),
    /** The template's benefits when the plan was made: a later template change does not alter what was sold. */
    benefits: jsonb('benefits').$type<Benefits>().notNull(),
    price: bigint('price', { mode: 'number' }).notNull(),
    currency: text('currency', { enum: ['CON'] }).notNull(),
    period: text('period').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // A template is offered once per price and currency (spec part 1 §4: the same one is disabled).
    uniqueIndex('subscription_plans_offer_idx').on(t.userId, t.templateId, t.currency, t.price).where(sql`${t.deletedAt} is null`),
    check('subscription_plans_price_positive', sql`${t.price} > 0`),
  ],
);

export const SUBSCRIPTION_STATES = ['enabled', 'cancelled', 'deleted'] as const;

/**
 * A subscriber's subscription to a creator's plan. The price, period and benefits are the plan's at
 * purchase. `period_no` counts paid periods: the ledger key of each charge is the subscription and
 * its period number, so a period is charged at most once whoever runs the renewal.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriberId: bigint('subscriber_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    creatorId: bigint('creator_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    planId: bigint('plan_id', { mode: 'number' }).notNull().references(() => subscriptionPlans.id, { onDelete: 'restrict' }),
    planName: text('plan_name').notNull(),
    planLevel: integer('plan_level').notNull(),
    benefits: jsonb('benefits').$type<Benefits>().notNull(),
    price: bigint('price', { mode: 'number' }).notNull(),
    currency: text('currency', { enum: ['CON'] }).notNull(),
    period: text('period').notNull(),
    state: text('state', { enum: SUBSCRIPTION_STATES }).notNull().default('enabled'),
    autoRenew: boolean('auto_renew').notNull(),
    beginDate: timestamp('begin_date', { withTimezone: true }).notNull(),
    /** The end of the paid period: benefits last until then, whatever the state. */
    endDate: timestamp('end_date', { withTimezone: true }).notNull(),
    periodNo: integer('period_no').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One subscription per subscriber and creator that may still renew or be renewed.
    uniqueIndex('subscriptions_one_enabled_idx').on(t.subscriberId, t.creatorId).where(sql`${t.state} = 'enabled'`),
    // The renewal job's queue: due, enabled, auto-renewing.
    index('subscriptions_due_idx').on(t.endDate, t.id).where(sql`${t.state} = 'enabled' and ${t.autoRenew}`),
    index('subscriptions_subscriber_idx').on(t.subscriberId, t.id),
    index('subscriptions_creator_idx').on(t.creatorId, t.endDate),
    index('subscriptions_plan_idx').on(t.planId),
    check('subscriptions_period_no_positive', sql`${t.periodNo} >= 1`),
  ],
);

/** What happened to a subscription (spec: history of category, detail, entry_date). */
export const subscriptionHistory = pgTable(
  'subscription_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).notNull().references(() => subscriptions.id, { onDelete: 'cascade' }),
    category: text('category', { enum: ['SUBSCRIBED', 'RENEWED', 'RENEWAL_FAILED', 'AUTO_RENEW_ON', 'CANCELLED', 'PLAN_DELETED', 'EXPIRED'] }).notNull(),
    detail: text('detail').notNull(),
    transferId: bigint('transfer_id', { mode: 'number' }).references(() => ledgerTransfers.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscription_history_subscription_idx').on(t.subscriptionId, t.id)],
);


/**
 * A plan paid on a processor's page (decision 0059): the payment buys the plan's coins, and its settlement
 * takes the subscription from them. `state`: pending until the payment is credited; then subscribed, or
 * kept (the coins stay in the wallet, `outcome` says why); unpaid when the payment did not go through.
 */
export const planCheckouts = pgTable(
  'plan_checkouts',
  {
    paymentId: bigint('payment_id', { mode: 'number' }).primaryKey().references(() => payments.id, { onDelete: 'cascade' }),
    subscriberId: bigint('subscriber_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    creatorId: bigint('creator_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    planId: bigint('plan_id', { mode: 'number' }).notNull().references(() => subscriptionPlans.id, { onDelete: 'cascade' }),
    /** Coins: the plan's price when the payer chose it, which is what the payment buys. */
    price: integer('price').notNull(),
    autoRenew: boolean('auto_renew').notNull(),
    state: text('state', { enum: ['pending', 'subscribed', 'kept'] }).notNull().default('pending'),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).references(() => subscriptions.id, { onDelete: 'set null' }),
    outcome: text('outcome'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [index('plan_checkouts_subscriber_idx').on(t.subscriberId)],
);

/** A rule of common/rules/plan-offers.ts written into a constraint (DDL takes no parameters). */
const RULE = (value: number | string) => sql.raw(String(value));
const PERCENT = sql`${RULE(OFFER_RULES.percent.min)} and ${RULE(OFFER_RULES.percent.max)}`;

/**
 * A creator's offer on one of their plans (decision 0089): a free trial of `days`, `percent` off the
 * first period, or a bundle of `months` paid at once at `percent` off. It can be taken until `ends_at`
 * (limit in time) by at most `max_claims` fans (limit in count); `claims` counts those who took it and
 * moves in the transaction that writes the subscription, guarded by the limit. A fan reaches it by its
 * link, `/offer/<code>`.
 */
export const planOffers = pgTable(
  'plan_offers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull().unique(),
    planId: bigint('plan_id', { mode: 'number' }).notNull().references(() => subscriptionPlans.id, { onDelete: 'cascade' }),
    creatorId: bigint('creator_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: OFFER_KINDS }).notNull(),
    days: integer('days'),
    percent: integer('percent'),
    months: integer('months'),
    maxClaims: integer('max_claims'),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    claims: integer('claims').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [
    index('plan_offers_creator_idx').on(t.creatorId, t.id),
    index('plan_offers_plan_idx').on(t.planId),
    check('plan_offers_claims_within_limit', sql`${t.claims} >= 0 and (${t.maxClaims} is null or ${t.claims} <= ${t.maxClaims})`),
    check('plan_offers_shape', sql`(${t.kind} = 'trial' and ${t.days} between ${RULE(OFFER_RULES.trialDays.min)} and ${RULE(OFFER_RULES.trialDays.max)} and ${t.percent} is null and ${t.months} is null)
      or (${t.kind} = 'discount' and ${t.percent} between ${PERCENT} and ${t.days} is null and ${t.months} is null)
      or (${t.kind} = 'bundle' and ${t.months} in (${RULE(OFFER_RULES.bundleMonths.join(', '))}) and ${t.percent} between ${PERCENT} and ${t.days} is null)`),
  ],
);

/**
 * A fan's taking of an offer, written with the subscription it started (and the ledger transfer of its
 * first period, when that costs coins). `idempotency_key` is the subscribe key (scoped to the fan): a
 * retry answers the same subscription. A fan takes an offer once; a trial or a discount of a creator's at most once.
 */
export const offerClaims = pgTable(
  'offer_claims',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    offerId: bigint('offer_id', { mode: 'number' }).notNull().references(() => planOffers.id, { onDelete: 'cascade' }),
    creatorId: bigint('creator_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    subscriberId: bigint('subscriber_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: OFFER_KINDS }).notNull(),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).notNull().references(() => subscriptions.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** Coins paid for the first period (0 for a trial). */
    price: integer('price').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('offer_claims_once_idx').on(t.offerId, t.subscriberId),
    uniqueIndex('offer_claims_key_idx').on(t.subscriberId, t.idempotencyKey),
    // One introductory offer (a trial or a discount) per fan and creator.
    uniqueIndex('offer_claims_introductory_idx').on(t.creatorId, t.subscriberId).where(sql`${t.kind} in ('trial', 'discount')`),
  ],
);
