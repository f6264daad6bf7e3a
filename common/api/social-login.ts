/**
 * Social sign-in (Google, Apple, Facebook) over OAuth 2 / OpenID Connect. The browser goes to
 * GET /api/auth/{provider}/start and comes back through the callback, which signs in a linked
 * account or redirects to /user/login?social={ticket} ("More Info Needed" for a new one).
 */
import { z } from 'zod';
import { LIMITS } from '../constants';
import type { ErrorCode } from '../errors';
import { MSG } from '../messages';
import { sessionUser } from './accounts';
import { defineCall, failureEnvelope, success } from './define';
import { birthdayField, captchaField, countryField, skinField, termsField, usernameField } from './fields';

export const SOCIAL_PROVIDERS = ['google', 'apple', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/** Special response codes of the spec (part 2 §8) on user-social-login. */
export const SOCIAL_CODES = {
  create: 'USER_NOT_EXIST_YOU_CAN_CREATE',
  emailExists: 'ARGS_INVALID_EMAIL_EXIST_DB',
} as const satisfies Record<string, ErrorCode>;

/**
 * `social_error` codes of the login page after a callback that could not sign in (additive to the
 * original contract); their texts are those of common/errors.ts.
 */
export const SOCIAL_ERRORS = {
  failed: 'SOCIAL_FAILED',
  emailExists: SOCIAL_CODES.emailExists,
  facebookEmailScope: 'FACEBOOK_EMAIL_SCOPE',
} as const satisfies Record<string, ErrorCode>;
export type SocialErrorCode = (typeof SOCIAL_ERRORS)[keyof typeof SOCIAL_ERRORS];

export const socialStartPath = (provider: SocialProvider) => `/api/auth/${provider}/start`;
export const socialCallbackPath = (provider: SocialProvider) => `/api/auth/${provider}/callback`;

const ticketInput = {
  type: z.enum(SOCIAL_PROVIDERS),
  /** The ticket from the callback redirect. */
  token: z.string().trim().min(1, MSG.tokenRequired).max(LIMITS.token.max),
  service: skinField.optional(),
};

/**
 * Answers success with the signed-in user, or 409 USER_NOT_EXIST_YOU_CAN_CREATE with the provider's
 * email and a suggested username (the client then shows "More Info Needed").
 */
export const userSocialLogin = defineCall({
  method: 'POST',
  path: '/api/user/user-social-login',
  refusals: [403, 409],
  summary: 'Finish a social sign-in with the ticket of the callback',
  input: z.strictObject(ticketInput),
  output: success({ user: sessionUser }),
});

/** The 409 of user-social-login for a verified identity without an account (additive to the original contract). */
export const socialCreateFailure = failureEnvelope.extend({
  response: z.literal(SOCIAL_CODES.create),
  email: z.string(),
  suggested_username: z.string(),
});
export type SocialCreateFailure = z.infer<typeof socialCreateFailure>;

export const userFbLogin = defineCall({
  method: 'POST',
  path: '/api/user/user-fb-login',
  refusals: [403, 409],
  summary: 'Finish a Facebook sign-in with the ticket of the callback (same answers as user-social-login)',
  input: z.strictObject({ ...ticketInput, type: z.literal('facebook').optional() }),
  output: success({ user: sessionUser }),
});

/** Social sign-up completion ("More Info Needed"): username, birthday, country, terms. */
export const socialRegister = defineCall({
  method: 'POST',
  path: '/api/user/user-social-register',
  refusals: [403, 409, 429],
  summary: 'Create the account of a verified social identity and sign it in',
  input: z.strictObject({
    social_media_type: z.enum(SOCIAL_PROVIDERS),
    social_media_token: z.string().trim().min(1).max(LIMITS.token.max),
    username: usernameField,
    birthday: birthdayField,
    country: countryField,
    terms_accepted: termsField,
    service: skinField.optional(),
    altcha: captchaField,
  }),
  output: success({ user_id: z.number(), user: sessionUser }),
});
