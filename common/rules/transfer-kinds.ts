/** What a ledger transfer is for: the ledger's column, and the platform fee settings' keys (PLATFORM_FEES). */
export const TRANSFER_KINDS = ['deposit', 'tip', 'post_purchase', 'subscription', 'meeting_fee', 'toy_tip', 'ad_commission', 'ad_funding', 'ad_refund', 'referral_commission', 'impressions', 'refund', 'payout', 'adjustment', 'sweep', 'grant'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];
