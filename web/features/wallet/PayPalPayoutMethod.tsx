/** PayPal as the payout method (decision 0064): the creator gives the PayPal email their payouts are sent to. */
import { useState } from 'react';
import { failureMessage } from '../../api/field-errors';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { useChoosePayPal } from './earnings-api';
import styles from './wallet.module.css';

export function PayPalPayoutMethod({ email }: { email: string | null }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(email ?? '');
  const choose = useChoosePayPal();
  if (email && !editing) {
    return (
      <div className={styles.toolbar} aria-label="PayPal payouts">
        <p role="status">Payouts are sent by PayPal to <strong>{email}</strong>.</p>
        <Button variant="secondary" onClick={() => setEditing(true)}>Change</Button>
      </div>
    );
  }
  return (
    <form className={styles.toolbar} aria-label="PayPal payouts" noValidate
      onSubmit={(e) => { e.preventDefault(); choose.mutate({ email: value }, { onSuccess: () => setEditing(false) }); }}>
      <TextField label="PayPal email" type="email" autoComplete="email" value={value} maxLength={254} onChange={(e) => setValue(e.target.value)}
        hint="Without a PayPal account on this email, PayPal keeps the payout 30 days for you to claim it."
        error={choose.isError ? failureMessage(choose.error) : undefined} />
      <Button type="submit" loading={choose.isPending}>Get paid with PayPal</Button>
    </form>
  );
}
