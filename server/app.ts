/**
 * Builds the Fastify instance: the platform's plugins, then the domain modules in the order of MODULES
 * (a module may use the services of those before it), then the web app. docs/architecture.md explains
 * the module contract and how to add one.
 */
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { LOGIN_THROTTLE } from '../common/constants';
import type { Config } from './config';
import { type Bus, logBusStates } from './platform/bus/bus';
import { createCaptcha } from './platform/captcha';
import type { Database } from './platform/db/client';
import { createDomainEventHub, type DomainEventHub } from './platform/events';
import { createEventOutbox } from './platform/event-outbox';
import { ACCESS } from './platform/http/access';
import { createCsrf } from './platform/http/csrf';
import { installErrorHandling, installNotFound } from './platform/http/error-handler';
import { installHealth } from './platform/http/health';
import { installIdempotency } from './platform/http/idempotency';
import { installNulGuard } from './platform/http/input-guard';
import { requestLogFields } from './platform/http/log-redaction';
import { installOpenApi } from './platform/http/openapi';
import { installPublicOrigin } from './platform/http/public-origin';
import { recordRoutes, WEB_APP, type RouteRecord } from './platform/http/route-table';
import { installSecurityHeaders } from './platform/http/security-headers';
import { createSessionCache } from './platform/http/session-cache';
import { createSessionStore, type SessionCacheValue } from './platform/http/sessions';
import { installSkinResolution } from './platform/http/skin';
import { installWebApp } from './platform/http/web-app';
import { recordJobRun } from './platform/jobs/job-runs';
import { assertDistinctJobs, jobsOfRole, startJobs, type OwnedJob } from './platform/jobs/scheduler';
import { createMailer } from './platform/mail/mailer';
import { registerOutboxRoutes } from './platform/mail/outbox-routes';
import { installMetrics, observeJobRuns } from './platform/metrics';
import type { ModuleFactory, ModuleServices } from './platform/module';
import { loadModules, type LoadedModules } from './platform/module-loader';
import { loadSecret } from './platform/secrets';
import type { FileStore } from './platform/storage/storage';
import { createThrottle, purgeIdleBuckets } from './platform/throttle';
import { createAdsModule } from './modules/ads';
import { createAnalyticsModule } from './modules/analytics';
import { createReferralsModule } from './modules/referrals';
import { createNotificationsModule } from './modules/notifications';
import { createConsoleModule } from './modules/console';
import { createAccountsModule } from './modules/accounts';
import { createChannelsModule } from './modules/channels';
import { createChatModule } from './modules/chat';
import { createGoalsModule } from './modules/goals';
import { createShowsModule } from './modules/shows';
import { createLedgerModule } from './modules/ledger';
import { createMeetingsModule } from './modules/meetings';
import { createMessagesModule } from './modules/messages';
import { createToysModule } from './modules/toys';
import { createPayoutsModule } from './modules/payouts';
import { createPostsModule } from './modules/posts';
import { createPromotionModule } from './modules/promotion';
import { createSocialModule } from './modules/social';
import { createStreamsModule } from './modules/streams';
import { createSubscriptionsModule } from './modules/subscriptions';
import { createSystemModule } from './modules/system';
import { createTipsModule } from './modules/tips';
import { createTranslateModule } from './modules/translate';
import { createWalletModule } from './modules/wallet';
import { createStatementsModule } from './modules/statements';

