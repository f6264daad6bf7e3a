/** The public face of notifications: the bell (its code fetched on demand), push on this browser and its switch. Other features import notifications only from here. */
export { BellStandIn } from './BellStandIn';
export { PushSwitch } from './PushSwitch';

/** The top bar's bell: its code is fetched only once a signed-in top bar shows. */
export const loadNotificationBell = () => import('./NotificationBell');

/** Push on this browser (its service worker subscription), fetched only when needed. */
export const loadPush = () => import('./push');
