/** Reusable bounded field schemas: every string trimmed and capped, numbers coerced. */
import { z } from 'zod';
import { LIMITS } from '../constants';
import { MSG } from '../messages';
import { birthdayProblem } from '../rules/birthday';
import { SKIN_IDS } from '../skins';

/** Required text: trimmed, non-empty (with the given message), at most `max` characters. */
export function requiredText(message: string, max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? message : 'Must be text') })
    .trim()
    .min(1, message)
    .max(max, `Must be at most ${max} characters`);
}

export function optionalText(max: number) {
  return z.string({ error: 'Must be text' }).trim().max(max, `Must be at most ${max} characters`).optional();
}

export const emailField = requiredText(MSG.emailRequired, LIMITS.email.max).pipe(z.email(MSG.emailInvalid));

export const userId = z.coerce
  .number({ error: 'Must be a user id' })
  .int('Must be a user id')
  .positive('Must be a user id')
  .max(Number.MAX_SAFE_INTEGER, 'Must be a user id');

export const skinField = z.enum(SKIN_IDS, { error: `Must be one of ${SKIN_IDS.join(', ')}` });

/** Booleans sent as true/false, "Y"/"N", "true"/"false" or 1/0 by older clients. */
export const flag = z.union([
  z.boolean(),
  z.enum(['Y', 'N', 'true', 'false', '1', '0']).transform((v) => v === 'Y' || v === 'true' || v === '1'),
  z.literal(1).transform(() => true),
  z.literal(0).transform(() => false),
], { error: 'Must be true or false' });

export const captchaField = z.string().max(LIMITS.captchaPayload.max).optional();

/** Sign-up fields shared by e-mail and social sign-up (spec part 1 §5). */
export const usernameField = requiredText(MSG.usernameRequired, LIMITS.username.max).pipe(
  z.string().regex(/^[A-Za-z0-9_.]{3,30}$/, MSG.usernameShape),
);

export const birthdayField = z
  .string({ error: (i) => (i.input === undefined ? MSG.birthdayRequired : 'Must be text') })
  .max(10, MSG.birthdayInvalid)
  .superRefine((text, ctx) => {
    const problem = birthdayProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const countryField = requiredText(MSG.countryRequired, LIMITS.country.max);

export const termsField = flag.refine((v) => v === true, MSG.termsRequired);
