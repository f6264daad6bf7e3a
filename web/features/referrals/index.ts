/** The public face of referrals: Who may use the referral programme (for the side bar). Other features import referrals only from here. */
export { hasReferralAccess } from './referral-access';
