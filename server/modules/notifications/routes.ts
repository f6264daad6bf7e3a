/** HTTP handlers of notifications: the bell's list, reading, and this browser's push subscription. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/notifications';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import type { Announcer } from './announce';
import type { Push } from './push';
import type { NotificationReads } from './store';

const DEFAULT_PAGE = 20;

export function registerNotificationRoutes(app: FastifyInstance, deps: { reads: NotificationReads; push: Push; announcer: Announcer }) {
  const tags = ['notifications'];
  // Each call reads or changes only the caller's own notifications and subscriptions.
  addRoute(app, api.listNotifications, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal, reply }) => {
    reply.header('cache-control', 'no-store');
    return deps.reads.list(principal.userId, { limit: input.limit ?? DEFAULT_PAGE, before: input.before });
  });

  addRoute(app, api.markNotificationsRead, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => {
    const unread = await deps.reads.markRead(principal.userId, input);
    await deps.announcer.unread(principal.userId, unread);
    return { unread };
  });

  addRoute(app, api.pushKey, { auth: 'user', access: ACCESS.signedIn, tags }, async () => ({ public_key: deps.push.publicKey }));

  addRoute(app, api.subscribePush, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => {
    await deps.push.subscribe(principal.userId, input);
    return { subscribed: true };
  });

  addRoute(app, api.unsubscribePush, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => {
    await deps.push.unsubscribe(principal.userId, input.endpoint);
    return { subscribed: false };
  });
}
