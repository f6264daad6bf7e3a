/** Who holds the referral programme, in a module of its own: the side bar asks it on every page. */
import type { SessionUser } from '../../../common/api/accounts';

/** The permission that opens the referral programme (spec part 1 §6). */
export const REFERRAL_PERMISSION = 'ALLOW REFERRAL_ACCESS';

/**
 * Whether the person holds the referral programme: the permission and a first link. Without either the
 * dashboard says they are not eligible and makes no referral call.
 */
export function hasReferralAccess(user: Pick<SessionUser, 'perms' | 'referral_code_id'> | null | undefined): boolean {
  return !!user && user.perms.includes(REFERRAL_PERMISSION) && user.referral_code_id !== null;
}
