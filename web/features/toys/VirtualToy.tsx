/**
 * The simulated toy (TOYS=simulated) in the host's page: a "device connected" switch, an intensity
 * meter, and the commands it received, so the whole flow runs without hardware.
 */
import type { ToyDevice } from '../../../common/api/toys';
import { TOY_COMMANDS } from '../../../common/rules/toys';
import { Switch } from '../../ui/Switch';
import { useSetToyDevice } from './api';
import type { ReceivedCommand } from './use-received-commands';
import styles from './toys.module.css';

export function VirtualToy({ device, received }: { device: ToyDevice; received: readonly ReceivedCommand[] }) {
  const setDevice = useSetToyDevice();
  const last = received[0] ?? null;
  const command = last?.command ?? 'Vibrate';
  const level = last?.level ?? device.levels[command] ?? 0;
  const { max } = TOY_COMMANDS[command];
  const toyNames = device.toys.map((toy) => toy.nickname || toy.name).join(', ');
  return (
    <section className={styles.card} aria-label="Virtual toy">
      <h2 className={styles.cardTitle}>Virtual toy</h2>
      <Switch
        label="Device connected"
        description={device.connected ? `Simulated: ${toyNames || 'Lush'}` : 'Switch on to let a viewer control it.'}
        checked={device.connected}
        disabled={setDevice.isPending}
        onCheckedChange={(connected) => setDevice.mutate({ connected })}
      />
      <div className={styles.sliderHead}>
        <span id="virtual-toy-meter">{command} intensity</span>
        <span>
          {level} / {max}
        </span>
      </div>
      <div className={styles.meter} role="meter" aria-labelledby="virtual-toy-meter" aria-valuemin={0} aria-valuemax={max} aria-valuenow={level}>
        <div className={styles.meterFill} style={{ width: `${(level / max) * 100}%` }} />
      </div>
      {received.length === 0 ? (
        <p className={styles.muted}>No commands yet.</p>
      ) : (
        <ol className={styles.received} aria-label="Commands received" tabIndex={0}>
          {received.map((item) => (
            <li key={item.seq}>
              <span>
                {item.command} {item.level}
              </span>
              <time dateTime={item.at}>{new Date(item.at).toLocaleTimeString()}</time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
