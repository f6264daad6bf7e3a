/** The approved viewer when the host has no toy connected: 'Device not found' and Request Device (`lovense-add-device-request`). */
import { useState } from 'react';
import { MSG } from '../../../common/messages';
import { RealtimeError } from '../../api/realtime';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { sendToyOperation } from './api';
import type { ToyPlace } from './toy-rules';
import styles from './toys.module.css';

export function DeviceNotFound({ place, requested }: { place: ToyPlace; requested: boolean }) {
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const request = () => {
    setSending(true);
    setError(null);
    sendToyOperation(place, { type: 'lovense-add-device-request' })
      .catch((reason: unknown) => setError(reason instanceof RealtimeError ? reason.message : String(reason)))
      .finally(() => setSending(false));
  };
  return (
    <section className={styles.card} aria-label={MSG.toyDeviceNotFound}>
      <h2 className={styles.cardTitle}>{MSG.toyDeviceNotFound}</h2>
      <p className={styles.muted}>{requested ? 'The broadcaster was asked to add a device.' : 'The broadcaster has no device connected right now.'}</p>
      <Button variant="secondary" loading={sending} disabled={requested} onClick={request}>
        Request Device
      </Button>
      <Alert>{error}</Alert>
    </section>
  );
}
