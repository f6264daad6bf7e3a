/** System: the app's public configuration, countries, system messages and event tracking. */
import { createReadCache } from '../../platform/cache/read-cache';
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerSystemRoutes } from './routes';
import { createSystemService, type SystemService } from './service';
import { registerTrackingRoutes } from './tracking-routes';
import { createTrackingService, type TrackingService } from './tracking-service';

export type { SystemService } from './service';
export type { Registration, TrackingService } from './tracking-service';

declare module '../../platform/module' {
  interface ModuleServices {
    system: SystemService;
    tracking: TrackingService;
  }
}

export async function createSystemModule({ db, bus, config, log }: ModuleContext): Promise<AppModule> {
  const cache = await createReadCache(bus, { name: 'system-messages', ttlMs: config.readCacheMs, log });
  const system = createSystemService({ db, cache });
  const tracking = createTrackingService({ db });
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
