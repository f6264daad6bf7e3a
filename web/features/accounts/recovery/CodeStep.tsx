import { useState } from 'react';
import type { FormEvent } from 'react';
import { recovery } from '../../../../common/api/calls';
import { MSG } from '../../../../common/messages';
import { failureMessage } from '../../../api/field-errors';
import { useCallMutation } from '../../../api/use-call-mutation';
import { Button } from '../../../ui/Button';
import { CodeInput } from '../../../ui/CodeInput';
import { emptyCode } from '../../../ui/code-input';
import { FieldError } from '../../../ui/Field';
import { useToast } from '../../../ui/Toast';
import form from '../../../ui/form.module.css';
import styles from './recovery.module.css';

const CODE_LENGTH = 6;

interface CodeStepProps {
  username: string;
  email: string;
  onVerified: (code: string) => void;
}

/** Step 3: the six boxes, checked by the server before a new password is asked for. */
export function CodeStep({ username, email, onVerified }: CodeStepProps) {
  const check = useCallMutation(recovery.checkRecoveryCode);
  const resend = useCallMutation(recovery.sendRecoveryCode);
  const toast = useToast();
  const [digits, setDigits] = useState(() => emptyCode(CODE_LENGTH));
  const [error, setError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const recoveryCode = digits.join('');
    if (recoveryCode.length < CODE_LENGTH) {
      setError(MSG.recoveryCodeRequired);
      return;
    }
    check.mutate(
      { username, recoveryCode },
      { onSuccess: () => onVerified(recoveryCode), onError: (err) => setError(failureMessage(err)) },
    );
  };

  const onResend = () =>
    resend.mutate(
      { username },
      {
        onSuccess: (out) => {
          setDigits(emptyCode(CODE_LENGTH));
          setError(undefined);
          toast({ title: 'A new code is on its way', description: `Sent to ${out.email}`, tone: 'success' });
        },
        onError: (err) => setError(failureMessage(err)),
      },
    );

  return (
    <form className={form.form} onSubmit={onSubmit} noValidate aria-label="Recovery code">
      <p className={styles.lead}>
        Enter the six-digit code we sent to <strong>{email}</strong>.
      </p>
      <CodeInput
        label="Recovery code"
        value={digits}
        onChange={(next) => {
          setDigits(next);
          setError(undefined);
        }}
        invalid={Boolean(error)}
        describedBy={error ? 'recovery-code-error' : undefined}
        autoFocus
      />
      <FieldError id="recovery-code-error" message={error} />
      <Button type="submit" size="lg" block loading={check.isPending}>
        Verify Code
      </Button>
      <p className={form.switch}>
        Didn&apos;t get it?{' '}
        <button type="button" className={styles.textButton} onClick={onResend} disabled={resend.isPending}>
          {resend.isPending ? 'Sending…' : 'Resend code'}
        </button>
      </p>
    </form>
  );
}
