/**
 * The top bar's bell (signed-in users): the unread count, kept current by the user's channel, and a
 * panel of the newest notifications. The bell is on every page, so the panel's code is fetched only
 * when it is about to open (pointer over the bell, focus, or the click itself).
 */
import { Popover } from 'radix-ui';
import { lazy, Suspense, useState } from 'react';
import { BellIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { useNotificationFrames, useUnreadCount } from './api';
import topBar from '../../ui/TopBarButton.module.css';
import styles from './Bell.module.css';
import { badgeText, bellLabel } from './notification-rules';

const loadPanel = () => import('./views');
const NotificationPanel = lazy(async () => ({ default: (await loadPanel()).NotificationPanel }));

export function NotificationBell({ userId }: { userId: number }) {
  const [open, setOpen] = useState(false);
  useNotificationFrames(userId);
  const unread = useUnreadCount(true).data ?? 0;
  const badge = badgeText(unread);
  const preload = () => void loadPanel();
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger className={topBar.button} aria-label={bellLabel(unread)} onPointerEnter={preload} onFocus={preload}>
        <BellIcon size={22} />
        {badge && (
          <span className={topBar.badge} aria-hidden="true" data-testid="notification-badge">
            {badge}
          </span>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className={styles.panel} align="end" sideOffset={8} collisionPadding={8} aria-label="Notifications">
          <Suspense
            fallback={
              <div className={styles.loading}>
                <Spinner label="Loading your notifications" />
              </div>
            }
          >
            <NotificationPanel onClose={() => setOpen(false)} />
          </Suspense>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
