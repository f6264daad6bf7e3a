import type { InputHTMLAttributes, ReactNode } from 'react';
import { Field } from './Field';
import fieldStyles from './Field.module.css';

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
};

export function TextField({ label, error, hint, className, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {({ inputId, describedBy, invalid }) => (
        <input
          id={inputId}
          className={[fieldStyles.control, className].filter(Boolean).join(' ')}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          {...input}
        />
      )}
    </Field>
  );
}
