import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/system';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import type { Config } from '../../config';
import type { SystemService } from './service';

export function registerSystemRoutes(
  app: FastifyInstance,
  deps: { system: SystemService; captchaEnabled: boolean; social: { google: boolean; apple: boolean; facebook: boolean }; translate: boolean; ads: Config['ads'] },
): void {
  const tags = ['system'];

  addRoute(app, api.appConfig, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ request }) => ({
    captcha: deps.captchaEnabled,
    social: deps.social,
    translate: deps.translate,
    ads: { network: deps.ads.network, units: deps.ads.units[request.skin], chat_interval_seconds: deps.ads.chatIntervalSeconds },
  }));

  addRoute(app, api.getCountries, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ reply }) => {
    reply.header('cache-control', 'public, max-age=3600');
    return { countries: await deps.system.listCountries() };
  });

  addRoute(app, api.getSystemMessages, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input }) => ({
    messages: await deps.system.messagesFor(input.locale ?? 'en'),
  }));

  addRoute(app, api.systemMessageLookup, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input }) => ({
    message: await deps.system.message(input.id),
  }));
}
