/** Reusable bounded field schemas: every string trimmed and capped, numbers read from their decimal writing. */
import { z } from 'zod';
import { ANALYTICS, LIMITS } from '../constants';
import { fill, MSG } from '../messages';
import { birthdayProblem } from '../rules/birthday';
import { normalisePhone, PHONE_MAX_INPUT } from '../rules/phone';
import { SKIN_IDS } from '../skins';

const DECIMAL = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * A number, also from its plain decimal writing ("12", "-3.5") as query strings and forms send it. Unlike
 * z.coerce, hex ("0x10"), exponents, blanks, booleans and null stay what they are and meet the schema's
 * own refusal.
 */
export function numeric<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value), schema);
}

/** The texts of two common refusals. */
export const atMost = (max: number) => fill(MSG.atMostChars, { max });
export const oneOf = (values: readonly string[]) => fill(MSG.mustBeOneOf, { values: values.join(', ') });

/** Required text: trimmed, non-empty (with the given message), at most `max` characters. */
export function requiredText(message: string, max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? message : MSG.mustBeText) })
    .trim()
    .min(1, message)
    .max(max, atMost(max));
}

export function optionalText(max: number) {
  return z.string({ error: MSG.mustBeText }).trim().max(max, atMost(max)).optional();
}

/** A phone number in the international form (common/rules/phone.ts), stored normalised; '' clears it. */
export const phoneField = z
  .string({ error: MSG.mustBeText })
  .max(PHONE_MAX_INPUT, MSG.phoneInvalid)
  .transform((text, ctx) => {
    if (text.trim() === '') return '';
    const phone = normalisePhone(text);
    if (phone === null) {
      ctx.addIssue({ code: 'custom', message: MSG.phoneInvalid });
      return z.NEVER;
    }
    return phone;
  });

export const emailField = requiredText(MSG.emailRequired, LIMITS.email.max).pipe(z.email(MSG.emailInvalid));

export const userId = numeric(z.number({ error: MSG.mustBeUserId })
  .int(MSG.mustBeUserId)
  .positive(MSG.mustBeUserId)
  .max(Number.MAX_SAFE_INTEGER, MSG.mustBeUserId));

export const skinField = z.enum(SKIN_IDS, { error: oneOf(SKIN_IDS) });

/** Booleans sent as true/false, "Y"/"N", "true"/"false" or 1/0 by older clients. */
export const flag = z.union([
  z.boolean(),
  z.enum(['Y', 'N', 'true', 'false', '1', '0']).transform((v) => v === 'Y' || v === 'true' || v === '1'),
  z.literal(1).transform(() => true),
  z.literal(0).transform(() => false),
], { error: MSG.mustBeTrueOrFalse });

export const captchaField = z.string().max(LIMITS.captchaPayload.max).optional();

/** Sign-up fields shared by e-mail and social sign-up (spec part 1 §5). */
export const usernameField = requiredText(MSG.usernameRequired, LIMITS.username.max).pipe(
  z.string().regex(/^[A-Za-z0-9_.]{3,30}$/, MSG.usernameShape),
);

export const birthdayField = z
  .string({ error: (i) => (i.input === undefined ? MSG.birthdayRequired : MSG.mustBeText) })
  .max(10, MSG.birthdayInvalid)
  .superRefine((text, ctx) => {
    const problem = birthdayProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const countryField = requiredText(MSG.countryRequired, LIMITS.country.max);

export const termsField = flag.refine((v) => v === true, MSG.termsRequired);

/** A whole number from `min` to `max`, saying so when it is not. */
export function wholeNumber(min: number, max: number) {
  const message = fill(MSG.wholeNumberRange, { min, max });
  return numeric(z.number({ error: message }).int(message).min(min, message).max(max, message));
}

/** A day of the date picker's span (spec part 2 §2), written YYYY-MM-DD. */
export const dayField = z.string({ error: MSG.analyticsDay }).regex(/^\d{4}-\d{2}-\d{2}$/, MSG.analyticsDay)
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }, MSG.analyticsDay)
  .refine((text) => text >= ANALYTICS.firstDay && text <= ANALYTICS.lastDay, fill(MSG.analyticsDaySpan, { first: ANALYTICS.firstDay, last: ANALYTICS.lastDay }));
