import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { FieldError } from './Field';
import styles from './Checkbox.module.css';

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> & {
  children: ReactNode;
  error?: string | undefined;
};

export function Checkbox({ children, error, className, ...input }: CheckboxProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <div className={styles.row}>
        <input
          id={id}
          type="checkbox"
          className={styles.box}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        <label htmlFor={id} className={styles.label}>
          {children}
        </label>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
