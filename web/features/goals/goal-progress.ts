/** How far a tip goal has come, as the bar draws it and reads it out. */
import type { StreamGoal } from '../../../common/api/streams';
import { formatCoins } from '../../../common/rules/wallet-amounts';

const count = new Intl.NumberFormat('en-US');

export interface GoalProgress {
  /** Coins raised, never past the amount. */
  raised: number;
  amount: number;
  /** Whole percent, 0–100; 100 only once the amount is raised. */
  percent: number;
  /** '20 / 30 Coins', as shown beside the bar. */
  figures: string;
  /** '20 of 30 coins raised', as a screen reader says the bar's value. */
  spoken: string;
}

export function goalProgress(goal: Pick<StreamGoal, 'raised' | 'amount'>): GoalProgress {
  const amount = Math.max(0, goal.amount);
  const raised = Math.min(Math.max(0, goal.raised), amount);
  // Rounded down: a bar that reads 100% has reached its goal, not 99.6% of it.
  const percent = amount === 0 ? 100 : Math.floor((raised / amount) * 100);
  return {
    raised,
    amount,
    percent,
    figures: `${count.format(raised)} / ${formatCoins(amount)}`,
    spoken: `${count.format(raised)} of ${count.format(amount)} coins raised`,
  };
}
