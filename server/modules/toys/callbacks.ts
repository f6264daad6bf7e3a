/**
 * The Lovense app's callbacks, taken once (decision 0038): the provider proves whose toys they are
 * from the utoken we made for the QR; here a callback is refused when its utoken is older than the
 * window (a QR is scanned soon after it is shown) or when its nonce was taken already (a replay).
 */
import { lt, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { forbidden } from '../../platform/http/errors';
import type { ToyProviderApi, VerifiedCallback } from './providers';
import { toyCallbackNonces } from './tables';

/** How long after its QR was made a utoken is taken. */
export const CALLBACK_WINDOW_MS = 10 * 60_000;
/** A utoken dated this far ahead of our clock is not ours to trust either. */
const CLOCK_SKEW_MS = 60_000;

export function createCallbacks(deps: { db: Db; provider: Pick<ToyProviderApi, 'verifyCallback'>; isUser: (userId: number) => Promise<boolean>; clock?: () => Date }) {
  const clock = deps.clock ?? (() => new Date());

  /** The callback's verified content, or 403: unverified, stale, or already taken. */
  async function accept(body: unknown): Promise<VerifiedCallback> {
    const verified = deps.provider.verifyCallback(body);
    if (!verified || !(await deps.isUser(verified.userId))) throw forbidden(MSG.toyCallbackUnverified);
    const age = clock().getTime() - verified.issuedAt.getTime();
    if (age > CALLBACK_WINDOW_MS || age < -CLOCK_SKEW_MS) throw forbidden(MSG.toyCallbackReplayed);
    const taken = await deps.db.insert(toyCallbackNonces).values({ nonce: verified.nonce, userId: verified.userId })
      .onConflictDoNothing().returning({ nonce: toyCallbackNonces.nonce });
    if (taken.length === 0) throw forbidden(MSG.toyCallbackReplayed);
    return verified;
  }

  /** Nonces past the window: their utokens are refused as stale anyway. */
  async function purgeOld() {
    await deps.db.delete(toyCallbackNonces).where(lt(toyCallbackNonces.usedAt, sql`now() - make_interval(secs => ${(2 * CALLBACK_WINDOW_MS) / 1000})`));
  }

  return { accept, purgeOld };
}

export type Callbacks = ReturnType<typeof createCallbacks>;
