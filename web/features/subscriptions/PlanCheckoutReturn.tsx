/**
 * Back from the processor's page with a plan paid there (decision 0059): what became of the payment and
 * of the subscription, as the server says. The webhook usually lands first; the server also asks the
 * processor, and this asks again for a while.
 */
import { useEffect, useState } from 'react';
import { MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { CheckIcon } from '../../ui/icons';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { usePlanCheckoutResult } from './api';
import styles from './subscriptions.module.css';

/** How long the page keeps asking before it says the subscription will start when the payment is confirmed. */
const PATIENCE_MS = 30_000;

export function PlanCheckoutReturn({ paymentId, cancelled, onDone }: { paymentId: number; cancelled: boolean; onDone: () => void }) {
  const skinPath = useSkinPath();
  const [patient, setPatient] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setPatient(false), PATIENCE_MS);
    return () => clearTimeout(timer);
  }, []);
  const result = usePlanCheckoutResult(paymentId, patient && !cancelled);
  const out = result.data;
  const dismiss = <Button variant="secondary" onClick={onDone}>Close</Button>;

  let body;
  if (result.isError) body = <Alert>{failureMessage(result.error)}</Alert>;
  else if (!out || (out.state === 'pending' && patient && !cancelled)) body = <Spinner label={MSG.planCheckoutPending} />;
  else if (out.state === 'subscribed') {
    body = (
      <>
        <CheckIcon size={40} />
        <strong>{MSG.subscribedNow}</strong>
        <span>{out.plan_name} with @{out.creator.username}{out.subscription ? `: ${out.subscription.features.join(', ')}` : ''}.</span>
        {out.payment.provider_reference && <span className={styles.muted}>Payment reference: {out.payment.provider_reference}</span>}
      </>
    );
  } else if (out.state === 'kept') {
    body = (
      <>
        <Alert>{out.message}</Alert>
        <ButtonLink to={skinPath('/user/account')}>Go to Wallet</ButtonLink>
      </>
    );
  } else {
    const text = out.state === 'pending' ? (cancelled ? MSG.depositCancelled : MSG.planCheckoutPending) : cancelled ? MSG.depositCancelled : MSG.depositRefused;
    body = <Alert tone={out.state === 'pending' && !cancelled ? 'info' : undefined}>{text}</Alert>;
  }
  return (
    <Section title="Your payment">
      <div className={styles.result} role="status">
        {body}
        {dismiss}
      </div>
    </Section>
  );
}
