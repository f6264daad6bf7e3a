/** Campaign and referral tracking (spec part 2 §7): GET and POST /ajax/tracking/track-event. */
import { z } from 'zod';
import { defineCall, success } from './define';
import { optionalText, userId } from './fields';

export const TRACK_ACTIONS = ['app_opened', 'user_login', 'user_registered'] as const;

export const trackEventPost = defineCall({
  method: 'POST',
  path: '/ajax/tracking/track-event',
  refusals: [429],
  summary: 'Record a tracking event; answers the tracker id to keep for later events',
  input: z.strictObject({
    action: z.enum(TRACK_ACTIONS),
    referralCode: optionalText(64),
    campaign: optionalText(100),
    tracker: optionalText(64),
    user_id: userId.optional(),
    id: optionalText(100),
  }).meta({ examples: [{ action: 'app_opened', referralCode: 'broadcaster1', campaign: 'spring', tracker: 'c1d2e3f4' }] }),
  output: success({ result: z.object({ tracker: z.string() }) }),
});

export const trackEventGet = defineCall({
  method: 'GET',
  path: '/ajax/tracking/track-event',
  summary: "The caller's tracking state",
  input: z.strictObject({ tracker: optionalText(64) }),
  output: success({ is_logged_in: z.boolean(), is_new_user: z.boolean(), user_id: z.number() }),
});
