import { Fragment } from 'react';
import type { NotificationKey } from '../../../common/api/settings';
import { MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { Spinner } from '../../ui/Spinner';
import { Switch } from '../../ui/Switch';
import { useToast } from '../../ui/Toast';
import { PushSwitch } from '../notifications';
import { usePreferences, useUpdatePreferences } from './api';
import styles from './SettingsPage.module.css';

const GROUPS: Array<{ title: string; items: Array<{ key: NotificationKey; label: string; description: string }> }> = [
  {
    title: 'Tell me about',
    items: [
      { key: 'notify_stream_start', label: 'Live streams', description: 'When someone you follow goes live' },
      { key: 'notify_new_follower', label: 'New followers', description: 'When someone follows you' },
      { key: 'notify_stream_share', label: 'Shared streams', description: 'When someone shares a stream with you' },
      { key: 'notify_daily_stats', label: 'Daily stats', description: 'A daily summary of your streams and earnings' },
      { key: 'notify_chat', label: 'Chat', description: 'Messages sent to you in chat' },
    ],
  },
  {
    title: 'Reach me by',
    items: [
      { key: 'notify_via_email', label: 'By email', description: 'Notifications in your inbox' },
      { key: 'notify_via_push', label: 'By push notification', description: 'On your phone and in the browser' },
      { key: 'notify_via_text', label: 'By text message', description: 'SMS to your phone' },
    ],
  },
];

/** The eight notify_* switches; each one is saved as soon as it moves. Text messages need a phone number first. */
export function NotificationSettings({ userId, phone }: { userId: number; phone: string | null }) {
  const preferences = usePreferences(userId);
  const update = useUpdatePreferences(userId);
  const toast = useToast();
  const notifications = preferences.data?.notifications;
  if (preferences.isError) return <p role="alert">Your notification settings could not be loaded. Please reload the page.</p>;
  if (!notifications) return <Spinner label="Loading notification settings" />;

  const toggle = (key: NotificationKey, on: boolean) =>
    update.mutate(
      { [key]: on },
      {
        onSuccess: () => toast({ title: MSG.settingsUpdated, tone: 'success' }),
        onError: (error) => toast({ title: isApiError(error) && error.status === 400 ? error.message : MSG.notifyFailed, tone: 'error' }),
      },
    );

  return (
    <div className={styles.groups}>
      {GROUPS.map((group) => (
        <fieldset key={group.title} className={styles.group}>
          <legend className={styles.legend}>{group.title}</legend>
          {group.items.map((item) => (
            <Fragment key={item.key}>
              <Switch
                label={item.label}
                description={item.key === 'notify_via_text' && !phone ? MSG.phoneNeededForText : item.description}
                checked={notifications[item.key]}
                onCheckedChange={(on) => toggle(item.key, on)}
                disabled={item.key === 'notify_via_text' && !phone && !notifications.notify_via_text}
              />
              {/* This browser's Web Push subscription, under the preference that lets pushes be sent. */}
              {item.key === 'notify_via_push' && (
                <PushSwitch onSubscribed={() => !notifications.notify_via_push && toggle('notify_via_push', true)} />
              )}
            </Fragment>
          ))}
        </fieldset>
      ))}
    </div>
  );
}
