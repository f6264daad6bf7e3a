import { useId } from 'react';
import { FieldError } from '../../ui/Field';
import fieldStyles from '../../ui/Field.module.css';
import { SelectControl } from '../../ui/Select';
import styles from './BirthdayField.module.css';

export interface BirthdayParts {
  day: string;
  month: string;
  year: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad = (n: number) => String(n).padStart(2, '0');
const DAY_OPTIONS = Array.from({ length: 31 }, (_, i) => ({ value: pad(i + 1), label: String(i + 1) }));
const MONTH_OPTIONS = MONTHS.map((label, i) => ({ value: pad(i + 1), label }));
const THIS_YEAR = new Date().getFullYear();
const YEAR_OPTIONS = Array.from({ length: THIS_YEAR - 1900 + 1 }, (_, i) => ({ value: String(THIS_YEAR - i), label: String(THIS_YEAR - i) }));

/** "DD-MM-YYYY" as the contract wants it, or '' until all three parts are chosen. */
export function birthdayText({ day, month, year }: BirthdayParts): string {
  return day && month && year ? `${day}-${month}-${year}` : '';
}

interface BirthdayFieldProps {
  value: BirthdayParts;
  onChange: (value: BirthdayParts) => void;
  error?: string | undefined;
}

/** Day, month and year selects under one legend. */
export function BirthdayField({ value, onChange, error }: BirthdayFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const common = { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined } as const;
  return (
    <fieldset className={styles.fieldset}>
      <legend className={fieldStyles.label}>Birthday</legend>
      <div className={styles.parts}>
        <SelectControl aria-label="Day" placeholder="Day" options={DAY_OPTIONS} value={value.day} onChange={(e) => onChange({ ...value, day: e.target.value })} {...common} />
        <SelectControl aria-label="Month" placeholder="Month" options={MONTH_OPTIONS} value={value.month} onChange={(e) => onChange({ ...value, month: e.target.value })} {...common} />
        <SelectControl aria-label="Year" placeholder="Year" options={YEAR_OPTIONS} value={value.year} onChange={(e) => onChange({ ...value, year: e.target.value })} {...common} />
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
