import { useId, useState } from 'react';
import { STAR_PATH } from './StarRating';
import styles from './StarRatingInput.module.css';

const STARS = [1, 2, 3, 4, 5] as const;

interface StarRatingInputProps {
  /** The chosen number of stars, or null before a choice. */
  value: number | null;
  onChange: (stars: number) => void;
  /** Names the group for assistive tech ("Rate this stream"). */
  label: string;
  size?: number;
  disabled?: boolean;
}

/**
 * Pick 1–5 stars. Native radios give the radio-group semantics and keyboard (arrows move and choose,
 * Tab leaves); pointing at a star previews that many before the click.
 */
export function StarRatingInput({ value, onChange, label, size = 30, disabled = false }: StarRatingInputProps) {
  const name = useId();
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? value ?? 0;
  return (
    <div role="radiogroup" aria-label={label} className={styles.group} onPointerLeave={() => setHover(null)}>
      {STARS.map((stars) => (
        <label key={stars} className={styles.star} onPointerEnter={() => !disabled && setHover(stars)}>
          <input
            type="radio"
            className={styles.radio}
            name={name}
            value={stars}
            checked={value === stars}
            disabled={disabled}
            onChange={() => onChange(stars)}
          />
          <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" className={stars <= shown ? styles.on : styles.off}>
            <path d={STAR_PATH} />
          </svg>
          <span className="visually-hidden">{stars === 1 ? '1 star' : `${stars} stars`}</span>
        </label>
      ))}
    </div>
  );
}
