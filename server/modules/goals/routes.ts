/** HTTP handlers of tip goals. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/goals';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { viewerOf } from '../streams';
import type { GoalsService } from './service';

export function registerGoalRoutes(app: FastifyInstance, deps: { goals: GoalsService }): void {
  const { goals } = deps;
  const tags = ['goals'];

  addRoute(app, api.streamGoals, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) => ({
    goals: await goals.goalsOf(input.id, viewerOf(request, principal)),
  }));

  addRoute(app, api.saveGoals, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => ({
    goals: await goals.save(principal, input.stream_id, input.goals),
  }));
}
