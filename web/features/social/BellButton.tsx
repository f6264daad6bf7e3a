import { BellIcon, BellOffIcon } from '../../ui/icons';
import { useSession } from '../accounts/api';
import { useSendToLogin } from '../accounts/use-require-login';
import { useToggleNotification } from './api';
import styles from './social.module.css';

/** The notification bell of a followed user (shown only while following). */
export function BellButton({ userId, on, onGuest }: { userId: number; on: boolean; onGuest?: () => void }) {
  const { isLoggedIn } = useSession();
  const sendToLogin = useSendToLogin();
  const toggle = useToggleNotification();
  const onClick = () => {
    if (!isLoggedIn) return (onGuest ?? sendToLogin)();
    if (!toggle.isPending) toggle.mutate({ id: userId, notify: !on });
  };
  return (
    <button
      type="button"
      className={`${styles.iconButton} ${on ? styles.on : ''}`}
      aria-label="Notifications"
      aria-pressed={on}
      title={on ? 'Notifications are on: turn them off' : 'Notifications are off: turn them on'}
      onClick={onClick}
    >
      {on ? <BellIcon size={18} /> : <BellOffIcon size={18} />}
    </button>
  );
}
