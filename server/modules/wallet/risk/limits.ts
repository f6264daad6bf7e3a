/**
 * The deposit limits (decision 0058), configurable (README "Configuration"): the largest single deposit,
 * and per 24 hours the attempts and the amount of an account, the attempts made with one card and the
 * attempts made from one address. Which one an attempt breaks, and what the payer is told.
 */
import { fill, MSG, type CatalogueText } from '../../../../common/messages';
import { formatCents } from '../../../../common/rules/format';

export interface DepositLimits {
  maxCents: number;
  perAccount: { count: number; cents: number };
  perCard: number;
  perAddress: number;
}

/** What the payments table holds in the last 24 hours for the attempt's account, card and address. */
export interface DepositUsage {
  /** The account's attempts, whatever became of them. */
  accountAttempts: number;
  /** Cents of the account's attempts that succeeded or still wait at a processor. */
  accountCents: number;
  /** Attempts with the card (null: no card known). */
  cardAttempts: number | null;
  /** Attempts from the address (null: no address). */
  addressAttempts: number | null;
}

export type LimitBroken = 'over_max' | 'account_daily_count' | 'account_daily_amount' | 'card_daily_count' | 'address_daily_count';

/** The first limit this attempt of `amountCents` would break, or null. */
export function brokenLimit(limits: DepositLimits, usage: DepositUsage, amountCents: number): LimitBroken | null {
  if (amountCents > limits.maxCents) return 'over_max';
  if (usage.accountAttempts >= limits.perAccount.count) return 'account_daily_count';
  if (usage.accountCents + amountCents > limits.perAccount.cents) return 'account_daily_amount';
  if (usage.cardAttempts !== null && usage.cardAttempts >= limits.perCard) return 'card_daily_count';
  if (usage.addressAttempts !== null && usage.addressAttempts >= limits.perAddress) return 'address_daily_count';
  return null;
}

/** What the payer reads for a broken limit; amounts in the package's currency. */
export function limitMessage(limit: LimitBroken, limits: DepositLimits, currency: 'USD' | 'CAD'): CatalogueText {
  switch (limit) {
    case 'over_max': return fill(MSG.depositOverMax, { max: formatCents(limits.maxCents, currency) });
    case 'account_daily_count': return MSG.depositAccountDailyCount;
    case 'account_daily_amount': return fill(MSG.depositAccountDailyAmount, { max: formatCents(limits.perAccount.cents, currency) });
    case 'card_daily_count': return MSG.depositCardDaily;
    case 'address_daily_count': return MSG.depositAddressDaily;
  }
}
