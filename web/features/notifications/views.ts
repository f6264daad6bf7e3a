/**
 * The notification list's views, one lazily loaded chunk: the bell's panel and /user/notifications
 * share their rows and styles, which would otherwise join the code every first visit loads.
 */
export { NotificationPanel } from './NotificationPanel';
export { NotificationsPage } from './NotificationsPage';
