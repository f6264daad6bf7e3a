import type { ReactNode } from 'react';
import styles from './EmptyState.module.css';

/** The quiet text of an empty list or tab, with an optional glyph and action. */
export function EmptyState({ icon, children, action }: { icon?: ReactNode; children: ReactNode; action?: ReactNode }) {
  return (
    <div className={styles.empty}>
      {icon && <div className={styles.icon}>{icon}</div>}
      <p>{children}</p>
      {action}
    </div>
  );
}
