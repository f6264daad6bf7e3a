/** Password recovery in five steps (spec part 1 §2 Forgot password, part 2 §7). */
import { z } from 'zod';
import { LIMITS } from '../constants';
import { MSG } from '../messages';
import { defineCall, success } from './define';
import { requiredText } from './fields';

const username = requiredText(MSG.usernameOrEmailRequired, LIMITS.email.max);
const recoveryCode = requiredText(MSG.recoveryCodeRequired, 6).pipe(z.string().regex(/^\d{6}$/, MSG.recoveryCodeInvalid));

export const getRecoveryEmail = defineCall({
  method: 'POST',
  path: '/api/user/get-recovery-email',
  refusals: [404, 429],
  summary: 'Step 2: the masked address a recovery code would be sent to (j***@e***.com)',
  input: z.strictObject({ username }),
  output: success({ email: z.string() }),
});

export const sendRecoveryCode = defineCall({
  method: 'POST',
  path: '/api/user/send-recovery-code',
  refusals: [404, 429, 503],
  summary: 'Step 3: mail a six-digit code valid for 15 minutes (replaces any earlier code)',
  input: z.strictObject({ username }),
  output: success({ email: z.string(), expires_in_seconds: z.number() }),
});

export const checkRecoveryCode = defineCall({
  method: 'POST',
  path: '/api/user/check-recovery-code',
  refusals: [404, 429],
  summary: 'Step 3: check the code; five wrong tries end it',
  input: z.strictObject({ username, recoveryCode }),
  output: success({}),
});

export const resetPassword = defineCall({
  method: 'POST',
  path: '/api/user/reset-password',
  refusals: [404, 429],
  summary: 'Step 4: set a new password with a valid code; every session of the user ends',
  input: z
    .strictObject({
      username,
      recoveryCode,
      userPassword: z
        .string({ error: (i) => (i.input === undefined ? MSG.passwordRequired : MSG.mustBeText) })
        .min(1, MSG.passwordRequired)
        .max(LIMITS.password.max)
        .pipe(z.string().min(LIMITS.password.min, MSG.passwordTooShort)),
      confirmPassword: z.string().max(LIMITS.password.max).optional(),
    })
    .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.userPassword, {
      message: MSG.passwordsDoNotMatch,
      path: ['confirmPassword'],
    }),
  output: success({}),
});
