/** The bell's panel (loaded on first open): the newest notifications, Mark all as read and See all. */
import type { NotificationItem } from '../../../common/api/notifications';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { useUnreadCount } from './api';
import { useLatestNotifications, useMarkRead } from './list-api';
import { NotificationRow } from './NotificationRow';
import styles from './notifications.module.css';
import { useNow } from './use-now';

export function NotificationPanel({ onClose }: { onClose: () => void }) {
  const latest = useLatestNotifications();
  const unread = useUnreadCount(true).data ?? 0;
  const markRead = useMarkRead();
  const now = useNow();
  const open = (item: NotificationItem) => {
    if (!item.read) markRead.mutate({ ids: [item.id] });
    onClose();
  };
  return (
    <>
      <header className={styles.panelHeader}>
        <h2 className={styles.panelTitle}>Notifications</h2>
        <Button size="sm" variant="ghost" disabled={unread === 0} onClick={() => markRead.mutate({ all: true })}>
          Mark all as read
        </Button>
      </header>
      <div className={styles.panelBody}>
        {latest.isPending ? (
          <div className={styles.state}>
            <Spinner label="Loading your notifications" />
          </div>
        ) : latest.isError ? (
          <div className={styles.state}>
            <Alert>Your notifications could not be loaded. Please try again.</Alert>
          </div>
        ) : latest.data.notifications.length === 0 ? (
          <p className={styles.empty}>No notifications yet</p>
        ) : (
          <ul className={styles.list} aria-label="Latest notifications">
            {latest.data.notifications.map((item) => (
              <li key={item.id}>
                <NotificationRow item={item} onOpen={open} now={now} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <footer className={styles.panelFooter}>
        <SkinLink to="/user/notifications" className={styles.seeAll} onClick={onClose}>
          See all
        </SkinLink>
      </footer>
    </>
  );
}
