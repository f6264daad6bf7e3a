import styles from './Spinner.module.css';

interface SpinnerProps {
  /** Read to screen readers; leave out when the surrounding control already says it is busy. */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
}

export function Spinner({ label, size = 'md' }: SpinnerProps) {
  return (
    <span className={`${styles.spinner} ${styles[size]}`} role={label ? 'status' : undefined} aria-hidden={label ? undefined : true}>
      {label && <span className="visually-hidden">{label}</span>}
    </span>
  );
}
