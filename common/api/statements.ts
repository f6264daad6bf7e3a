/**
 * Tax information and earnings statements (decision 0062): the tax form a creator fills before being
 * paid out, and their monthly statement and year's summary read from the books. Amounts are coins; the
 * statement says what they are in US dollars at COINS_PER_USD.
 */
import { z } from 'zod';
import { ANALYTICS } from '../constants';
import { fill, MSG } from '../messages';
import { EARNING_KINDS, TRANSFER_KINDS } from '../rules/transfer-kinds';
import { defineCall, success } from './define';
import { numeric, oneOf, optionalText, requiredText, userId } from './fields';

export const ENTITY_TYPES = ['individual', 'business'] as const;

/** Separators people write in tax ids; what is kept is its letters and digits, upper case. */
const TAX_ID_SEPARATORS = /[\s.\-/]/g;
const taxIdField = z.string({ error: MSG.taxIdInvalid }).max(40, MSG.taxIdInvalid)
  .transform((text) => text.replace(TAX_ID_SEPARATORS, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{5,20}$/, MSG.taxIdInvalid));

export const saveTaxInfoInput = z.strictObject({
  legal_name: requiredText(fill(MSG.fieldRequired, { field: 'Legal name' }), 200),
  entity_type: z.enum(ENTITY_TYPES, { error: oneOf(ENTITY_TYPES) }),
  /** ISO 3166-1 alpha-2, as the countries call lists them. */
  country: z.string({ error: MSG.countryRequired }).trim().toUpperCase().regex(/^[A-Z]{2}$/, MSG.countryRequired),
  tax_id: taxIdField,
  address_line1: requiredText(fill(MSG.fieldRequired, { field: 'Street address' }), 200),
  address_line2: optionalText(200),
  city: requiredText(fill(MSG.fieldRequired, { field: 'City' }), 100),
  region: optionalText(100),
  postal_code: optionalText(20),
}).meta({ examples: [{ legal_name: 'Ada Lovelace', entity_type: 'individual', country: 'US', tax_id: '123-45-6789', address_line1: '1 Main Street', city: 'Springfield', region: 'IL', postal_code: '62701' }] });

/** What is shown of saved tax information: never the tax id, only its last four characters. */
export const taxInfo = z.object({
  legal_name: z.string(),
  entity_type: z.enum(ENTITY_TYPES),
  country: z.string(),
  /** "•••• 6789" */
  tax_id_masked: z.string(),
  address_line1: z.string(),
  address_line2: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  postal_code: z.string().nullable(),
  updated_at: z.string(),
});
export type TaxInfo = z.infer<typeof taxInfo>;

const taxInfoAnswer = success({ user_id: z.number(), tax_info: taxInfo.nullable() });

export const getTaxInfo = defineCall({
  method: 'GET',
  path: '/api/user/tax-info',
  summary: "The caller's tax information, the tax id masked (an administrator may read anyone's); null before the form is filled",
  refusals: [403, 503],
  input: z.strictObject({ user_id: userId.optional() }),
  output: taxInfoAnswer,
});

export const saveTaxInfo = defineCall({
  method: 'POST',
  path: '/api/user/tax-info-update',
  summary: 'Saves the caller\'s tax information (legal name, entity type, country, tax id, address); the tax id is kept encrypted',
  refusals: [503],
  input: saveTaxInfoInput,
  output: taxInfoAnswer,
});

const first = ANALYTICS.firstDay.slice(0, 4);
const last = ANALYTICS.lastDay.slice(0, 4);
const monthMessage = fill(MSG.statementMonth, { first: `${first}-01`, last: `${last}-12` });
export const monthField = z.string({ error: monthMessage }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, monthMessage)
  .refine((text) => text.slice(0, 4) >= first && text.slice(0, 4) <= last, monthMessage);
const yearMessage = fill(MSG.wholeNumberRange, { min: first, max: last });
const yearField = numeric(z.number({ error: yearMessage }).int(yearMessage).min(Number(first), yearMessage).max(Number(last), yearMessage));

export const statementInput = z.strictObject({ month: monthField, user_id: userId.optional() })
  .meta({ examples: [{ month: '2026-11' }] });

const kind = z.enum(TRANSFER_KINDS);
/** Coins earned of one kind: what payers paid (gross), the platform's fee, and what reached the wallet (net). */
const earningLine = z.object({ kind: z.enum(EARNING_KINDS), transfers: z.number(), gross: z.number(), fees: z.number(), net: z.number() });
/** Payouts (every kind named `payout…`): coins that left the wallet to the creator, less any returned. */
const payoutLine = z.object({ kind, transfers: z.number(), coins: z.number() });
/** Every other movement of the wallet: coins bought, spent, refunded, granted. */
const otherLine = z.object({ kind, transfers: z.number(), coins_in: z.number(), coins_out: z.number() });
const totals = z.object({ gross: z.number(), fees: z.number(), net: z.number(), payouts: z.number(), other_net: z.number() });

export const statement = z.object({
  user_id: z.number(),
  username: z.string(),
  /** The period: from the first instant of `from` to the first of the next month (UTC), `to` excluded. */
  month: z.string(),
  from: z.string(),
  to: z.string(),
  coins_per_usd: z.number(),
  /** Coins in the wallet at the start and the end of the period: opening + net − payouts + other_net = closing. */
  opening_balance: z.number(),
  closing_balance: z.number(),
  earnings: z.array(earningLine),
  payouts: z.array(payoutLine),
  other: z.array(otherLine),
  totals,
  /** Now, for a month that has not ended: the figures are up to this instant. */
  as_of: z.string(),
});
export type Statement = z.infer<typeof statement>;

export const monthlyStatement = defineCall({
  method: 'GET',
  path: '/api/user/earnings-statement',
  summary: "A creator's statement of a month (UTC): earnings by kind, fees taken, payouts, other movements, opening and closing balance",
  refusals: [403],
  input: statementInput,
  output: success({ statement }),
});

/** The CSV of a month's statement (a file download, not a JSON call: registered by the statements module). */
export const STATEMENT_CSV_PATH = '/api/user/earnings-statement.csv';

const yearMonth = z.object({ month: z.string(), opening_balance: z.number(), closing_balance: z.number(), ...totals.shape });

export const yearSummary = defineCall({
  method: 'GET',
  path: '/api/user/earnings-year',
  summary: "A creator's year (UTC) for taxes: each month's totals, and the year's earnings by kind, fees and payouts",
  refusals: [403],
  input: z.strictObject({ year: yearField, user_id: userId.optional() }).meta({ examples: [{ year: 2026 }] }),
  output: success({
    summary: z.object({
      user_id: z.number(),
      username: z.string(),
      year: z.number(),
      coins_per_usd: z.number(),
      opening_balance: z.number(),
      closing_balance: z.number(),
      months: z.array(yearMonth),
      earnings: z.array(earningLine),
      payouts: z.array(payoutLine),
      totals,
      as_of: z.string(),
    }),
  }),
});

