import { useState } from 'react';
import type { FormEvent } from 'react';
import { recovery } from '../../../../common/api/calls';
import { failureMessage, schemaErrors } from '../../../api/field-errors';
import { useCallMutation } from '../../../api/use-call-mutation';
import { Button } from '../../../ui/Button';
import { SignInNameField } from '../CredentialFields';
import form from '../../../ui/form.module.css';
import * as recoverySchemas from '../../../../common/api/recovery';

/** Step 1: who is recovering. The answer is the masked address the code would go to. */
export function UsernameStep({ initial, onFound }: { initial: string; onFound: (username: string, email: string) => void }) {
  const lookup = useCallMutation(recovery.getRecoveryEmail);
  const [username, setUsername] = useState(initial);
  const [error, setError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = { username: username.trim() };
    const problem = schemaErrors(recoverySchemas.getRecoveryEmail.input, input).username;
    setError(problem);
    if (problem) return;
    lookup.mutate(input, {
      onSuccess: (out) => onFound(input.username, out.email),
      onError: (err) => setError(failureMessage(err)),
    });
  };

  return (
    <form className={form.form} onSubmit={onSubmit} noValidate aria-label="Find your account">
      <SignInNameField
        value={username}
        onChange={(value) => {
          setUsername(value);
          setError(undefined);
        }}
        error={error}
      />
      <Button type="submit" size="lg" block loading={lookup.isPending}>
        Continue
      </Button>
    </form>
  );
}
