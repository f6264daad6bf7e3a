import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { Field } from './Field';
import fieldStyles from './Field.module.css';
import styles from './TextArea.module.css';

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
};

export function TextArea({ label, error, hint, className, ...textarea }: TextAreaProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {({ inputId, describedBy, invalid }) => (
        <textarea
          id={inputId}
          className={[fieldStyles.control, styles.textarea, className].filter(Boolean).join(' ')}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          {...textarea}
        />
      )}
    </Field>
  );
}
