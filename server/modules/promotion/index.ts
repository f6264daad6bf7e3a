/**
 * Get Popular: a broadcaster holding impressions ranks first in Popular, and each visitor shown one of
 * their streams there spends one impression per window through the ledger (`stream.promoted-shown`).
 */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createImpressionMeter, type ImpressionMeter } from './impression-meter';

declare module '../../platform/module' {
  interface ModuleServices {
    promotion: ImpressionMeter;
  }
}

export function createPromotionModule(ctx: ModuleContext): AppModule {
  const impressions = createImpressionMeter({ db: ctx.db, ledger: ctx.service('ledger'), log: ctx.log });
  ctx.events.on('stream.promoted-shown', ({ ownerIds, viewerKey }) => impressions.shown(ownerIds, viewerKey));
  return {
    name: 'promotion',
    services: { promotion: impressions },
    jobs: [
      { name: 'spend-shown-impressions', everyMs: 30_000, roles: ['worker'], run: impressions.settle },
      { name: 'purge-impression-showings', everyMs: 15 * 60_000, roles: ['worker'], run: impressions.purgeClosedWindows },
    ],
  };
}
