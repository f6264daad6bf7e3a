/** The parts of notifications fetched on demand, so whoever shows them keeps them out of its own code. */

/** The top bar's bell: its code is fetched only once a signed-in top bar shows. */
export const loadNotificationBell = () => import('./NotificationBell');

/** Push on this browser (its service worker subscription), fetched only when needed. */
export const loadPush = () => import('./push');
