import { pgTable, bigint, check, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from '../accounts/tables';

/**
 * A creator's tax information (decision 0062): one row a user, written by the tax form. The tax id is
 * kept only sealed with AES-256-GCM under TAX_DATA_KEY (`tax-crypto.ts`); its last four characters
 * are kept apart, so pages show it masked without opening it.
 */
export const taxInformation = pgTable(
  'tax_information',
  {
    userId: bigint('user_id', { mode: 'number' }).primaryKey().references(() => users.id, { onDelete: 'cascade' }),
    legalName: text('legal_name').notNull(),
    entityType: text('entity_type', { enum: ['individual', 'business'] }).notNull(),
    country: text('country').notNull(),
    /** `v1.<iv>.<ciphertext>.<tag>` (base64url), bound to the user id: never the id itself. */
    taxIdSealed: text('tax_id_sealed').notNull(),
    taxIdLast4: text('tax_id_last4').notNull(),
    addressLine1: text('address_line1').notNull(),
    addressLine2: text('address_line2'),
    city: text('city').notNull(),
    region: text('region'),
    postalCode: text('postal_code'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('tax_information_sealed_shape', sql`${t.taxIdSealed} like 'v1.%'`)],
);
