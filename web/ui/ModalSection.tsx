/** A titled part of a modal below its main content, set off by a rule (moderator actions, earnings). */
import { useId } from 'react';
import type { ReactNode } from 'react';
import styles from './ModalSection.module.css';

export function ModalSection({ title, busy, children }: { title: string; busy?: boolean; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className={styles.section} aria-labelledby={headingId} aria-busy={busy}>
      <h3 id={headingId} className={styles.heading}>
        {title}
      </h3>
      {children}
    </section>
  );
}
