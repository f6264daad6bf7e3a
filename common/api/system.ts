/** System calls: app configuration, countries, system messages, channels list for the shell. */
import { z } from 'zod';
import { numeric } from './fields';
import { MSG } from '../messages';
import { adsSettings } from './ads';
import { defineCall, noInput, success } from './define';

export const appConfig = defineCall({
  method: 'GET',
  path: '/api/meta/app-config',
  summary: 'What this installation offers: captcha, social sign-in providers',
  input: noInput,
  output: success({
    captcha: z.boolean(),
    social: z.object({ google: z.boolean(), apple: z.boolean(), facebook: z.boolean() }),
    /** Chat translation is configured (TRANSLATE_URL). */
    translate: z.boolean(),
    /** The ads settings of the caller's skin (publisher network, ad units, chat ad interval). */
    ads: adsSettings,
  }),
});

export const country = z.object({ code: z.string(), name: z.string() });

export const getCountries = defineCall({
  method: 'GET',
  path: '/api/meta/get-countries',
  summary: 'Countries for sign-up and settings',
  input: noInput,
  output: success({ countries: z.array(country) }),
});

export const systemMessage = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  frequency: z.enum(['once', 'always']),
});

const localeField = z
  .string()
  .trim()
  .regex(/^[a-z]{2}(-[A-Za-z]{2})?$/, MSG.localeInvalid)
  .optional();

export const getSystemMessages = defineCall({
  method: 'GET',
  path: '/api/user/get-system-messages',
  summary: 'Messages every user should see, for a locale',
  input: z.strictObject({ locale: localeField }),
  output: success({ messages: z.array(systemMessage) }),
});

export const systemMessageLookup = defineCall({
  method: 'GET',
  path: '/api/user/system-message-lookup',
  refusals: [404],
  summary: 'One system message',
  input: z.strictObject({ id: numeric(z.number({ error: MSG.mustBeMessageId }).int().positive().max(2_147_483_647)) }),
  output: success({ message: systemMessage }),
});

export const channel = z.object({
  id: z.number(),
  name: z.string(),
  meta: z.object({ rating: z.enum(['G', 'PLUS_14', 'PLUS_18']) }),
  type: z.enum(['group', 'channel', 'custom', 'user']),
  link: z.string(),
  thumbnail: z.string().nullable(),
});

export const baseGroup = defineCall({
  method: 'GET',
  path: '/api/channel/base-group',
  summary: 'The base channels (Popular, Women, Men, Live, Discover, Following, 18+)',
  input: noInput,
  output: success({ channels: z.array(channel) }),
});

export const group = defineCall({
  method: 'GET',
  path: '/api/channel/group',
  summary: 'A channel group and the channels listed in it (the base group when no id is given)',
  input: z.strictObject({ id: numeric(z.number().int().positive().max(2_147_483_647).optional()) }),
  output: success({ group: channel, channels: z.array(channel) }),
});
