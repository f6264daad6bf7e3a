/** Preferences, avatar and the e-mail notification landing page (spec part 1 §3, part 2 §2, §7 Settings). */
import { z } from 'zod';
import { MSG } from '../messages';
import { defineCall, noInput, success } from './define';
import { flag, userId } from './fields';

export const NOTIFICATION_KEYS = [
  'notify_stream_start',
  'notify_new_follower',
  'notify_stream_share',
  'notify_daily_stats',
  'notify_chat',
  'notify_via_email',
  'notify_via_push',
  'notify_via_text',
] as const;
export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];

export const preferences = z.object({
  filters: z.object({ stream_show_18plus: z.boolean() }),
  notifications: z.object(Object.fromEntries(NOTIFICATION_KEYS.map((k) => [k, z.boolean()])) as Record<NotificationKey, z.ZodBoolean>),
});
export type Preferences = z.infer<typeof preferences>;

export const getUserPreferences = defineCall({
  method: 'GET',
  path: '/api/user/get-user-preferences',
  refusals: [403],
  summary: "The signed-in user's preferences (sections: filters, notifications or both)",
  input: z.strictObject({
    id: userId,
    sections: z.enum(['filters', 'notifications', 'all']).optional(),
  }),
  output: success({ preferences: preferences.partial() }),
});

const preferenceParams = z
  .strictObject({
    stream_show_18plus: flag.optional(),
    ...(Object.fromEntries(NOTIFICATION_KEYS.map((k) => [k, flag.optional()])) as Record<NotificationKey, z.ZodOptional<typeof flag>>),
  })
  .refine((p) => Object.keys(p).length > 0, MSG.nothingToUpdate);

export const updateUserPreferences = defineCall({
  method: 'POST',
  path: '/api/user/update-user-preferences',
  refusals: [403],
  summary: 'Change preferences (only the given ones); the 18+ switch only where the skin shows adult content',
  input: z.strictObject({ id: userId, params: preferenceParams }),
  output: success({ preferences }),
});

export const adultAgreement = defineCall({
  method: 'POST',
  path: '/api/user/adult-agreement',
  refusals: [403],
  summary: 'The signed-in person confirms being 18 or older for adult channels: remembered on the account for 43,200 minutes',
  input: noInput,
  output: success({ adult_agreed: z.literal(true) }),
});

/** Avatar upload is multipart (field "file"); its answer follows this schema. */
export const uploadAvatar = {
  method: 'POST' as const,
  path: '/api/user/upload-avatar',
  summary: 'Set the avatar: an image checked by content, resized to 512×512 and stripped of metadata',
  output: success({ avatar: z.string() }),
};

export const emailNotificationSettings = defineCall({
  method: 'GET',
  path: '/api/user/email-notifications',
  refusals: [404],
  summary: 'For the e-mail landing page: the notify-via-email switch of the user a signed mail link names',
  input: z.strictObject({ id: userId, token: z.string().min(1).max(200) }),
  output: success({ username: z.string(), notify_via_email: z.boolean() }),
});

export const updateEmailNotifications = defineCall({
  method: 'POST',
  path: '/api/user/email-notifications',
  refusals: [404],
  summary: 'From the e-mail landing page (no sign-in, the signed link authorises): turn e-mail notifications on or off',
  input: z.strictObject({ id: userId, token: z.string().min(1).max(200), notify_via_email: flag }),
  output: success({ notify_via_email: z.boolean() }),
});
