import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { REFERRAL_TYPES } from '../../../common/api/referrals';
import { userRef } from '../accounts/tables';

/** A referral link: its code, programme and campaign (spec part 1 §3 Referral links). */
export const referralCodes = pgTable(
  'referral_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    ownerId: userRef('owner_id'),
    /** What the link carries: `?referralCode=<code>`; random, never guessable from the owner. */
    code: text('code').notNull(),
    type: text('type', { enum: REFERRAL_TYPES }).notNull(),
    /** Null for a programme's own link. */
    campaign: text('campaign'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('referral_codes_code_idx').on(t.code),
    uniqueIndex('referral_codes_owner_campaign_idx').on(t.ownerId, t.type, sql`coalesce(${t.campaign}, '')`),
  ],
);

/** A person who signed up through a link, credited once (first touch) to its owner. */
export const referralAttributions = pgTable(
  'referral_attributions',
  {
    referredId: userRef('referred_id').primaryKey(),
    codeId: bigint('code_id', { mode: 'number' }).notNull().references(() => referralCodes.id, { onDelete: 'cascade' }),
    referrerId: userRef('referrer_id'),
    referredAt: timestamp('referred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('referral_attributions_referrer_idx').on(t.referrerId, t.referredAt), index('referral_attributions_code_idx').on(t.codeId, t.referredAt)],
);

/** A settlement period once settled (by one instance: the row is its claim). */
export const referralSettlements = pgTable('referral_settlements', {
  periodStart: timestamp('period_start', { withTimezone: true }).primaryKey(),
  periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
  settledAt: timestamp('settled_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A referred person's base and the commission it earned the referrer in one settled period. */
export const referralCommissions = pgTable(
  'referral_commissions',
  {
    periodStart: timestamp('period_start', { withTimezone: true }).notNull().references(() => referralSettlements.periodStart),
    referredId: bigint('referred_id', { mode: 'number' }).notNull(),
    referrerId: userRef('referrer_id'),
    codeId: bigint('code_id', { mode: 'number' }).notNull(),
    type: text('type', { enum: REFERRAL_TYPES }).notNull(),
    /** The platform fees taken on what the referred person earned (AGENT) or spent (INFLUENCER) in the period, pairs that earn nothing left out (decision 0036). */
    base: bigint('base', { mode: 'number' }).notNull(),
    /** The referrer's commission: base × the programme's share of the fee, rounded down; never more than the base. */
    earned: bigint('earned', { mode: 'number' }).notNull(),
    /** The ledger transfer that paid the referrer this period's commissions (null when they came to 0). */
    transferId: bigint('transfer_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.periodStart, t.referredId] }),
    index('referral_commissions_referrer_idx').on(t.referrerId, t.periodStart),
    check('referral_commissions_amounts', sql`${t.base} >= 0 and ${t.earned} >= 0`),
  ],
);
