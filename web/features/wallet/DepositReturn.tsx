/**
 * Back from the processor's page (decision 0055): what became of the payment, as the server says. The
 * webhook usually lands first; the server also asks the processor, and this asks again for a while.
 */
import { useEffect, useState } from 'react';
import { fill, MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { useBalance, useDepositResult } from './api';
import { DepositActions, DepositThanks } from './DepositThanks';
import styles from './wallet.module.css';

/** How long the page keeps asking before it says the coins will come when the payment is confirmed. */
const PATIENCE_MS = 30_000;

export function DepositReturn({ paymentId, cancelled, onDone }: { paymentId: number; cancelled: boolean; onDone: () => void }) {
  const [patient, setPatient] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setPatient(false), PATIENCE_MS);
    return () => clearTimeout(timer);
  }, []);
  const result = useDepositResult(paymentId, patient && !cancelled);
  const balance = useBalance(result.data?.status === 'succeeded');
  const status = result.data?.status;
  const again = <DepositActions onBuyMore={onDone} />;

  if (result.isError) return <Alert>{failureMessage(result.error)}</Alert>;
  if (status === 'succeeded') {
    return (
      <DepositThanks onBuyMore={onDone}>
        <p>{fill(MSG.depositCredited, { coins: result.data!.coins.toLocaleString('en-US') })}</p>
        {balance.data && <p className={styles.muted}>New balance: {formatCoins(balance.data.CON)}</p>}
        {result.data!.provider_reference && <p className={styles.muted}>Payment reference: {result.data!.provider_reference}</p>}
      </DepositThanks>
    );
  }
  if (status === 'pending' && !cancelled && patient) {
    return (
      <Section title="Payment">
        <Spinner label={MSG.depositPending} />
        <p className={styles.muted} role="status">{MSG.depositPending}</p>
      </Section>
    );
  }
  const text = status === undefined ? null : status === 'pending' ? (cancelled ? MSG.depositCancelled : MSG.depositStillPending) : MSG.depositRefused;
  return (
    <Section title="Payment">
      {text ? <Alert tone={status === 'pending' && !cancelled ? 'info' : undefined}>{text}</Alert> : <Spinner label={MSG.depositPending} />}
      {text && again}
    </Section>
  );
}
