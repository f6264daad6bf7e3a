/**
 * Self-hosted proof-of-work captcha (ALTCHA). The browser widget fetches a signed challenge, solves
 * it in a worker and submits the payload with the form; the server checks it once.
 *
 * Two strengths: the standard one guards every sign-up and login when the installation turns the
 * captcha on; the strong one (some twenty times the work, signed with its own key) is what a login
 * for an account or from an address with many recent failures must carry, captcha on or off. A
 * person pays it once, in about a second of their browser's time; a guesser pays it per guess.
 */
import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { verify } from 'altcha-lib/frameworks/shared';
import { lt } from 'drizzle-orm';
import type { Db } from './db/client';
import { captchaSpent } from './db/platform-tables';

const CHALLENGE_TTL_MS = 10 * 60_000;

export const CAPTCHA_STRENGTHS = ['standard', 'strong'] as const;
export type CaptchaStrength = (typeof CAPTCHA_STRENGTHS)[number];

/** The solver tries counters from 0 upwards: the counter is how many SHA-256 rounds a solution costs. */
const COUNTER_RANGE: Record<CaptchaStrength, [number, number]> = { standard: [5_000, 20_000], strong: [200_000, 400_000] };

export interface Captcha {
  enabled: boolean;
  challenge(strength?: CaptchaStrength): Promise<unknown>;
  /** True when the payload solves a challenge we issued that was not used before (always true when off). */
  verify(payload: string | undefined): Promise<boolean>;
  /** True when the payload solves a strong challenge not used before; checked whether the captcha is on or off. */
  verifyStrong(payload: string | undefined): Promise<boolean>;
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
  // Each strength signs with its own secret: a solved standard challenge never passes as a strong one.
  const secretOf = (strength: CaptchaStrength) => (strength === 'standard' ? options.secret : `${options.secret}:${strength}`);
  const check = async (payload: string | undefined, strength: CaptchaStrength) => {
    if (!payload) return false;
    const secret = secretOf(strength);
    const result = await verify(payload, deriveKey, secret, `${secret}:key`, store);
    return result.error === null;
  };
  return {
    enabled: options.enabled,
    async challenge(strength = 'standard') {
      const secret = secretOf(strength);
      return createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: randomInt(...COUNTER_RANGE[strength]),
        deriveKey,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
        hmacSignatureSecret: secret,
        hmacKeySignatureSecret: `${secret}:key`,
      });
    },
    async verify(payload) {
      return !options.enabled || check(payload, 'standard');
    },
    verifyStrong: (payload) => check(payload, 'strong'),
    async purgeSpent() {
      await db.delete(captchaSpent).where(lt(captchaSpent.spentAt, new Date(Date.now() - CHALLENGE_TTL_MS)));
    },
  };
}
