/**
 * Self-hosted proof-of-work captcha (ALTCHA). The browser widget fetches a signed challenge, solves
 * it in a worker and submits the payload with the form; the server checks it once.
 */
import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { verify } from 'altcha-lib/frameworks/shared';
import { lt } from 'drizzle-orm';
import type { Db } from './db/client';
import { captchaSpent } from './db/platform-tables';

const CHALLENGE_TTL_MS = 10 * 60_000;

export interface Captcha {
  enabled: boolean;
  challenge(): Promise<unknown>;
  /** True when the payload solves a challenge we issued that was not used before. */
  verify(payload: string | undefined): Promise<boolean>;
  purgeSpent(): Promise<void>;
}

export function createCaptcha(db: Db, options: { enabled: boolean; secret: string }): Captcha {
  const store = {
    get: () => false,
    set: () => undefined,
    async setIfAbsent(challengeId: string) {
      const inserted = await db.insert(captchaSpent).values({ challengeId }).onConflictDoNothing().returning();
      return inserted.length === 1;
    },
  };
  return {
    enabled: options.enabled,
    async challenge() {
      return createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        // The solver tries counters from 0 upwards: this many SHA-256 rounds is a fraction of a second.
        counter: randomInt(5_000, 20_000),
        deriveKey,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
        hmacSignatureSecret: options.secret,
        hmacKeySignatureSecret: `${options.secret}:key`,
      });
    },
    async verify(payload) {
      if (!options.enabled) return true;
      if (!payload) return false;
      const result = await verify(payload, deriveKey, options.secret, `${options.secret}:key`, store);
      return result.error === null;
    },
    async purgeSpent() {
      await db.delete(captchaSpent).where(lt(captchaSpent.spentAt, new Date(Date.now() - CHALLENGE_TTL_MS)));
    },
  };
}
