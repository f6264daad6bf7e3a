/**
 * Creator analytics (decision 0022): a job folds new tips, views and follows into per-creator-per-day
 * rollups (`fold.ts`), and `user-analytics` answers from the rollups (`reads.ts`); likes (saved and realtime)
 * from the streams, and earnings from the books (decision 0046).
 */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createFold, type Fold } from './fold';
import { createAnalyticsReads, type AnalyticsReads } from './reads';
import { registerAnalyticsRoutes } from './routes';

export { addDays, utcDay } from './days';
export { createFold } from './fold';

declare module '../../platform/module' {
  interface ModuleServices {
    analytics: { fold: Fold; reads: AnalyticsReads };
  }
}

export function createAnalyticsModule(ctx: ModuleContext): AppModule {
  const { db, config } = ctx;
  const fold = createFold({ db, lagMs: config.analytics.foldLagMs });
  const reads = createAnalyticsReads({ db, ledger: ctx.service('ledger'), streamViewing: ctx.service('streamViewing'), goals: ctx.service('goals') });
  return {
    name: 'analytics',
    services: { analytics: { fold, reads } },
    routes: (app) => registerAnalyticsRoutes(app, { reads, fold }),
    jobs: [{ name: 'fold-analytics', everyMs: config.analytics.foldEveryMs, roles: ['worker'], run: async () => void (await fold.run()) }],
  };
}
