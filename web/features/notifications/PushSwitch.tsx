/**
 * "Push notifications on this browser" in the settings' notification section: shown only where the
 * browser can receive Web Push and the installation has a VAPID key; a line says so when the browser
 * blocked notifications for the site.
 */
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/client';
import { Switch } from '../../ui/Switch';
import { useToast } from '../../ui/Toast';
import { currentSubscription, pushPermission, PushRefused, pushSupported, PushUnavailable, turnPushOff, turnPushOn, usePushKey } from './push';
import type { PushPermission } from './push';
import styles from './push.module.css';

export const PUSH_BLOCKED =
  'Notifications are blocked for this site in your browser. Allow them in the browser’s site settings to get push notifications here.';

/** `onSubscribed`: this browser now receives pushes (the caller turns "By push notification" on if it was off). */
export function PushSwitch({ onSubscribed }: { onSubscribed: () => void }) {
  const supported = pushSupported();
  const key = usePushKey(supported);
  const toast = useToast();
  const [permission, setPermission] = useState<PushPermission>(() => pushPermission());
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!supported) return;
    let live = true;
    currentSubscription()
      .then((subscription) => live && setSubscribed(subscription !== null && Notification.permission === 'granted'))
      .catch(() => live && setSubscribed(false));
    return () => {
      live = false;
    };
  }, [supported]);

  // The person may allow (or block) notifications in the browser's site settings while the page is open.
  useEffect(() => {
    if (!supported || !navigator.permissions) return;
    let live = true;
    let status: PermissionStatus | null = null;
    const changed = () => setPermission(pushPermission());
    navigator.permissions
      .query({ name: 'notifications' })
      .then((found) => {
        if (!live) return;
        status = found;
        found.addEventListener('change', changed);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      status?.removeEventListener('change', changed);
    };
  }, [supported]);

  if (!supported || !key.data || subscribed === null) return null;
  const publicKey = key.data;

  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      if (on) {
        await turnPushOn(publicKey);
        setSubscribed(true);
        onSubscribed();
        toast({ title: 'Push notifications are on for this browser.', tone: 'success' });
      } else {
        await turnPushOff();
        setSubscribed(false);
        toast({ title: 'Push notifications are off for this browser.', tone: 'success' });
      }
    } catch (error) {
      if (!(error instanceof PushRefused)) toast({ title: failureText(error), tone: 'error' });
    } finally {
      setPermission(pushPermission());
      setBusy(false);
    }
  };

  const blocked = permission === 'denied';
  return (
    <div>
      <Switch
        label="Push notifications on this browser"
        description="Get notifications here even when the site is closed"
        checked={subscribed && !blocked}
        disabled={busy || (blocked && !subscribed)}
        onCheckedChange={(on) => void toggle(on)}
      />
      {blocked && (
        <p className={styles.blocked} role="note">
          {PUSH_BLOCKED}
        </p>
      )}
    </div>
  );
}

function failureText(error: unknown): string {
  if (error instanceof PushUnavailable) return 'This browser could not turn push notifications on.';
  if (isApiError(error) && error.status === 503) return 'Push notifications are not available right now.';
  return 'Push notifications could not be changed. Please try again.';
}
