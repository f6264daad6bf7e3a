/** Builds the session user of spec part 1 §3 from a users row, its permissions and the skin. */
import type { SessionUser } from '../../../common/api/accounts';
import { canGoLive, type Permission } from '../../../common/permissions';
import { SKINS, type SkinId } from '../../../common/skins';
import { adultAgreementHolds } from '../../../common/rules/adult-agreement';
import type { users } from './tables';

/** What the session user is made of: the user's columns it shows, and whether the account has a password. */
export type SessionUserRow = Pick<typeof users.$inferSelect,
  'id' | 'username' | 'email' | 'fullname' | 'avatar' | 'prefix' | 'birthday' | 'country' | 'description' | 'role' |
  'termsAccepted' | 'phone' | 'adultAgreedAt' | 'broadcastKey' | 'accountStatus' | 'service'> & { hasPassword: boolean };

export interface EnvSettings {
  streamViewerLikeLimit: number;
  ratingThreshold: number;
  kountRiskThreshold: number;
  /** When the user can next ask for a payout (decision 0061); null when nothing is on its way. */
  nextWithdrawDate: string | null;
}

export function toSessionUser(
  row: SessionUserRow,
  perms: readonly Permission[],
  skinId: SkinId,
  env: EnvSettings,
  origin: string,
  referralCodeId: number | null = null,
): SessionUser {
  const skin = SKINS[skinId];
  const base = `${origin}${skin.prefix}`;
  return {
    user_id: row.id,
    username: row.username,
    email: row.email,
    fullname: row.fullname,
    avatar: row.avatar,
    gender: row.prefix,
    birthday: row.birthday,
    country: row.country,
    description: row.description,
    currency: 'CON',
    role: row.role,
    perms: [...perms],
    terms_accepted: row.termsAccepted,
    phone: row.phone,
    adult_agreed: adultAgreementHolds(row.adultAgreedAt),
    ...(canGoLive(perms) ? { broadcast_key: row.broadcastKey } : {}),
    account_status: row.accountStatus,
    social_only: !row.hasPassword,
    service: skinId,
    referral_code_id: referralCodeId,
    env: {
      terms_url: `${origin}${skin.links.terms}`,
      privacy_url: `${origin}${skin.links.privacy}`,
      profile_share_url: `${base}/u/`,
      stream_share_url: `${base}/streams/stream-view?id=`,
      stream_viewer_like_limit: env.streamViewerLikeLimit,
      rating_threshold: env.ratingThreshold,
      kount_risk_threshold: env.kountRiskThreshold,
      plus_18_redirect_enabled: skin.flags.adultContent,
      imp_to_con: 1,
      next_withdraw_date: env.nextWithdrawDate,
    },
  };
}
