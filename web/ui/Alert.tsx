import type { ReactNode } from 'react';
import styles from './Alert.module.css';

/** A form-level message (a refusal that belongs to no single field); renders nothing without one. */
export function Alert({ children, tone = 'error' }: { children: ReactNode; tone?: 'error' | 'info' }) {
  if (!children) return null;
  return (
    <p className={`${styles.alert} ${styles[tone]}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}
