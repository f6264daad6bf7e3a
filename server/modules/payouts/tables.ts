import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { OPEN_PAYOUT_STATES, PAYOUT_METHODS, PAYOUT_STATES } from '../../../common/api/payouts';
import { users } from '../accounts/tables';

const openStates = sql.raw(OPEN_PAYOUT_STATES.map((s) => `'${s}'`).join(', '));

/** How a creator is paid: the method's onboarding, done when `completed_at` is set. */
export const payoutMethods = pgTable('payout_methods', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  method: text('method', { enum: PAYOUT_METHODS }).notNull(),
  accountHolder: text('account_holder').notNull(),
  /** The bank account number or IBAN: shown only as its last four, written whole only into the bank export. */
  accountNumber: text('account_number').notNull(),
  bankName: text('bank_name').notNull(),
  country: text('country').notNull(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A bank-transfer export: the approved requests handed to the bank in one file. */
export const payoutBatches = pgTable('payout_batches', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A payout request. Its coins left the wallet for the `payouts` account when it was made (ledger key
 * `payout:<id>:hold`); paid, they leave for `paid-out` (`payout:<id>:paid`); rejected or failed, they go
 * back (`payout:<id>:returned`). Each move commits with the state change it belongs to.
 */
export const payoutRequests = pgTable(
  'payout_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'restrict' }),
    coins: bigint('coins', { mode: 'number' }).notNull(),
    usdCents: bigint('usd_cents', { mode: 'number' }).notNull(),
    method: text('method', { enum: PAYOUT_METHODS }).notNull(),
    state: text('state', { enum: PAYOUT_STATES }).notNull().default('requested'),
    reason: text('reason'),
    automatic: boolean('automatic').notNull().default(false),
    /** `<user>:<Idempotency-Key>` for a creator's request, `auto:<user>:<run>` for a scheduled one. */
    requestKey: text('request_key').notNull(),
    batchId: bigint('batch_id', { mode: 'number' }).references(() => payoutBatches.id),
    /** Why an operator must look at it: the processor paid a payout already failed here (decision 0064). */
    attention: text('attention'),
    /** A processor's payout: Stripe's transfer, PayPal's payout batch, once known. */
    processorRef: text('processor_ref'),
    /** A request `sent` to a processor is asked about again from then (the reconcile job's lease). */
    reconcileAfter: timestamp('reconcile_after', { withTimezone: true }),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payout_requests_key_idx').on(t.requestKey),
    // One open request per creator: a second one waits for the first's commit and is refused.
    uniqueIndex('payout_requests_one_open_idx').on(t.userId).where(sql`${t.state} in (${openStates})`),
    index('payout_requests_user_idx').on(t.userId, t.id),
    index('payout_requests_state_idx').on(t.state, t.id),
    index('payout_requests_reconcile_idx').on(t.reconcileAfter).where(sql`${t.state} in ('approved', 'sent')`),
    check('payout_requests_coins_positive', sql`${t.coins} > 0 and ${t.usdCents} > 0`),
  ],
);

/** Automatic payouts: the creator's schedule, when it next runs, and the lease of the run claiming it. */
export const payoutSchedules = pgTable(
  'payout_schedules',
  {
    userId: bigint('user_id', { mode: 'number' }).primaryKey().references(() => users.id, { onDelete: 'cascade' }),
    schedule: text('schedule', { enum: ['weekly', 'monthly'] }).notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
  },
  (t) => [index('payout_schedules_due_idx').on(t.nextRunAt)],
);

/**
 * A creator's Stripe Express account (decision 0063): made once per creator, kept if they switch methods.
 * `payouts_enabled` and `details_submitted` are what Stripe last said (`account.updated`, or asked).
 */
export const stripeConnectAccounts = pgTable('stripe_connect_accounts', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  accountId: text('account_id').notNull().unique(),
  detailsSubmitted: boolean('details_submitted').notNull().default(false),
  payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
