import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const countries = pgTable('countries', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
});

export const systemMessages = pgTable('system_messages', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  title: text('title').notNull(),
  /** HTML written by administrators. */
  content: text('content').notNull(),
  frequency: text('frequency', { enum: ['once', 'always'] }).notNull().default('once'),
  locale: text('locale').notNull().default('en'),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
