/**
 * Social sign-in (Google, Apple, Facebook) over OAuth 2 / OpenID Connect. The browser goes to
 * GET /api/auth/{provider}/start and comes back through the callback, which signs in a linked
 * account or redirects to /user/login?social={ticket} ("More Info Needed" for a new one).
 */
import { z } from 'zod';
import { LIMITS } from '../constants';
import { MSG } from '../messages';
import { birthdayProblem } from '../rules/birthday';
import { sessionUser } from './accounts';
import { defineCall, success } from './define';
import { captchaField, flag, requiredText, skinField } from './fields';

export const SOCIAL_PROVIDERS = ['google', 'apple', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/** Special response codes of the spec (part 2 §8) on user-social-login. */
export const SOCIAL_CODES = {
  create: 'USER_NOT_EXIST_YOU_CAN_CREATE',
  emailExists: 'ARGS_INVALID_EMAIL_EXIST_DB',
} as const;

export const socialStartPath = (provider: SocialProvider) => `/api/auth/${provider}/start`;
export const socialCallbackPath = (provider: SocialProvider) => `/api/auth/${provider}/callback`;

const ticketInput = {
  type: z.enum(SOCIAL_PROVIDERS),
  /** The ticket from the callback redirect. */
  token: z.string().trim().min(1, 'token is required').max(LIMITS.token.max),
  service: skinField.optional(),
};

/**
 * Answers success with the signed-in user, or 409 USER_NOT_EXIST_YOU_CAN_CREATE with the provider's
 * email and a suggested username (the client then shows "More Info Needed").
 */
export const userSocialLogin = defineCall({
  method: 'POST',
  path: '/api/user/user-social-login',
  summary: 'Finish a social sign-in with the ticket of the callback',
  input: z.strictObject(ticketInput),
  output: success({ user: sessionUser }),
});

export const userFbLogin = defineCall({
  method: 'POST',
  path: '/api/user/user-fb-login',
  summary: 'Finish a Facebook sign-in with the ticket of the callback (same answers as user-social-login)',
  input: z.strictObject({ ...ticketInput, type: z.literal('facebook').optional() }),
  output: success({ user: sessionUser }),
});

/** Social sign-up completion ("More Info Needed"): username, birthday, country, terms. */
export const socialRegister = defineCall({
  method: 'POST',
  path: '/api/user/user-social-register',
  summary: 'Create the account of a verified social identity and sign it in',
  input: z.strictObject({
    social_media_type: z.enum(SOCIAL_PROVIDERS),
    social_media_token: z.string().trim().min(1).max(LIMITS.token.max),
    username: requiredText(MSG.usernameRequired, LIMITS.username.max).pipe(
      z.string().regex(/^[A-Za-z0-9_.]{3,30}$/, MSG.usernameShape),
    ),
    birthday: z
      .string({ error: (i) => (i.input === undefined ? MSG.birthdayRequired : 'Must be text') })
      .max(10, MSG.birthdayInvalid)
      .superRefine((text, ctx) => {
        const problem = birthdayProblem(text);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    country: requiredText(MSG.countryRequired, LIMITS.country.max),
    terms_accepted: flag.refine((v) => v === true, MSG.termsRequired),
    service: skinField.optional(),
    altcha: captchaField,
  }),
  output: success({ user_id: z.number(), user: sessionUser }),
});
