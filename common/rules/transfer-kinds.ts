/** What a ledger transfer is for: the ledger's column, and the platform fee settings' keys (PLATFORM_FEES). */
export const TRANSFER_KINDS = ['deposit', 'tip', 'post_purchase', 'subscription', 'meeting_fee', 'toy_tip', 'show_minute', 'message_unlock', 'ad_commission', 'ad_funding', 'ad_refund', 'referral_commission', 'impressions', 'refund', 'payout', 'adjustment', 'sweep', 'grant'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

/** Kinds that pay a user for what they do (their earnings); the ledger credits the payee net of the platform's fee. */
export const EARNING_KINDS = ['tip', 'subscription', 'post_purchase', 'meeting_fee', 'toy_tip', 'show_minute', 'message_unlock', 'ad_commission', 'referral_commission'] as const satisfies readonly TransferKind[];
export type EarningKind = (typeof EARNING_KINDS)[number];

/**
 * Money leaving the platform to the user (decision 0062): every kind whose name starts with `payout`
 * (`payout`, and any later `payout_…` such as a returned payout) is a payout line of a statement, so a
 * new payout kind is counted without changing the statements.
 */
export const isPayoutKind = (kind: string): boolean => kind.startsWith('payout');
