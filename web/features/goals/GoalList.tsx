import { CheckIcon } from '../../ui/icons';
import { useStreamGoals } from './api';
import { goalProgress } from './goal-progress';
import styles from './goals.module.css';

/** A broadcast's goals after the show (the replay): each with what it raised, the reached ones marked. */
export function GoalList({ streamId }: { streamId: number }) {
  const goals = useStreamGoals(streamId);
  if (!goals.data?.length) return null;
  return (
    <section className={styles.list} aria-labelledby={`goals-${streamId}`}>
      <h2 id={`goals-${streamId}`} className={styles.listTitle}>
        Tip goals
      </h2>
      <ol className={styles.rows}>
        {goals.data.map((goal) => {
          const reached = goal.state === 'reached';
          return (
            <li key={goal.goal_id} className={`${styles.row} ${reached ? styles.reached : ''}`}>
              <span className={styles.mark} aria-hidden="true">
                {reached && <CheckIcon size={14} />}
              </span>
              <span className={styles.rowDescription}>{goal.description}</span>
              <span className={styles.rowFigures}>{goalProgress(goal).figures}</span>
              <span className={styles.rowState}>{reached ? 'Reached' : 'Not reached'}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
