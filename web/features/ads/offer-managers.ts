/** Who manages offers, in a module of its own: the side bar and the routes ask it on every page. */
import type { SessionUser } from '../../../common/api/accounts';

/** Administrators and holders of CREATE AD_OFFER manage offers (the offers page, its side-bar entry). */
export const canManageOffers = (user: Pick<SessionUser, 'role' | 'perms'> | null): boolean =>
  !!user && (user.role === 'admin' || user.perms.includes('CREATE AD_OFFER'));
