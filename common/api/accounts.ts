/** Accounts: registration, login, session, interests, terms (spec part 1 §2–§5, part 2 §7). */
import { z } from 'zod';
import { LIMITS, MIN_INTERESTS } from '../constants';
import { MSG } from '../messages';
import { PERMISSIONS, ROLES } from '../permissions';
import { SKIN_IDS } from '../skins';
import { defineCall, noInput, success } from './define';
import { birthdayField, captchaField, phoneField, countryField, emailField, flag, oneOf, optionalText, requiredText, skinField, termsField, userId, usernameField, numeric } from './fields';

export const SALUTATIONS = ['MISS', 'MS', 'MRS', 'MR', 'OTHER'] as const;

const passwordField = z
  .string({ error: (i) => (i.input === undefined ? MSG.passwordRequired : MSG.mustBeText) })
  .min(1, MSG.passwordRequired)
  .max(LIMITS.password.max, `Must be at most ${LIMITS.password.max} characters`);

export const registerInput = z
  .strictObject({
    prefix: z.enum([...SALUTATIONS, ''], { error: oneOf(SALUTATIONS) }).optional(),
    username: usernameField,
    email: emailField,
    password: passwordField.pipe(z.string().min(LIMITS.password.min, MSG.passwordTooShort)),
    confirm_password: z.string().max(LIMITS.password.max).optional(),
    birthday: birthdayField,
    country: countryField,
    terms_accepted: termsField,
    client_id: optionalText(100),
    branch_io: z.enum(['Y', 'N']).optional(),
    service: skinField.optional(),
    altcha: captchaField,
  })
  .refine((v) => v.confirm_password === undefined || v.confirm_password === v.password, {
    message: MSG.passwordsDoNotMatch,
    path: ['confirm_password'],
  });

export const envSchema = z.object({
  terms_url: z.string(),
  privacy_url: z.string(),
  profile_share_url: z.string(),
  stream_share_url: z.string(),
  stream_viewer_like_limit: z.number(),
  rating_threshold: z.number(),
  /** A deposit scored at or above this (0–100) is refused (decision 0058; KOUNT_RISK_THRESHOLD). */
  kount_risk_threshold: z.number(),
  plus_18_redirect_enabled: z.boolean(),
  imp_to_con: z.number(),
  /** When a payout can next be asked for (decision 0061): now when enough is withdrawable; null when nothing is on its way. */
  next_withdraw_date: z.string().nullable(),
});

export const sessionUser = z.object({
  user_id: z.number(),
  username: z.string(),
  email: z.string(),
  fullname: z.string(),
  avatar: z.string().nullable(),
  gender: z.string().nullable(),
  birthday: z.string().nullable(),
  country: z.string(),
  description: z.string(),
  currency: z.string(),
  role: z.enum(ROLES),
  perms: z.array(z.enum(PERMISSIONS)),
  terms_accepted: z.boolean(),
  /** Where text-message notifications go (international form), or null. */
  phone: z.string().nullable(),
  /** The person confirmed being 18 or older for adult channels within the agreement's time (spec part 1 §4). */
  adult_agreed: z.boolean(),
  broadcast_key: z.string().optional(),
  account_status: z.string(),
  /** True for an account made through social sign-in that never set a password (settings ask it to sign in again instead). */
  social_only: z.boolean(),
  service: z.enum(SKIN_IDS),
  /** The person's first referral link (holders of ALLOW REFERRAL_ACCESS); null otherwise: the web then makes no referral call. */
  referral_code_id: z.number().nullable(),
  env: envSchema,
});
export type SessionUser = z.infer<typeof sessionUser>;

export const register = defineCall({
  method: 'POST',
  path: '/api/user/user-register',
  refusals: [409, 429],
  summary: 'Create an account and sign it in (step one of sign-up)',
  input: registerInput,
  output: success({ user_id: z.number(), user: sessionUser }),
});

export const login = defineCall({
  method: 'POST',
  path: '/api/user/user-login',
  refusals: [401, 403],
  summary: 'Sign in with username or email',
  input: z.strictObject({
    username: requiredText(MSG.usernameOrEmailRequired, LIMITS.email.max),
    password: z
      .string({ error: (i) => (i.input === undefined ? MSG.passwordRequired : MSG.mustBeText) })
      .trim()
      .min(1, MSG.passwordRequired)
      .max(LIMITS.password.max, `Must be at most ${LIMITS.password.max} characters`),
    rememberMe: flag.optional(),
    service: skinField.optional(),
    altcha: captchaField,
  }),
  output: success({ user: sessionUser }),
});

