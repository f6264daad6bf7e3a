/**
 * The risk-score seam of deposits (decision 0058): a scorer rates one deposit attempt from 0 (no concern)
 * to 100 and says why; the gate refuses an attempt scored at or above KOUNT_RISK_THRESHOLD. The rules
 * below are the default; an adapter to a provider (Kount, Stripe Radar's early answer) implements the
 * same interface with what it is given here.
 */
import type { PaymentMethod } from '../payment-provider';

export interface DepositAttempt {
  userId: number;
  packageId: number;
  amountCents: number;
  currency: 'USD' | 'CAD';
  method: PaymentMethod;
  /** The payer's address as the site sees it (TRUST_PROXY), or null. */
  address: string | null;
  /** A card known before the processor is asked (a saved card, the sandbox's card form): its key (last four and expiry) and last four. Null on a processor's page. */
  card: { key: string; last4: string } | null;
  /** When the account was made (null: unknown). */
  accountCreatedAt: Date | null;
  history: DepositHistory;
}

/** What the payments table says about the payer, read before the attempt. */
export interface DepositHistory {
  /** Deposits of the account that succeeded, ever. */
  succeeded: number;
  /** The account's attempts declined or failed in the last 24 hours (its risk refusals among them). */
  refusedToday: number;
  /** Disputes (chargebacks) opened on the account's deposits, ever. */
  disputes: number;
  /** Other accounts that paid with this card, ever (0 when the card is not known). */
  otherAccountsOnCard: number;
  /** Other accounts that tried a deposit from this address in the last 24 hours. */
  otherAccountsOnAddress: number;
}

export interface RiskScore {
  /** 0–100. */
  score: number;
  /** Why, as short codes for the payment row and the log (never shown to the payer). */
  reasons: string[];
}

export interface RiskScorer {
  readonly name: string;
  score(attempt: DepositAttempt, now: Date): Promise<RiskScore>;
}

const HOUR_MS = 3600_000;

/** One rule: the points it adds (0: it does not apply) and its code. */
type Rule = (attempt: DepositAttempt, context: { now: Date; maxCents: number }) => [points: number, reason: string];

const capped = (each: number, count: number, cap: number) => Math.min(each * count, cap);

/** The default rules, weighed so that no one signal alone reaches the default threshold (80) but a dispute with a few others does. */
export const RISK_RULES: readonly Rule[] = [
  ({ accountCreatedAt }, { now }) => {
    const age = accountCreatedAt === null ? Infinity : now.getTime() - accountCreatedAt.getTime();
    return [age < 24 * HOUR_MS ? 20 : age < 7 * 24 * HOUR_MS ? 10 : 0, 'new_account'];
  },
  ({ history }) => [history.succeeded === 0 ? 10 : 0, 'first_deposit'],
  ({ history }) => [capped(10, history.refusedToday, 30), 'refused_today'],
  ({ history }) => [capped(40, history.disputes, 80), 'disputes'],
  ({ history }) => [capped(15, history.otherAccountsOnCard, 30), 'card_on_other_accounts'],
  ({ history }) => [capped(5, history.otherAccountsOnAddress, 20), 'address_of_other_accounts'],
  ({ amountCents }, { maxCents }) => [amountCents * 2 >= maxCents ? 10 : 0, 'large_amount'],
];

/** The built-in scorer: the sum of the rules that apply, at most 100. */
export function rulesScorer(options: { maxCents: number }): RiskScorer {
  return {
    name: 'rules',
    async score(attempt, now) {
      let score = 0;
      const reasons: string[] = [];
      for (const rule of RISK_RULES) {
        const [points, reason] = rule(attempt, { now, maxCents: options.maxCents });
        if (points <= 0) continue;
        score += points;
        reasons.push(reason);
      }
      return { score: Math.min(score, 100), reasons };
    },
  };
}
