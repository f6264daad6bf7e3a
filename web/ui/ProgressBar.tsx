import type { ReactNode } from 'react';
import styles from './ProgressBar.module.css';

interface ProgressBarProps {
  /** The bar's accessible name, shown above it. */
  label: string;
  /** Whole percent, 0–100. */
  value: number;
  /** A line under the bar (time left, a state). */
  detail?: ReactNode;
  /** Read instead of the bare percentage ("40%, about 2 minutes left"). */
  valueText?: string;
  /** A quieter, thinner bar (one file of several). */
  size?: 'sm' | 'md';
  /** False when the text around the bar already says what it measures and how far: the label is then only read. */
  showHead?: boolean;
}

/** A determinate progress bar with its label and percentage (uploads). */
export function ProgressBar({ label, value, detail, valueText, size = 'md', showHead = true }: ProgressBarProps) {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className={`${styles.progress} ${styles[size]}`}>
      {showHead && (
        <div className={styles.head}>
          <span className={styles.label}>{label}</span>
          <span className={styles.percent} aria-hidden="true">
            {percent}%
          </span>
        </div>
      )}
      <div
        className={styles.track}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={valueText ?? `${percent}%`}
      >
        <span className={styles.fill} style={{ width: `${percent}%` }} />
      </div>
      {detail && <p className={styles.detail}>{detail}</p>}
    </div>
  );
}
