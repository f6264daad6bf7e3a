/** HTTP handler of creator analytics (spec part 2 §7 user-analytics). */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/analytics';
import { MSG } from '../../../common/messages';
import { ACCESS } from '../../platform/http/access';
import { forbidden } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import { utcDay } from './days';
import type { Fold } from './fold';
import type { AnalyticsReads } from './reads';

export function registerAnalyticsRoutes(app: FastifyInstance, deps: { reads: AnalyticsReads; fold: Fold }) {
  // The caller's own figures; an administrator may read anyone's.
  addRoute(app, api.userAnalytics, { auth: 'user', access: ACCESS.self, tags: ['analytics'] }, async ({ input, principal }) => {
    const creatorId = input.user_id ?? principal.userId;
    if (creatorId !== principal.userId && principal.role !== 'admin') throw forbidden(MSG.analyticsOthersRefused);
    const [result, foldedUntil] = await Promise.all([
      deps.reads.answer(creatorId, { events: input.event, from: input.from, to: input.to, offset: input.offset, limit: input.limit }, utcDay(new Date())),
      deps.fold.foldedUntil(),
    ]);
    return { user_id: creatorId, from: input.from, to: input.to, folded_until: foldedUntil?.toISOString() ?? null, result };
  });
}
