/** Chat translation through a LibreTranslate-compatible server (TRANSLATE_URL); hidden when not configured. */
import { z } from 'zod';
import { CHAT_TEXT_MAX } from '../realtime';
import { MSG } from '../messages';
import { defineCall, success } from './define';
import { atMost } from './fields';

export const translate = defineCall({
  method: 'POST',
  path: '/api/translate',
  refusals: [404, 429, 502],
  summary: 'Translate a chat line into the given language (login needed)',
  input: z.strictObject({
    message: z.string({ error: MSG.mustBeText }).trim().min(1, MSG.nothingToTranslate).max(CHAT_TEXT_MAX, atMost(CHAT_TEXT_MAX)),
    lang: z.string({ error: MSG.languageInvalid }).regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, MSG.languageInvalid),
  }).meta({ examples: [{ message: 'Hola a todos', lang: 'en' }] }),
  output: success({ translated: z.string() }),
});
