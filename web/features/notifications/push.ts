/**
 * Web Push on this browser: the service worker served from the site root (web/public/push-sw.js),
 * the browser's subscription made with the installation's VAPID key, and the server told of it.
 * Loaded with the settings page only.
 */
import { useQuery } from '@tanstack/react-query';
import { notifications } from '../../../common/api/calls';
import { call } from '../../api/client';
import { notificationKeys } from './api';
import { sameKey, urlBase64ToBytes } from './push-key';

/** At the root, so that its scope is every page of every skin. */
export const PUSH_WORKER_URL = '/push-sw.js';

/** Whether this browser can receive Web Push at all (service workers, PushManager, notifications). */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

export type PushPermission = NotificationPermission;

export function pushPermission(): PushPermission {
  return pushSupported() ? Notification.permission : 'denied';
}

/** The subscription this browser holds for the site, if any (without registering the worker). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(PUSH_WORKER_URL);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Why turning push on stopped short: the person said no, or dismissed the question. */
export class PushRefused extends Error {
  constructor(readonly permission: PushPermission) {
    super(`Notification permission: ${permission}`);
  }
}

/** The browser's push service refused the subscription. */
export class PushUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super(`Push subscription refused: ${String(reason)}`);
  }
}

/**
 * Asks permission, registers the worker, subscribes with the VAPID key (again when the one held was made
 * with another key) and sends the subscription to the server.
 */
export async function turnPushOn(publicKey: string): Promise<PushSubscription> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushRefused(permission);
  await navigator.serviceWorker.register(PUSH_WORKER_URL, { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const key = urlBase64ToBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  try {
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (error) {
    // Allowed, but the browser's push service would not take it (some builds have none).
    throw new PushUnavailable(error);
  }
  const json = subscription.toJSON();
  try {
    await call(notifications.subscribePush, {
      endpoint: subscription.endpoint,
      expirationTime: subscription.expirationTime,
      keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    });
  } catch (error) {
    // A subscription the server does not keep would only show the switch on after a reload.
    await subscription.unsubscribe().catch(() => undefined);
    throw error;
  }
  return subscription;
}

/** Tells the server to forget this browser, then drops the browser's subscription. */
export async function turnPushOff(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await call(notifications.unsubscribePush, { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

export const pushKeys = {
  key: () => [...notificationKeys.all, 'push-key'] as const,
};

/** The installation's VAPID public key (null: Web Push is off here). */
export function usePushKey(enabled: boolean) {
  return useQuery({
    queryKey: pushKeys.key(),
    enabled,
    staleTime: Infinity,
    queryFn: async () => (await call(notifications.pushKey, {})).public_key,
  });
}
