/** The tax form's service (decision 0062): what a creator gave, the tax id sealed, shown masked. */
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { saveTaxInfoInput, TaxInfo } from '../../../common/api/statements';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { appError, badRequest } from '../../platform/http/errors';
import type { TaxIdCipher } from './tax-crypto';
import { taxInformation } from './tables';

export type TaxInfoFields = z.output<typeof saveTaxInfoInput>;

/** "•••• 6789": the last four characters, which is all any page or answer shows. */
export const maskTaxId = (last4: string) => `•••• ${last4}`;

export function createTaxInfoService(deps: { db: Db; cipher: TaxIdCipher | null; countryCodes: () => Promise<ReadonlySet<string>> }) {
  const { db } = deps;
  const cipher = () => {
    if (!deps.cipher) throw appError('unavailable', MSG.taxInfoUnavailable);
    return deps.cipher;
  };
  const read = async (userId: number): Promise<TaxInfo | null> => {
    const [row] = await db.select().from(taxInformation).where(eq(taxInformation.userId, userId));
    if (!row) return null;
    return {
      legal_name: row.legalName, entity_type: row.entityType, country: row.country, tax_id_masked: maskTaxId(row.taxIdLast4),
      address_line1: row.addressLine1, address_line2: row.addressLine2, city: row.city, region: row.region, postal_code: row.postalCode,
      updated_at: row.updatedAt.toISOString(),
    };
  };
  return {
    /** What the user gave, the tax id masked; null before the form is filled. */
    read,

    async save(userId: number, fields: TaxInfoFields): Promise<TaxInfo> {
      const sealer = cipher();
      if (!(await deps.countryCodes()).has(fields.country)) throw badRequest(MSG.countryRequired, 'country');
      const values = {
        legalName: fields.legal_name, entityType: fields.entity_type, country: fields.country,
        taxIdSealed: sealer.seal(userId, fields.tax_id), taxIdLast4: fields.tax_id.slice(-4),
        addressLine1: fields.address_line1, addressLine2: fields.address_line2 || null, city: fields.city,
        region: fields.region || null, postalCode: fields.postal_code || null, updatedAt: new Date(),
      };
      await db.insert(taxInformation).values({ userId, ...values }).onConflictDoUpdate({ target: taxInformation.userId, set: values });
      return (await read(userId))!;
    },

    /** True when the user has filled the tax form: payouts wait for it. */
    async complete(userId: number): Promise<boolean> {
      const [row] = await db.select({ userId: taxInformation.userId }).from(taxInformation).where(eq(taxInformation.userId, userId));
      return row !== undefined;
    },

    /** The tax id itself, opened: for year-end filings only, never an HTTP answer or a log line. */
    async taxIdOf(userId: number): Promise<string | null> {
      const [row] = await db.select({ sealed: taxInformation.taxIdSealed }).from(taxInformation).where(eq(taxInformation.userId, userId));
      return row ? cipher().open(userId, row.sealed) : null;
    },
  };
}
export type TaxInfoService = ReturnType<typeof createTaxInfoService>;
