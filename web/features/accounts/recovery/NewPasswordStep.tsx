import { useState } from 'react';
import type { FormEvent } from 'react';
import { recovery } from '../../../../common/api';
import { MSG } from '../../../../common/messages';
import { failureMessage, hasErrors, schemaErrors, serverFieldErrors } from '../../../api/field-errors';
import type { FieldErrors } from '../../../api/field-errors';
import { useCallMutation } from '../../../api/use-call-mutation';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { PasswordField } from '../../../ui/PasswordField';
import form from '../form.module.css';

/** Step 4: the new password, twice. Success ends every session of the account. */
export function NewPasswordStep({ username, recoveryCode, onReset }: { username: string; recoveryCode: string; onReset: () => void }) {
  const reset = useCallMutation(recovery.resetPassword);
  const [values, setValues] = useState({ userPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  const set = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const input = { username, recoveryCode, ...values };
    const problems = schemaErrors(recovery.resetPassword.input, input);
    // The schema compares the two only once the password itself passes; say it at once.
    if (!problems.confirmPassword && values.confirmPassword !== values.userPassword) problems.confirmPassword = MSG.passwordsDoNotMatch;
    setErrors(problems);
    if (hasErrors(problems)) return;
    reset.mutate(input, {
      onSuccess: onReset,
      onError: (error) => {
        const fields = serverFieldErrors(error);
        if (fields.userPassword || fields.confirmPassword) setErrors(fields);
        else setMessage(failureMessage(error));
      },
    });
  };

  return (
    <form className={form.form} onSubmit={onSubmit} noValidate aria-label="Choose a new password">
      <Alert>{message}</Alert>
      <PasswordField
        label="New Password"
        autoComplete="new-password"
        value={values.userPassword}
        onChange={(e) => set('userPassword')(e.target.value)}
        error={errors.userPassword}
        hint="At least 8 characters"
        autoFocus
      />
      <PasswordField
        label="Confirm Password"
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={(e) => set('confirmPassword')(e.target.value)}
        error={errors.confirmPassword}
      />
      <Button type="submit" size="lg" block loading={reset.isPending}>
        Save Password
      </Button>
    </form>
  );
}
