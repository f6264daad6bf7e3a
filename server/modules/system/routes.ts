import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/system';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import type { SystemService } from './service';

export function registerSystemRoutes(
  app: FastifyInstance,
  deps: { system: SystemService; captchaEnabled: boolean; social: { google: boolean; apple: boolean; facebook: boolean }; translate: boolean },
): void {
  const tags = ['system'];

  addRoute(app, api.appConfig, { auth: 'anonymous', access: ACCESS.public, tags }, async () => ({
    captcha: deps.captchaEnabled,
    social: deps.social,
    translate: deps.translate,
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
