/** Solves the captcha the way the browser widget does, for tests that sign in through it. */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { CaptchaStrength } from '../platform/captcha';
import type { HttpSession } from './http-session';

/** Fetches a challenge of the given strength, solves it and encodes the payload a form submits. */
export async function solvedCaptcha(client: HttpSession, strength: CaptchaStrength = 'standard'): Promise<string> {
  const challenge = (await client.get(`/api/captcha/challenge?strength=${strength}`)).body as unknown as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the challenge');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
