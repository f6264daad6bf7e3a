import type { FormEvent } from 'react';
import { recovery } from '../../../../common/api/calls';
import { formRefusal, hasErrors, schemaErrors } from '../../../api/field-errors';
import { useCallMutation } from '../../../api/use-call-mutation';
import { useFormState } from '../../../api/use-form-state';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { NewPasswordFields, withPasswordMatch } from '../CredentialFields';
import form from '../../../ui/form.module.css';
import * as recoverySchemas from '../../../../common/api/recovery';

const FORM_FIELDS = new Set(['userPassword', 'confirmPassword']);

/** Step 4: the new password, twice. Success ends every session of the account. */
export function NewPasswordStep({ username, recoveryCode, onReset }: { username: string; recoveryCode: string; onReset: () => void }) {
  const reset = useCallMutation(recovery.resetPassword);
  const state = useFormState({ userPassword: '', confirmPassword: '' });
  const { values, errors, field } = state;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    state.setMessage(null);
    const input = { username, recoveryCode, ...values };
    const problems = withPasswordMatch(schemaErrors(recoverySchemas.resetPassword.input, input), 'confirmPassword', values.userPassword, values.confirmPassword);
    state.setErrors(problems);
    if (hasErrors(problems)) return;
    reset.mutate(input, { onSuccess: onReset, onError: (error) => state.refuse(formRefusal(error, FORM_FIELDS)) });
  };

  return (
    <form className={form.form} onSubmit={onSubmit} noValidate aria-label="Choose a new password">
      <Alert>{state.message}</Alert>
      <NewPasswordFields
        label="New Password"
        password={values.userPassword}
        confirm={values.confirmPassword}
        onPasswordChange={field('userPassword')}
        onConfirmChange={field('confirmPassword')}
        passwordError={errors.userPassword}
        confirmError={errors.confirmPassword}
        hint="At least 8 characters"
        autoFocus
      />
      <Button type="submit" size="lg" block loading={reset.isPending}>
        Save Password
      </Button>
    </form>
  );
}
