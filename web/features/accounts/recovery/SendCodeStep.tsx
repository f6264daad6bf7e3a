import { recovery } from '../../../../common/api/calls';
import { failureMessage } from '../../../api/field-errors';
import { useCallMutation } from '../../../api/use-call-mutation';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import form from '../../../ui/form.module.css';
import styles from './recovery.module.css';

interface SendCodeStepProps {
  username: string;
  email: string;
  onSent: (email: string) => void;
  onBack: () => void;
}

/** Step 2: the masked recovery address, and the button that mails the code there. */
export function SendCodeStep({ username, email, onSent, onBack }: SendCodeStepProps) {
  const send = useCallMutation(recovery.sendRecoveryCode);
  return (
    <div className={form.form}>
      <p className={styles.lead}>We will send a six-digit recovery code to</p>
      <p className={styles.address}>{email}</p>
      <p className={styles.note}>The code is valid for 15 minutes. Check your spam folder if it does not arrive.</p>
      <Alert>{send.error && failureMessage(send.error)}</Alert>
      <Button size="lg" block loading={send.isPending} onClick={() => send.mutate({ username }, { onSuccess: (out) => onSent(out.email) })}>
        Send Code
      </Button>
      <button type="button" className={styles.textButton} onClick={onBack}>
        Not you? Use another username
      </button>
    </div>
  );
}