export const sessionDetail = defineCall({
  method: 'GET',
  path: '/api/user/session-detail',
  summary: 'The signed-in user',
  input: noInput,
  output: success({ user: sessionUser }),
});

export const checkUserSession = defineCall({
  method: 'GET',
  path: '/api/user/check-user-session',
  summary: 'Whether the session is still signed in',
  input: noInput,
  output: success({ is_logged_in: z.boolean(), user_id: z.number() }),
});

export const logout = defineCall({
  method: 'POST',
  path: '/api/user/logout',
  summary: 'End the session',
  input: noInput,
  output: success({}),
});

export const interest = z.object({ interest_id: z.number(), interest_name: z.string() });
export type Interest = z.infer<typeof interest>;

export const getInterestList = defineCall({
  method: 'GET',
  path: '/api/user/get-interest-list',
  summary: 'Every interest a user can choose',
  input: noInput,
  output: success({ interests: z.array(interest) }),
});

export const addUserInterest = defineCall({
  method: 'POST',
  path: '/api/user/add-user-interest',
  summary: "Set the signed-in user's interests (at least three)",
  input: z.strictObject({
    id: userId,
    interest_ids: z
      .array(numeric(z.number().int().positive().max(2_147_483_647)), { error: MSG.interestsMin })
      .min(MIN_INTERESTS, MSG.interestsMin)
      .max(LIMITS.interestIdsMax),
  }),
  output: success({ interests: z.array(interest) }),
});

export const userInterestList = defineCall({
  method: 'POST',
  path: '/api/user/user-interest-list',
  summary: "A user's chosen interests",
  input: z.strictObject({ id: userId }),
  output: success({ interests: z.array(interest) }),
});

export const updateUserInfo = defineCall({
  method: 'POST',
  path: '/api/user/update-user-info',
  refusals: [403, 404, 409],
  summary: "Change the signed-in user's account fields (only changed fields are sent)",
  input: z.strictObject({
    id: userId,
    params: z
      .strictObject({
        prefix: z.enum([...SALUTATIONS, ''], { error: oneOf(SALUTATIONS) }).optional(),
        /** The full name; required only when the user already has one (checked by the service). */
        name: optionalText(LIMITS.fullname.max),
        email: emailField.optional(),
        description: optionalText(LIMITS.description.max),
        terms_accepted: flag.optional(),
        /** Where text messages go ('' removes it, and text messages stop). */
        phone: phoneField.optional(),
        /** Needed to change the email of an account that has a password. */
        current_password: z.string().max(LIMITS.password.max).optional(),
      })
      .refine((p) => Object.keys(p).some((k) => k !== 'current_password'), MSG.nothingToUpdate),
  }),
  output: success({ user: sessionUser }),
});

export const csrfToken = defineCall({
  method: 'GET',
  path: '/api/csrf-token',
  summary: 'The CSRF token to send as X-CSRF-Token on every state-changing call',
  input: noInput,
  output: success({ token: z.string() }),
});

const newPasswordField = passwordField.pipe(z.string().min(LIMITS.password.min, MSG.passwordTooShort));
const currentPasswordField = z
  .string({ error: (i) => (i.input === undefined ? MSG.currentPasswordRequired : MSG.mustBeText) })
  .min(1, MSG.currentPasswordRequired)
  .max(LIMITS.password.max, `Must be at most ${LIMITS.password.max} characters`);

export const changePassword = defineCall({
  method: 'POST',
  path: '/api/user/change-password',
  refusals: [403, 429],
  summary: "Change the signed-in user's password (the current one required); every other session ends",
  input: z
    .strictObject({
      id: userId,
      current_password: currentPasswordField,
      new_password: newPasswordField,
      confirm_password: z.string().max(LIMITS.password.max).optional(),
    })
    .refine((v) => v.confirm_password === undefined || v.confirm_password === v.new_password, {
      message: MSG.passwordsDoNotMatch,
      path: ['confirm_password'],
    }),
  output: success({}),
});

export const deleteAccount = defineCall({
  method: 'POST',
  path: '/api/user/delete-account',
  refusals: [403, 429],
  summary:
    'Delete the signed-in account: the password (or, without one, a sign-in in the last 10 minutes) required; sessions end, personal data is archived for 3 months, the username and email are freed',
  input: z.strictObject({
    id: userId,
    /** Required for an account that has a password; a social-only account signs in again instead. */
    current_password: z.string().max(LIMITS.password.max).optional(),
  }),
  output: success({}),
});
