import type { ReactNode } from 'react';
import styles from './Notice.module.css';

interface NoticeProps {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  /** A big glyph or illustration above the title. */
  art?: ReactNode;
}

/** A centred message panel: not found, login required, not allowed, empty states. */
export function Notice({ title, children, actions, art }: NoticeProps) {
  return (
    <section className={styles.notice} aria-labelledby="notice-title">
      {art && <div className={styles.art}>{art}</div>}
      <h1 id="notice-title" className={styles.title}>
        {title}
      </h1>
      {children && <div className={styles.body}>{children}</div>}
      {actions && <div className={styles.actions}>{actions}</div>}
    </section>
  );
}
