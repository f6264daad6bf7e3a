import { BellIcon, BellOffIcon } from '../../ui/icons';
import { useToggleNotification } from './api';
import styles from './social.module.css';
import { useToggleClick } from './use-toggle-click';

/** The notification bell of a followed user (shown only while following). */
export function BellButton({ userId, on, onGuest }: { userId: number; on: boolean; onGuest?: () => void }) {
  const toggle = useToggleClick(useToggleNotification(), onGuest);
  return (
    <button
      type="button"
      className={`${styles.iconButton} ${on ? styles.on : ''}`}
      aria-label="Notifications"
      aria-pressed={on}
      title={on ? 'Notifications are on: turn them off' : 'Notifications are off: turn them on'}
      onClick={() => toggle({ id: userId, notify: !on })}
    >
      {on ? <BellIcon size={18} /> : <BellOffIcon size={18} />}
    </button>
  );
}
