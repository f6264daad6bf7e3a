/** Chat translation through a LibreTranslate-compatible server (TRANSLATE_URL), limited per user. */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { appError, notFound, tooManyRequests } from '../../platform/http/errors';
import { createThrottle } from '../../platform/throttle';

export const TRANSLATE_TIMEOUT_MS = 5000;
export const TRANSLATIONS_PER_MINUTE = 30;

const libreTranslateAnswer = z.object({ translatedText: z.string() });

/** The upstream's trouble is ours to log, never the user's to read. */
const unavailable = () => appError('translation_unavailable');

export function createTranslateService(deps: { db: Db; url: string | undefined; log: FastifyBaseLogger }) {
  const throttle = createThrottle(deps.db, { windowMs: 60_000 });

  async function askUpstream(url: string, text: string, lang: string): Promise<string> {
    let response: Response;
    try {
      response = await fetch(`${url.replace(/\/+$/, '')}/translate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ q: text, source: 'auto', target: lang, format: 'text' }),
        signal: AbortSignal.timeout(TRANSLATE_TIMEOUT_MS),
      });
    } catch (err) {
      deps.log.warn({ err }, 'translation server unreachable');
      throw unavailable();
    }
    const answer = libreTranslateAnswer.safeParse(await response.json().catch(() => null));
    if (!response.ok || !answer.success) {
      deps.log.warn({ status: response.status }, 'translation server refused or answered badly');
      throw unavailable();
    }
    return answer.data.translatedText;
  }

  return {
    async translate(userId: number, text: string, lang: string): Promise<string> {
      if (!deps.url) throw notFound(MSG.translationNotConfigured);
      const { limited } = await throttle.attempt([{ key: `translate:${userId}`, limit: TRANSLATIONS_PER_MINUTE }]);
      if (limited) throw tooManyRequests(MSG.tooManyTranslations);
      return askUpstream(deps.url, text, lang);
    },
  };
}

export type TranslateService = ReturnType<typeof createTranslateService>;
