/** Builds the Fastify instance: platform plugins first, then every module's routes. */
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Bus } from './platform/bus/bus';
import { createCaptcha } from './platform/captcha';
import type { Database } from './platform/db/client';
import { installAuth } from './platform/http/auth';
import { createCsrf } from './platform/http/csrf';
import { installErrorHandling, installNotFound } from './platform/http/error-handler';
import { installHealth } from './platform/http/health';
import { installOpenApi } from './platform/http/openapi';
import { installSecurityHeaders } from './platform/http/security-headers';
import { createSessionStore } from './platform/http/sessions';
import { installSkinResolution } from './platform/http/skin';
import { installWebApp } from './platform/http/web-app';
import { startJobs } from './platform/jobs/scheduler';
import { installMetrics } from './platform/metrics';
import { loadSecret } from './platform/secrets';
import type { FileStore } from './platform/storage/storage';
import { createThrottle } from './platform/throttle';
import { LOGIN_THROTTLE } from '../common/constants';
import { registerAccountRoutes } from './modules/accounts/routes';
import { createAccountsService } from './modules/accounts/service';
import { registerChannelRoutes } from './modules/channels/routes';
import { createChannelsService } from './modules/channels/service';
import { registerSystemRoutes } from './modules/system/routes';
import { createSystemService } from './modules/system/service';

export interface AppResources {
  config: Config;
  database: Database;
  bus: Bus;
  files: FileStore;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function buildApp(resources: AppResources): Promise<FastifyInstance> {
  const { config, database } = resources;
  const db = database.db;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'],
    },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  installErrorHandling(app);
  await app.register(cookie);
  installSkinResolution(app);
  installSecurityHeaders(app);
  installMetrics(app);
  installHealth(app, db);

  const csrf = createCsrf(await loadSecret(db, 'csrf'));
  csrf.install(app);
  const captcha = createCaptcha(db, { enabled: config.captcha, secret: await loadSecret(db, 'captcha') });
  const sessions = createSessionStore(db);

  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const accounts = createAccountsService({
    db,
    sessions,
    env: { publicUrl, streamViewerLikeLimit: config.streamViewerLikeLimit, ratingThreshold: config.ratingThreshold },
  });
  const system = createSystemService({ db });
  const channels = createChannelsService({ db });
  installAuth(app, sessions, accounts.loadPrincipal);

  await installOpenApi(app);
  registerAccountRoutes(app, { db, accounts, sessions, captcha, csrfTokenFor: csrf.tokenFor });
  registerSystemRoutes(app, { system, captchaEnabled: config.captcha, social: config.social });
  registerChannelRoutes(app, { channels });

  installNotFound(app, await installWebApp(app, config.webDist));

  const throttle = createThrottle(db, LOGIN_THROTTLE);
  const stopJobs = startJobs(
    [
      { name: 'purge-expired-sessions', everyMs: 15 * 60_000, run: sessions.purgeExpired },
      { name: 'purge-throttle-events', everyMs: 15 * 60_000, run: throttle.purgeOld },
      { name: 'purge-spent-captchas', everyMs: 15 * 60_000, run: captcha.purgeSpent },
    ],
    app.log,
  );
  app.addHook('onClose', async () => stopJobs());

  app.decorate('services', { accounts, system, channels });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: {
      accounts: ReturnType<typeof createAccountsService>;
      system: ReturnType<typeof createSystemService>;
      channels: ReturnType<typeof createChannelsService>;
    };
  }
}
