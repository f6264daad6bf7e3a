/** System: the app's public configuration, countries, system messages and event tracking. */
import { createReadCache } from '../../platform/cache/read-cache';
import type { Db } from '../../platform/db/client';
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerSystemRoutes } from './routes';
import { createSystemService, type SystemService } from './service';
import { registerTrackingRoutes } from './tracking-routes';
import { createTrackingService, type Registration, type TrackingService } from './tracking-service';

export type { SystemService } from './service';

/** Countries and the app's settings, present in every installation (inserted when missing, at start). */
export const ensureSystemReferenceData = (db: Db) => createSystemService({ db }).ensureReferenceData();
export type { Registration, TrackingService } from './tracking-service';

declare module '../../platform/module' {
  interface ModuleServices {
    system: SystemService;
    tracking: TrackingService;
  }
  interface ModuleHooks {
    /** Who is told of sign-ups with the referral codes the new account's visits carried. */
    registrations: (registration: Registration) => Promise<void>;
  }
}

export async function createSystemModule(ctx: ModuleContext): Promise<AppModule> {
  const { db, bus, config, log } = ctx;
  const cache = await createReadCache(bus, { name: 'system-messages', ttlMs: config.readCacheMs, log });
  const system = createSystemService({ db, cache });
  const tracking = createTrackingService({ db, registrations: ctx.hook('registrations', 'referrals') });
  return {
    name: 'system',
    services: { system, tracking },
    routes(app) {
      registerSystemRoutes(app, { system, captchaEnabled: config.captcha, social: config.social, translate: config.translateUrl !== undefined, ads: config.ads });
      registerTrackingRoutes(app, { tracking });
    },
    stop: () => cache.close(),
  };
}