/** The domain modules, in the order they are built: each may use the services of those above it. */
export const MODULES: readonly ModuleFactory[] = [
  createAccountsModule,
  createSystemModule,
  createChannelsModule,
  createSocialModule,
  createTranslateModule,
  createLedgerModule,
  createWalletModule,
  createStatementsModule,
  createSubscriptionsModule,
  createStreamsModule,
  createChatModule,
  createTipsModule,
  createGoalsModule,
  createShowsModule,
  createPromotionModule,
  createPostsModule,
  createMeetingsModule,
  createToysModule,
  createAdsModule,
  createAnalyticsModule,
  createReferralsModule,
  createPayoutsModule,
  createNotificationsModule,
  createMessagesModule,
  createConsoleModule,
];

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
      serializers: { req: requestLogFields },
    },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // A number of proxies trusts that many hops nearest to us (proxy-addr's rule, spelled as a function for the types).
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
    bodyLimit: 1_048_576,
    // The spec writes a few paths with a trailing slash (`/api/user/user-lookup/`): every path answers both ways.
    // A playback token is a folder of a media address (decision 0066): a guest's is about 110 characters.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // One line per request only at LOG_LEVEL=debug (below): at info the console keeps what needs reading.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug({ req: request, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime) }, 'request completed');
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  const table = recordRoutes(app);

  installErrorHandling(app);
  installNulGuard(app);
  await app.register(cookie);
  installSkinResolution(app);
  installPublicOrigin(app, config.publicUrl);
  installSecurityHeaders(app, {
    conferenceOrigin: config.conference.kind === 'jitsi' ? `https://${config.conference.domain}` : undefined,
    toySdkOrigin: config.toys.kind === 'lovense' ? new URL(config.toys.sdkUrl).origin : undefined,
  });
  // The API document collects routes as they are registered: it comes before any.
  await table.as('platform', () => installOpenApi(app), 'server/platform/http/openapi.ts', ACCESS.public);
  const metrics = installMetrics(app, { token: config.metricsToken });
  installHealth(app, db);

  const csrf = createCsrf(await loadSecret(db, 'csrf'));
  csrf.install(app);
  installIdempotency(app, db);
  const captcha = createCaptcha(db, { enabled: config.captcha, secret: await loadSecret(db, 'captcha') });
  const mailer = createMailer({ db, smtpUrl: config.smtpUrl, outbox: config.mail === 'outbox', from: config.mailFrom, log: app.log });
  app.addHook('onClose', async () => mailer.close());
  registerOutboxRoutes(app, { db, transport: mailer.transport });

  const stopBusLog = logBusStates(resources.bus, app.log);
  app.addHook('onClose', async () => stopBusLog());
  const sessionCache = config.sessionCache.ttlMs > 0 ? await createSessionCache<SessionCacheValue>(resources.bus, config.sessionCache) : undefined;
  app.addHook('onClose', async () => sessionCache?.close());
  const events = createDomainEventHub(app.log);
  const outbox = createEventOutbox({ db, events, log: app.log });
  // Every job of the app, whichever role runs it: filled once every module is built.
  const jobs: OwnedJob[] = [];
  const modules = await loadModules(app, {
    config,
    db,
    bus: resources.bus,
    files: resources.files,
    events,
    log: app.log,
    platform: { sessions: createSessionStore(db, { cache: sessionCache }), captcha, mailer, csrfTokenFor: csrf.tokenFor, outbox, jobs },
    secret: (name) => loadSecret(db, name),
  }, MODULES, table);

  installNotFound(app, await table.as(WEB_APP, () => installWebApp(app, config.webDist), 'server/platform/http/web-app.ts', ACCESS.public));

  const throttle = createThrottle(db, LOGIN_THROTTLE);
  jobs.push(
    ...[
      { name: 'purge-throttle-events', everyMs: 15 * 60_000, roles: ['worker'] as const, run: throttle.purgeOld },
      { name: 'purge-throttle-buckets', everyMs: 15 * 60_000, roles: ['worker'] as const, run: () => purgeIdleBuckets(db) },
      ...outbox.jobs,
    ].map((job) => ({ ...job, module: 'platform' })),
    ...modules.jobs,
  );
  assertDistinctJobs(jobs);
  const observeJobRun = observeJobRuns(metrics);
  const localJobs = jobsOfRole(jobs, config.role);
  const stopJobs = startJobs(localJobs, {
    log: app.log,
    onRun: async (run) => {
      observeJobRun(run);
      await recordJobRun(db, run);
    },
  });
  app.addHook('onClose', async () => stopJobs());

  app.decorate('services', modules.services);
  app.decorate('modules', modules);
  app.decorate('jobs', jobs);
  app.decorate('localJobs', localJobs);
  app.decorate('domainEvents', events);
  app.decorate('routeTable', table.routes);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: ModuleServices;
    modules: LoadedModules;
    /** Every job of the app with the roles that run it (this instance runs those of its ROLE). */
    jobs: readonly OwnedJob[];
    /** The jobs this instance runs: those of its ROLE. */
    localJobs: readonly OwnedJob[];
    domainEvents: DomainEventHub;
    routeTable: RouteRecord[];
  }
}
