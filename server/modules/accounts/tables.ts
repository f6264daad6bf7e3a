import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { FIRST_USER_ID } from '../../../common/constants';

export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity({ startWith: FIRST_USER_ID }),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    prefix: text('prefix'),
    fullname: text('fullname').notNull().default(''),
    description: text('description').notNull().default(''),
    birthday: date('birthday', { mode: 'string' }),
    country: text('country').notNull().default(''),
    avatar: text('avatar'),
    /** Where text-message notifications go, in the international form (common/rules/phone.ts). */
    phone: text('phone'),
    /** When the person last confirmed being 18 or older for adult channels (remembered 43,200 minutes). */
    adultAgreedAt: timestamp('adult_agreed_at', { withTimezone: true }),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    termsAccepted: boolean('terms_accepted').notNull().default(false),
    broadcastKey: text('broadcast_key').notNull(),
    accountStatus: text('account_status', { enum: ['active', 'suspended', 'deleted'] }).notNull().default('active'),
    /** A suspension's end (null: until lifted) and the reason the person is told at sign-in. */
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
    suspensionReason: text('suspension_reason'),
    service: text('service').notNull().default('limelight'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Where the row stands in the order of changes to names and standing (the trigger of migration 0049 sets
     * it on every insert and on every change of username or account status, in commit order): a name index
     * catches up by reading the rows past the last number it has seen (decision 0075).
     */
    changeNo: bigint('change_no', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('users_change_no_idx').on(t.changeNo),
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_broadcast_key_idx').on(t.broadcastKey),
    index('users_username_trgm_idx').using('gin', sql`lower(${t.username}) gin_trgm_ops`),
    // Byte-ordered, so a prefix search is an index range scan in name order (search-user).
    index('users_username_c_idx').on(sql`(lower(${t.username}) collate "C")`),
  ],
);

export const userPermissions = pgTable(
  'user_permissions',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    perm: text('perm').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.perm] })],
);

export const interests = pgTable('interests', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull().unique(),
});

export const userInterests = pgTable(
  'user_interests',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    interestId: integer('interest_id')
      .notNull()
      .references(() => interests.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.interestId] })],
);

/** Password recovery: one live code per user, stored hashed, with an expiry and a count of wrong tries. */
export const recoveryCodes = pgTable('recovery_codes', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Preferences of spec part 1 §3: the 18+ filter and the notification switches. */
export const userPreferences = pgTable('user_preferences', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  streamShow18plus: boolean('stream_show_18plus').notNull().default(false),
  notifyStreamStart: boolean('notify_stream_start').notNull().default(true),
  notifyNewFollower: boolean('notify_new_follower').notNull().default(true),
  notifyStreamShare: boolean('notify_stream_share').notNull().default(true),
  notifyDailyStats: boolean('notify_daily_stats').notNull().default(false),
  notifyChat: boolean('notify_chat').notNull().default(true),
  notifyViaEmail: boolean('notify_via_email').notNull().default(true),
  notifyViaPush: boolean('notify_via_push').notNull().default(true),
  notifyViaText: boolean('notify_via_text').notNull().default(false),
});

/** An account's link to a social sign-in provider (the provider's subject identifier). */
export const socialIdentities = pgTable(
  'social_identities',
  {
    provider: text('provider', { enum: ['google', 'apple', 'facebook'] }).notNull(),
    subject: text('subject').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index('social_identities_user_idx').on(t.userId)],
);

/** An OAuth / OpenID Connect sign-in in flight: state, nonce and PKCE verifier, until the callback. */
export const oauthFlows = pgTable('oauth_flows', {
  state: text('state').primaryKey(),
  provider: text('provider', { enum: ['google', 'apple', 'facebook'] }).notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  skin: text('skin').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * A verified social identity without an account yet: the ticket (stored hashed) lets the browser
 * finish sign-up ("More Info Needed") without the provider's tokens ever reaching it.
 */
export const socialTickets = pgTable('social_tickets', {
  ticketHash: text('ticket_hash').primaryKey(),
  provider: text('provider', { enum: ['google', 'apple', 'facebook'] }).notNull(),
  subject: text('subject').notNull(),
  email: text('email'),
  name: text('name'),
  /** The hash of the secret kept in the cookie of the browser that finished the flow: only it redeems the ticket. */
  binderHash: text('binder_hash'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * A deleted account's personal data, kept for the privacy text's three months and then purged. The
 * users row itself stays as an anonymous shell (the ledger's wallets refer to it and are never deleted).
 */
export const accountArchives = pgTable(
  'account_archives',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    email: text('email').notNull(),
    prefix: text('prefix'),
    fullname: text('fullname').notNull(),
    description: text('description').notNull(),
    birthday: date('birthday', { mode: 'string' }),
    country: text('country').notNull(),
    service: text('service').notNull(),
    accountCreatedAt: timestamp('account_created_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull(),
    purgeAfter: timestamp('purge_after', { withTimezone: true }).notNull(),
  },
  (t) => [index('account_archives_purge_idx').on(t.purgeAfter)],
);

/** A required reference to a user under the given column name; the row goes with the account. */
export const userRef = (column: string) =>
  bigint(column, { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
