/** A radio group drawn as cards, each with a label and a line saying what it means; the chosen one is outlined. */
import type { ReactNode } from 'react';
import styles from './ChoiceCard.module.css';

export interface Choice<T extends string> {
  value: T;
  label: string;
  description: string;
}

export function ChoiceCards<T extends string>({ name, legend, choices, value, onChange, wide = false }: {
  name: string;
  /** The group's name (a visually hidden one where the page says it already). */
  legend: ReactNode;
  choices: ReadonlyArray<Choice<T>>;
  value: T;
  onChange: (value: T) => void;
  /** Side by side where there is room, rather than one above the other. */
  wide?: boolean;
}) {
  return (
    <fieldset className={`${styles.choices} ${wide ? styles.wide : ''}`}>
      <legend className={styles.legend}>{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.value} className={`${styles.choice} ${styles.card} ${value === choice.value ? styles.chosen : ''}`}>
          <input type="radio" name={name} value={choice.value} checked={value === choice.value} onChange={() => onChange(choice.value)} />
          <span className={styles.text}>
            <strong>{choice.label}</strong>
            <small className={styles.description}>{choice.description}</small>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
