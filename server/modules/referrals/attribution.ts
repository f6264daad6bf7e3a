/**
 * Attribution: a sign-up is credited to the first referral code its browser carried (the tracker's
 * first touch; an unknown code or one of one's own is passed over), once, when the new account reports
 * `user_registered`. An account older than a day credits nobody.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { people } from '../accounts';
import type { Registration } from '../system';
import type { ReferralCodes } from './codes';
import { referralAttributions, referralCodes } from './tables';

/** How long after signing up an account can still be credited to a link. */
export const ATTRIBUTION_WINDOW_MS = 86_400_000;

export function createAttribution({ db, codes }: { db: Db; codes: ReferralCodes }) {
  return {
    /** Credits the sign-up; answers whether this call credited it. */
    async credit({ userId, referralCodes }: Registration): Promise<boolean> {
      let code = null;
      for (const text of referralCodes) {
        const found = await codes.byCode(text);
        if (found && found.ownerId !== userId) {
          code = found;
          break;
        }
      }
      if (!code) return false;
      const [account] = await db.select({ createdAt: people.createdAt }).from(people).where(eq(people.id, userId));
      if (!account || Date.now() - account.createdAt.getTime() > ATTRIBUTION_WINDOW_MS) return false;
      const credited = await db.insert(referralAttributions)
        .values({ referredId: userId, codeId: code.id, referrerId: code.ownerId, referredAt: sql`now()` })
        .onConflictDoNothing().returning({ id: referralAttributions.referredId });
      return credited.length > 0;
    },

    /** A referral made in the past, for history brought in (demo data); nothing when the person was credited already. */
    async recordPast(referredId: number, codeId: number, at: Date): Promise<void> {
      const [code] = await db.select({ ownerId: referralCodes.ownerId }).from(referralCodes).where(eq(referralCodes.id, codeId));
      if (!code || code.ownerId === referredId) return;
      await db.insert(referralAttributions).values({ referredId, codeId, referrerId: code.ownerId, referredAt: at }).onConflictDoNothing();
    },
  };
}

export type Attribution = ReturnType<typeof createAttribution>;
