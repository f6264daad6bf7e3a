/** The host's Lovense app as the SDK reports it (TOYS=lovense): connected or not, setting up, or failed. */
import type { ToyDevice } from '../../../common/api/toys';
import { MSG } from '../../../common/messages';
import { Alert } from '../../ui/Alert';
import { Spinner } from '../../ui/Spinner';
import styles from './toys.module.css';

export function LovenseStatus({ device, initialising, error }: { device: ToyDevice; initialising: boolean; error: string | null }) {
  const connected = device.app_connection_status === 'connected';
  return (
    <section className={styles.card} aria-label="Lovense device">
      <h2 className={styles.cardTitle}>Lovense device</h2>
      {initialising ? <Spinner label="Connecting to Lovense" /> : <p className={`${styles.status} ${connected ? styles.connected : styles.disconnected}`}>{connected ? MSG.toyAppConnected : MSG.toyAppDisconnected}</p>}
      {device.toys.length > 0 && <p className={styles.muted}>{device.toys.map((toy) => toy.nickname || toy.name).join(', ')}</p>}
      <Alert>{error}</Alert>
    </section>
  );
}
