import type { ReactNode, SelectHTMLAttributes } from 'react';
import { Field } from './Field';
import fieldStyles from './Field.module.css';
import styles from './Select.module.css';

export interface SelectOption {
  value: string;
  label: string;
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: ReactNode;
  options: readonly SelectOption[];
  /** The first, empty choice ("Select..."); leave out to have none. */
  placeholder?: string;
  error?: string | undefined;
  hint?: ReactNode;
};

/** A native select (best keyboard and mobile behaviour) in the design system's look. */
export function Select({ label, options, placeholder, error, hint, className, ...select }: SelectProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {({ inputId, describedBy, invalid }) => (
        <SelectControl id={inputId} aria-invalid={invalid || undefined} aria-describedby={describedBy} className={className} options={options} placeholder={placeholder} {...select} />
      )}
    </Field>
  );
}

type SelectControlProps = SelectHTMLAttributes<HTMLSelectElement> & { options: readonly SelectOption[]; placeholder?: string | undefined };

/** The bare control, for groups that share one label (e.g. day / month / year). */
export function SelectControl({ options, placeholder, className, ...select }: SelectControlProps) {
  return (
    <span className={styles.wrap}>
      <select className={[fieldStyles.control, styles.select, className].filter(Boolean).join(' ')} {...select}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </span>
  );
}
