/**
 * The stream price control shared by Get Paid and Broadcast setup (spec part 1 §5 Broadcast setup):
 * a slider 0–1000 in steps of 10 and a number field kept in step with it. The form owns the typed
 * text and its checks (stream-payment.ts priceError); this only draws and syncs the two controls.
 */
import { Slider } from 'radix-ui';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { TextField } from '../../ui/TextField';
import { PRICE_MAX, PRICE_STEP, minPrice, sliderPosition } from './stream-payment';
import styles from './PriceField.module.css';

interface PriceFieldProps {
  /** The stream's saved price: once paid, the range starts at one step. */
  current: number;
  /** The typed price, as text (the field may hold something that is not a price yet). */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** A heading over the slider and the field, for a form where the price is one part among others. */
  legend?: string;
  label?: string;
  className?: string;
  disabled?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
}

export function PriceField({ current, value, onChange, onBlur, legend, label = 'Price (coins)', className, disabled = false, error, hint }: PriceFieldProps) {
  const low = minPrice(current);
  // The thumb follows a readable typed price and stays put while the field holds something else.
  const [thumb, setThumb] = useState(() => sliderPosition(value, current, current));

  const type = (text: string) => {
    setThumb((at) => sliderPosition(text, current, at));
    onChange(text);
  };

  return (
    <fieldset className={[styles.priceField, className].filter(Boolean).join(' ')}>
      {legend && <legend className={styles.legend}>{legend}</legend>}
      <Slider.Root
        className={styles.slider}
        min={low}
        max={PRICE_MAX}
        step={PRICE_STEP}
        value={[thumb]}
        disabled={disabled}
        onValueChange={([at = low]) => {
          setThumb(at);
          onChange(String(at));
        }}
      >
        <Slider.Track className={styles.track}>
          <Slider.Range className={styles.range} />
        </Slider.Track>
        <Slider.Thumb className={styles.thumb} aria-label="Price in coins" />
      </Slider.Root>
      <div className={styles.scale} aria-hidden="true">
        <span>{low}</span>
        <span>{PRICE_MAX}</span>
      </div>
      <TextField
        label={label}
        className={styles.priceInput}
        type="number"
        inputMode="numeric"
        min={low}
        max={PRICE_MAX}
        step={PRICE_STEP}
        value={value}
        disabled={disabled}
        onChange={(e) => type(e.target.value)}
        onBlur={onBlur}
        error={error}
        hint={hint}
      />
    </fieldset>
  );
}
