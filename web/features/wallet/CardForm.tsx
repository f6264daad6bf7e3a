/** The card fields (number in groups of four, expiry month / year, CVC, name); used by deposit and add-card. */
import type { FieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { SelectControl } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import { Field } from '../../ui/Field';
import { spacedCardNumber } from './card';
import type { CardValues } from './card';
import styles from './wallet.module.css';

const MONTHS = Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: String(i + 1).padStart(2, '0') }));

function yearOptions(now = new Date()) {
  return Array.from({ length: 15 }, (_, i) => String(now.getFullYear() + i)).map((y) => ({ value: y, label: y }));
}

/** A test card the sandbox provider accepts; shown in development builds only. */
export const TEST_CARD_HINT = import.meta.env.PROD ? null : 'Test card: 4242 4242 4242 4242, any future date, any CVC.';

interface CardFieldsProps {
  values: CardValues;
  errors: FieldErrors;
  onChange: (name: keyof CardValues, value: string) => void;
  disabled?: boolean;
}

export function CardFields({ values, errors, onChange, disabled = false }: CardFieldsProps) {
  const expiryError = errors.exp_month ?? errors.exp_year;
  return (
    <div className={styles.cardFields}>
      {TEST_CARD_HINT && <Alert tone="info">{TEST_CARD_HINT}</Alert>}
      <TextField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 5678 9012 3456"
        value={values.number}
        onChange={(e) => onChange('number', spacedCardNumber(e.target.value))}
        error={errors.number}
        disabled={disabled}
      />
      <div className={styles.cardRow}>
        <Field label="Expiry" error={expiryError}>
          {({ inputId, describedBy, invalid }) => (
            <div className={styles.expiry}>
              <SelectControl
                id={inputId}
                aria-label="Expiry month"
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                autoComplete="cc-exp-month"
                placeholder="MM"
                options={MONTHS}
                value={values.exp_month}
                onChange={(e) => onChange('exp_month', e.target.value)}
                disabled={disabled}
              />
              <SelectControl
                aria-label="Expiry year"
                aria-invalid={invalid || undefined}
                autoComplete="cc-exp-year"
                placeholder="YYYY"
                options={yearOptions()}
                value={values.exp_year}
                onChange={(e) => onChange('exp_year', e.target.value)}
                disabled={disabled}
              />
            </div>
          )}
        </Field>
        <TextField
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={4}
          placeholder="123"
          value={values.cvc}
          onChange={(e) => onChange('cvc', e.target.value.replace(/\D/g, ''))}
          error={errors.cvc}
          disabled={disabled}
        />
      </div>
      <TextField
        label="Name on card"
        autoComplete="cc-name"
        maxLength={100}
        value={values.name}
        onChange={(e) => onChange('name', e.target.value)}
        error={errors.name}
        disabled={disabled}
      />
    </div>
  );
}

/** "Visa •••• 4242 · 12/2030" */
export function cardLabel(card: { brand: string; last4: string; exp_month: number; exp_year: number }): string {
  return `${card.brand} •••• ${card.last4} · ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
}
