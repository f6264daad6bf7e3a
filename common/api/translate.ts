/** Chat translation through a LibreTranslate-compatible server (TRANSLATE_URL); hidden when not configured. */
import { z } from 'zod';
import { CHAT_TEXT_MAX } from '../realtime';
import { defineCall, success } from './define';

export const translate = defineCall({
  method: 'POST',
  path: '/api/translate',
  summary: 'Translate a chat line into the given language (login needed)',
  input: z.strictObject({
    message: z.string({ error: 'Must be text' }).trim().min(1, 'Nothing to translate').max(CHAT_TEXT_MAX, `Must be at most ${CHAT_TEXT_MAX} characters`),
    lang: z.string({ error: 'Must be a language code' }).regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, 'Must be a language code such as en or pt-BR'),
  }),
  output: success({ translated: z.string() }),
});
