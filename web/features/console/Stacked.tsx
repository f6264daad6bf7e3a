import styles from './Console.module.css';

/** A table cell of two lines: the value, and a muted line under it (the whole in its title). */
export function Stacked({ main, sub, title }: { main: string; sub: string; title?: string }) {
  return (
    <span className={styles.stacked} title={title}>
      {main}
      <span className={styles.muted}>{sub}</span>
    </span>
  );
}
