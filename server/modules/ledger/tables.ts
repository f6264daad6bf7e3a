import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../accounts/tables';
import { EARNING_KINDS, TRANSFER_KINDS, type TransferKind } from '../../../common/rules/transfer-kinds';

export const CURRENCIES = ['CON', 'IMP', 'USD', 'CAD'] as const;
export type Currency = (typeof CURRENCIES)[number];

/**
 * The system accounts that stand for the world outside the books (decision 0036): the mint issues coins
 * and impressions, the money-in accounts are what payers paid in (cards; invoices an operator recorded).
 * They alone go below zero: every other system account pays out only what was paid into it.
 */
export const ISSUER_ACCOUNTS = ['mint', 'card-payments', 'invoices'] as const;
/**
 * Where coins leave the platform (decision 0061): a paid payout retires its coins here from the
 * `payouts` holding account. It stands for the world outside like the issuers, but never goes below
 * zero: it gives back only a paid payout the bank sent back (the conservation check holds it to that).
 */
export const MONEY_OUT_ACCOUNTS = ['paid-out'] as const;
/** The system account a payout request's coins wait in until the payout is paid or they go back. */
export const PAYOUTS_HOLDING_ACCOUNT = 'payouts';
/** The outside accounts money comes in through, in real currencies. */
export const MONEY_IN_ACCOUNTS = ['card-payments', 'invoices'] as const;
export const MONEY_CURRENCIES = ['USD', 'CAD'] as const;
const issuerList = sql.raw(ISSUER_ACCOUNTS.map((name) => `'${name}'`).join(', '));

/**
 * What a user owes (decision 0057): coins a refund or a dispute took back that their wallet no longer
 * held, as the system account `debt:<user id>` in CON. It is a claim on the user, so its balance is
 * zero or below (minus what is owed); the coins it stands for were retired to the mint on credit.
 */
export const DEBT_PREFIX = 'debt:';
export const debtAccountName = (userId: number) => `${DEBT_PREFIX}${userId}` as const;

/**
 * Every place money sits: a user's wallet per currency, or a system account (mint, fees, sales,
 * card payments) per currency. System accounts carry the negative side: each currency sums to zero.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The wallet's owner; null for a system account. */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'restrict' }),
    /** A system account's name ('mint', 'fees', 'sales', 'card-payments', …); null for a wallet. */
    system: text('system'),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    /**
     * 0 is the account proper; 1…RECEIVING_SHARDS-1 take credits for a busy receiver (a broadcaster's
     * tips, the fees account) so concurrent payers do not queue on one row (decision 0012). Only
     * shard 0 is ever debited; the ledger sweeps the other shards into it when a debit needs them.
     */
    shard: smallint('shard').notNull().default(0),
    /** Whole coins (CON), impressions (IMP) or cents (USD, CAD). */
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('ledger_accounts_wallet_shard_idx').on(t.userId, t.currency, t.shard).where(sql`${t.userId} is not null`),
    uniqueIndex('ledger_accounts_system_shard_idx').on(t.system, t.currency, t.shard).where(sql`${t.system} is not null`),
    check('ledger_accounts_shard_range', sql`${t.shard} >= 0 and ${t.shard} < 64`),
    check('ledger_accounts_owner', sql`(${t.userId} is null) <> (${t.system} is null)`),
    // A user can never owe: the statement that would overdraw a wallet fails whole.
    check('ledger_accounts_wallet_not_negative', sql`${t.userId} is null or ${t.balance} >= 0`),
    // Nor can a system account that is not the outside world's: it pays only what it holds (decision 0036).
    // Debt accounts are claims on users: never funded, never in credit (decision 0057).
    check('ledger_accounts_system_funded', sql`${t.system} is null or ${t.system} in (${issuerList}) or ${t.system} like 'debt:%' or ${t.balance} >= 0`),
    check('ledger_accounts_debt_not_credit', sql`${t.system} is null or ${t.system} not like 'debt:%' or ${t.balance} <= 0`),
  ],
);

export { TRANSFER_KINDS, type TransferKind };

/** One movement of money: its entries sum to zero per currency. Written once, never changed. */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: TRANSFER_KINDS }).notNull(),
    /** A retried request with the same key finds this transfer and moves nothing. */
    idempotencyKey: text('idempotency_key').notNull(),
    /** Who paid and who was paid, when users are (for histories, supporters and owed tips). */
    fromUserId: bigint('from_user_id', { mode: 'number' }),
    toUserId: bigint('to_user_id', { mode: 'number' }),
    /** The stream a tip was for. */
    streamId: bigint('stream_id', { mode: 'number' }),
    /** What the payer gave, in `currency` (coins for a tip). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    /** Kind-specific facts: package id, fee, card's last four digits. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_transfers_key_idx').on(t.idempotencyKey),
    index('ledger_transfers_from_idx').on(t.fromUserId, t.id),
    index('ledger_transfers_to_idx').on(t.toUserId, t.id),
    // A viewer's tips on a stream (owed tips, spend): both indexes partial, so the planner weighs them alike.
    index('ledger_transfers_stream_tipper_idx').on(t.streamId, t.fromUserId).where(sql`${t.kind} = 'tip'`),
    // A stream's latest tips, for its chat history.
    index('ledger_transfers_stream_tips_idx').on(t.streamId, t.createdAt, t.id).where(sql`${t.kind} = 'tip'`),
    // Analytics folds new tips by time.
    index('ledger_transfers_tips_created_idx').on(t.createdAt).where(sql`${t.kind} = 'tip'`),
    // A user's earnings (what a payout may take): whether there are any is one probe of it (decision 0068).
    index('ledger_transfers_earned_idx').on(t.toUserId, t.createdAt).where(sql.raw(`kind in (${EARNING_KINDS.map((kind) => `'${kind}'`).join(', ')})`)),
  ],
);

/** The legs of a transfer: signed amounts on accounts. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transferId: bigint('transfer_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransfers.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [index('ledger_entries_transfer_idx').on(t.transferId), index('ledger_entries_account_idx').on(t.accountId, t.id)],
);

/**
 * A hold on a user's spending (decision 0057): opened by whoever has the reason (a dispute of one of
 * their deposits: `dispute:<provider>:<dispute id>`), released when it ends. While one is open, or
 * while the user's debt account is below zero, the ledger refuses every transfer that takes coins out
 * of their wallet, but a take-back (refunds, disputes) and the sweep of their own receiving shards.
 */
export const ledgerHolds = pgTable(
  'ledger_holds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id, { onDelete: 'restrict' }),
    reference: text('reference').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ledger_holds_reference_idx').on(t.reference),
    index('ledger_holds_open_idx').on(t.userId).where(sql`${t.releasedAt} is null`),
  ],
);
