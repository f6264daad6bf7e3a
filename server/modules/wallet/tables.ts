import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { userRef } from '../accounts/tables';
import { ledgerTransfers } from '../ledger/tables';

/** What a viewer can buy coins in: a price in cents of `currency` for `coins` coins. */
export const coinPackages = pgTable(
  'coin_packages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    coins: integer('coins').notNull(),
    /** Cents. */
    price: integer('price').notNull(),
    currency: text('currency', { enum: ['USD', 'CAD'] }).notNull(),
    active: boolean('active').notNull().default(true),
  },
  (t) => [uniqueIndex('coin_packages_name_idx').on(t.name), check('coin_packages_positive', sql`${t.coins} > 0 and ${t.price} > 0`)],
);

/** Impressions a broadcaster can buy with coins to be featured (Get Popular). */
export const impressionPackages = pgTable(
  'impression_packages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    impressions: integer('impressions').notNull(),
    /** Whole coins. */
    price: integer('price').notNull(),
    currency: text('currency', { enum: ['CON'] }).notNull().default('CON'),
    active: boolean('active').notNull().default(true),
  },
  (t) => [uniqueIndex('impression_packages_name_idx').on(t.name), check('impression_packages_positive', sql`${t.impressions} > 0 and ${t.price} > 0`)],
);

/** A saved card: the provider's token and what may be shown, never the number. */
export const paymentCards = pgTable(
  'payment_cards',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: userRef('user_id'),
    provider: text('provider').notNull(),
    token: text('token').notNull(),
    /** The provider's customer the card is kept on, when charging it needs one (Stripe's `cus_…`). */
    customer: text('customer'),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('payment_cards_user_idx').on(t.userId), uniqueIndex('payment_cards_token_idx').on(t.provider, t.token)],
);

/**
 * A charge at the payment provider and what became of it. The provider's reference is unique, so a
 * webhook delivered twice settles once; the coins arrive through the ledger transfer it points to.
 * With a hosted provider (decision 0055) the reference is the checkout's, and the payer is sent to the
 * provider's page until `expiresAt`; the reconcile job asks the provider about it after that.
 */
export const payments = pgTable(
  'payments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: userRef('user_id'),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref').notNull(),
    packageId: bigint('package_id', { mode: 'number' }).notNull().references(() => coinPackages.id),
    /** Cents of `currency`. */
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: ['USD', 'CAD'] }).notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'declined', 'failed', 'expired'] }).notNull(),
    /** card, paypal, bitcoin. */
    method: text('method', { enum: ['card', 'paypal', 'bitcoin'] }).notNull().default('card'),
    /** The provider's id of the money taken when it is not the checkout's (Stripe's PaymentIntent): what refunds name. */
    paymentRef: text('payment_ref'),
    /** Hosted checkouts: the provider's page, and when it stops taking the payment. */
    redirectUrl: text('redirect_url'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The reconcile job's lease: no instance asks the provider about this payment again before it. */
    reconcileAfter: timestamp('reconcile_after', { withTimezone: true }),
    /** Cents gone back so far (refunds, and disputes the bank took), and the receipt's mailing (once). */
    refundedCents: integer('refunded_cents').notNull().default(0),
    receiptSentAt: timestamp('receipt_sent_at', { withTimezone: true }),
    failure: text('failure'),
    transferId: bigint('transfer_id', { mode: 'number' }).references(() => ledgerTransfers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** The recurring coin package and period this charge renews, when it does (null for a one-off deposit). */
    coinSubscriptionId: bigint('coin_subscription_id', { mode: 'number' }).references(() => coinSubscriptions.id, { onDelete: 'restrict' }),
    periodNo: integer('period_no'),
    /** The card charged, as its last four digits and expiry ('4242:12/2030'): accounts paying with one card are one person to the referral programme. */
    cardKey: text('card_key'),
    /** The payer's address at the attempt (deposits through the site; null for renewals): deposits per address per day (decision 0058). */
    clientAddress: text('client_address'),
    /** The risk score the deposit was given (0–100), when it was asked (not for renewals). */
    riskScore: integer('risk_score'),
  },
  (t) => [
    uniqueIndex('payments_provider_ref_idx').on(t.provider, t.providerRef),
    index('payments_card_key_idx').on(t.cardKey).where(sql`${t.cardKey} is not null`),
    index('payments_client_address_idx').on(t.clientAddress, t.createdAt).where(sql`${t.clientAddress} is not null`),
    index('payments_user_idx').on(t.userId, t.id),
    index('payments_reconcile_idx').on(t.reconcileAfter, t.id).where(sql`${t.status} = 'pending' and ${t.reconcileAfter} is not null`),
    // A recurring package's period is charged once, whoever runs the renewal.
    uniqueIndex('payments_coin_subscription_period_idx').on(t.coinSubscriptionId, t.periodNo).where(sql`${t.coinSubscriptionId} is not null`),
  ],
);

/**
 * A recurring coin package (spec: coin subscription): the package bought again on a saved card at the
 * start of every month until cancelled. Cancelling goes by an e-mailed request that support applies.
 */
export const coinSubscriptions = pgTable(
  'coin_subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: userRef('user_id'),
    packageId: bigint('package_id', { mode: 'number' }).notNull().references(() => coinPackages.id),
    /** Null until a hosted checkout's first payment says which card the provider kept. */
    cardId: bigint('card_id', { mode: 'number' }).references(() => paymentCards.id),
    /** Cents of `currency` per period: the package's price when bought. */
    salePrice: integer('sale_price').notNull(),
    currency: text('currency', { enum: ['USD', 'CAD'] }).notNull(),
    state: text('state', { enum: ['enabled', 'cancelled'] }).notNull().default('enabled'),
    startDate: timestamp('start_date', { withTimezone: true }).notNull(),
    /** The end of the paid period. */
    expiryDate: timestamp('expiry_date', { withTimezone: true }).notNull(),
    periodNo: integer('period_no').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('coin_subscriptions_user_idx').on(t.userId, t.id),
    index('coin_subscriptions_due_idx').on(t.expiryDate, t.id).where(sql`${t.state} = 'enabled'`),
  ],
);

/**
 * Every event a hosted provider delivered (decision 0055), once by its id: a replayed delivery finds
 * its row and moves nothing. An event about a payment that has not succeeded yet (a refund seen before
 * the payment) stays unprocessed and is applied when the payment succeeds; hence the fields kept.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    provider: text('provider').notNull(),
    /** The provider's id of the event; one delivery may say several things (each refund of a charge): `<id>#<n>`. */
    eventId: text('event_id').notNull(),
    kind: text('kind').notNull(),
    providerRef: text('provider_ref').notNull(),
    subjectRef: text('subject_ref'),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => payments.id),
    amountCents: integer('amount_cents'),
    won: boolean('won'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** What applying it did: applied, ignored, deferred (waiting for its payment). */
    outcome: text('outcome'),
  },
  (t) => [
    uniqueIndex('payment_events_provider_event_idx').on(t.provider, t.eventId),
    index('payment_events_waiting_idx').on(t.paymentId).where(sql`${t.processedAt} is null`),
  ],
);
