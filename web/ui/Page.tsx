import type { ReactNode } from 'react';
import styles from './Page.module.css';

interface PageProps {
  /** The page heading; leave out when the page draws its own header. */
  title?: ReactNode;
  /** Text or controls at the right of the heading. */
  aside?: ReactNode;
  width?: 'narrow' | 'wide';
  children: ReactNode;
}

/** The content column of a shell page: width, padding and heading the same everywhere. */
export function Page({ title, aside, width = 'wide', children }: PageProps) {
  return (
    <div className={`${styles.page} ${styles[width]}`}>
      {title && (
        <header className={styles.header}>
          <h1 className={styles.title}>{title}</h1>
          {aside}
        </header>
      )}
      {children}
    </div>
  );
}

/** A titled block inside a page (a card with a heading). */
export function Section({ title, description, children, actions }: { title: ReactNode; description?: ReactNode; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className={styles.section}>
      <header className={styles.sectionHeader}>
        <div>
          <h2 className={styles.sectionTitle}>{title}</h2>
          {description && <p className={styles.sectionDescription}>{description}</p>}
        </div>
        {actions}
      </header>
      {children}
    </section>
  );
}
