import type { StreamGoal } from '../../../common/api/streams';
import { goalProgress } from './goal-progress';
import styles from './GoalBar.module.css';

interface GoalBarProps {
  goal: StreamGoal;
  /**
   * Where it stands: under the player (every width), or at the top of the chat, shown only where
   * the chat is a column of its own beside the player.
   */
  place?: 'player' | 'chat' | 'editor';
}

/** The active tip goal: what it is for, coins raised of the amount, and the bar. */
export function GoalBar({ goal, place = 'player' }: GoalBarProps) {
  const progress = goalProgress(goal);
  return (
    <div className={`${styles.goal} ${styles[place]}`}>
      <div className={styles.goalHead}>
        <span className={styles.goalLabel}>Goal</span>
        <span className={styles.goalDescription} title={goal.description}>
          {goal.description}
        </span>
        <span className={styles.goalFigures}>{progress.figures}</span>
      </div>
      <div
        className={styles.track}
        role="progressbar"
        aria-label={`Tip goal: ${goal.description}`}
        aria-valuemin={0}
        aria-valuemax={progress.amount}
        aria-valuenow={progress.raised}
        aria-valuetext={progress.spoken}
      >
        <span className={styles.fill} style={{ width: `${progress.percent}%` }} />
      </div>
    </div>
  );
}
