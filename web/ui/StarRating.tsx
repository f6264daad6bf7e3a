import styles from './StarRating.module.css';

/** The star outline, shared with StarRatingInput. */
export const STAR_PATH = 'M12 2.5l2.9 6 6.6.8-4.9 4.6 1.3 6.5L12 17.2l-5.9 3.2 1.3-6.5-4.9-4.6 6.6-.8z';

function Stars({ className, size }: { className: string | undefined; size: number }) {
  return (
    <span className={className} aria-hidden="true">
      {Array.from({ length: 5 }, (_, i) => (
        <svg key={i} width={size} height={size} viewBox="0 0 24 24">
          <path d={STAR_PATH} />
        </svg>
      ))}
    </span>
  );
}

/** A read-only 0–5 star rating; partial stars are filled by width. */
export function StarRating({ value, size = 16 }: { value: number; size?: number }) {
  const clamped = Math.min(5, Math.max(0, value));
  const label = `Rated ${clamped.toFixed(1).replace(/\.0$/, '')} out of 5`;
  return (
    <span className={styles.rating} role="img" aria-label={label} title={label}>
      <Stars className={styles.empty} size={size} />
      <span className={styles.fill} style={{ width: `${(clamped / 5) * 100}%` }}>
        <Stars className={styles.full} size={size} />
      </span>
    </span>
  );
}
