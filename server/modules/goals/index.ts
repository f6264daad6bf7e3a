/**
 * Tip goals of a broadcast (decision 0079): the owner queues them, tips fill them, reaching one starts
 * the next; the stream info carries the active one and GOAL frames move it live.
 */
import { coalescedRuns } from '../../platform/coalesced-runs';
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerGoalRoutes } from './routes';
import { createGoalsService, type GoalsService } from './service';

export type { GoalsService } from './service';

declare module '../../platform/module' {
  interface ModuleServices {
    goals: GoalsService;
  }
}

export function createGoalsModule(ctx: ModuleContext): AppModule {
  const chat = ctx.service('chat');
  const goals = createGoalsService({
    db: ctx.db,
    streamReads: ctx.service('streamReads'),
    streamAccess: ctx.service('streamAccess'),
    publishToStream: chat.publishToStream,
  });
  ctx.fill('streamGoals', goals.activeGoal);
  // Each tip, delivered at least once: a burst on one stream is counted in two runs rather than one each.
  const recount = coalescedRuns(goals.tipped);
  ctx.events.onDurable('tip.received', ({ streamId }) => recount(streamId));
  return { name: 'goals', services: { goals }, routes: (app) => registerGoalRoutes(app, { goals }) };
}
