/** GET and POST /ajax/tracking/track-event; guests and signed-in users alike. */
import { ACCESS } from '../../platform/http/access';
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/tracking';
import { addRoute, type RouteOptions } from '../../platform/http/route';
import type { TrackingService } from './tracking-service';

export function registerTrackingRoutes(app: FastifyInstance, deps: { tracking: TrackingService }): void {
  const options: RouteOptions<'anonymous'> = { auth: 'anonymous', access: ACCESS.public, tags: ['tracking'] };

  // The body's user_id is part of the spec's payload but never trusted: the session says who calls.
  addRoute(app, api.trackEventPost, options, async ({ input, principal, request }) => {
    const tracker = await deps.tracking.track(
      { action: input.action, referralCode: input.referralCode, campaign: input.campaign, tracker: input.tracker, refId: input.id },
      { userId: principal?.userId ?? null, ip: request.ip, userAgent: request.headers['user-agent'] },
    );
    return { result: { tracker } };
  });

  addRoute(app, api.trackEventGet, options, async ({ input, principal, reply }) => {
    reply.header('cache-control', 'no-store');
    const userId = principal?.userId ?? null;
    return {
      is_logged_in: principal !== null,
      is_new_user: await deps.tracking.isNewUser(input.tracker, userId),
      user_id: userId ?? 0,
    };
  });
}
