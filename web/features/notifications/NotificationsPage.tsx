/** /user/notifications (signed in): every notification, newest first, with Load more and Mark all as read. */
import type { NotificationItem } from '../../../common/api/notifications';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { BellIcon } from '../../ui/icons';
import { LoadMore } from '../../ui/LoadMore';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useUnreadCount } from './api';
import { useMarkRead, useNotificationPages } from './list-api';
import { flattenPages } from './notification-rules';
import { NotificationRow } from './NotificationRow';
import styles from './notifications.module.css';
import { useNow } from './use-now';

export function NotificationsPage() {
  const list = useNotificationPages();
  const unread = useUnreadCount(true).data ?? 0;
  const markRead = useMarkRead();
  const now = useNow();
  const open = (item: NotificationItem) => {
    if (!item.read) markRead.mutate({ ids: [item.id] });
  };
  const items = list.data ? flattenPages(list.data.pages) : [];
  return (
    <Page
      title="Notifications"
      width="narrow"
      aside={
        <Button size="sm" variant="secondary" disabled={unread === 0} onClick={() => markRead.mutate({ all: true })}>
          Mark all as read
        </Button>
      }
    >
      {list.isPending ? (
        <Spinner label="Loading your notifications" />
      ) : list.isError ? (
        <Alert>Your notifications could not be loaded. Please reload the page.</Alert>
      ) : items.length === 0 ? (
        <EmptyState icon={<BellIcon size={32} />}>No notifications yet</EmptyState>
      ) : (
        <>
          <ul className={`${styles.list} ${styles.pageList}`} aria-label="All notifications">
            {items.map((item) => (
              <li key={item.id}>
                <NotificationRow item={item} onOpen={open} now={now} />
              </li>
            ))}
          </ul>
          <LoadMore list={list} />
        </>
      )}
    </Page>
  );
}
