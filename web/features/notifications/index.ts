/** The public face of notifications: the bell (its code fetched on demand), push on this browser and its switch. Other features import notifications only from here. */
export { BellStandIn } from './BellStandIn';
export { loadNotificationBell, loadPush } from './loaders';
export { PushSwitch } from './PushSwitch';
