import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    termsAccepted: boolean('terms_accepted').notNull().default(false),
    broadcastKey: text('broadcast_key').notNull(),
    accountStatus: text('account_status', { enum: ['active', 'suspended'] }).notNull().default('active'),
    service: text('service').notNull().default('limelight'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_broadcast_key_idx').on(t.broadcastKey),
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
