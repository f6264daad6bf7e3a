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
import { installPublicOrigin } from './platform/http/public-origin';
import { installWebApp } from './platform/http/web-app';
import { startJobs } from './platform/jobs/scheduler';
import { installMetrics } from './platform/metrics';
import { loadSecret } from './platform/secrets';
import type { FileStore } from './platform/storage/storage';
import { createThrottle, purgeIdleBuckets } from './platform/throttle';
import { LOGIN_THROTTLE } from '../common/constants';
import { registerAccountRoutes } from './modules/accounts/routes';
import { AVATAR_MAX_BYTES } from './modules/accounts/avatar-image';
import { registerSettingsRoutes } from './modules/accounts/settings-routes';
import { createSettingsService } from './modules/accounts/settings-service';
import multipart from '@fastify/multipart';
import { createAccountsService } from './modules/accounts/service';
import { registerChannelRoutes } from './modules/channels/routes';
import { registerSocialRoutes } from './modules/social/routes';
import type { ChatService } from './modules/chat/service';
import { installChat } from './modules/chat/wiring';
import { createBroadcastHooks } from './modules/streams/broadcast-hooks';
import { createStreamListing } from './modules/streams/listing';
import { createMediaControl } from './modules/streams/media-control';
import { createStreamModeration } from './modules/streams/moderation';
import { createStreamInteractions } from './modules/streams/interactions';
import { registerStreamRoutes } from './modules/streams/routes';
import { createStreamsService } from './modules/streams/service';
import { createMediaServer, type MediaServer } from './platform/media/media-server';
import { createSocialService } from './modules/social/service';
import { createChannelsService } from './modules/channels/service';
import { registerSystemRoutes } from './modules/system/routes';
import { createLedger } from './modules/ledger/service';
import { createImpressionMeter } from './modules/promotion/impression-meter';
import { registerTipRoutes } from './modules/tips/routes';
import { createTipsService } from './modules/tips/service';
import { registerTranslateRoutes } from './modules/translate/routes';
import { registerWalletRoutes } from './modules/wallet/routes';
import { createSystemService } from './modules/system/service';
import { createMailer } from './platform/mail/mailer';
import { registerOutboxRoutes } from './platform/mail/outbox-routes';
import { registerRecoveryRoutes } from './modules/accounts/recovery-routes';
import { createRecoveryService } from './modules/accounts/recovery-service';
import { registerTrackingRoutes } from './modules/system/tracking-routes';
import { createTrackingService } from './modules/system/tracking-service';
import { registerSocialLoginRoutes } from './modules/accounts/social-login-routes';
import { createSocialLoginService } from './modules/accounts/social-login-service';
import { createSocialProviders } from './modules/accounts/social-providers';
import { requestLogFields } from './platform/http/log-redaction';

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
  installPublicOrigin(app, config.publicUrl);
  installSecurityHeaders(app);
  installMetrics(app);
  installHealth(app, db);

  const csrf = createCsrf(await loadSecret(db, 'csrf'));
  csrf.install(app);
  const captcha = createCaptcha(db, { enabled: config.captcha, secret: await loadSecret(db, 'captcha') });
  const sessions = createSessionStore(db);
  const mailer = createMailer({ db, smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
  app.addHook('onClose', async () => mailer.close());

  const accounts = createAccountsService({
    db,
    sessions,
    env: { streamViewerLikeLimit: config.streamViewerLikeLimit, ratingThreshold: config.ratingThreshold },
    signupsPerAddress: config.signupsPerAddress,
  });
  const system = createSystemService({ db });
  const channels = createChannelsService({ db });
  const settings = createSettingsService({ db, files: resources.files, linkSecret: await loadSecret(db, 'email-links') });
  installAuth(app, accounts.resolveSession);

  await installOpenApi(app);
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 }, throwFileSizeLimit: true });
  registerAccountRoutes(app, { db, accounts, settings, sessions, captcha, csrfTokenFor: csrf.tokenFor });
  registerSettingsRoutes(app, { settings, accounts, files: resources.files });
  registerSystemRoutes(app, { system, captchaEnabled: config.captcha, social: config.social, translate: config.translateUrl !== undefined });
  registerOutboxRoutes(app, { db, transport: mailer.transport });
  const recovery = createRecoveryService({ db, sessions, mailer, codeKey: await loadSecret(db, 'recovery') });
  registerRecoveryRoutes(app, { recovery });
  registerTrackingRoutes(app, { tracking: createTrackingService({ db }) });
  registerChannelRoutes(app, { channels });
  const socialLogin = createSocialLoginService({ db, accounts, sessions, providers: createSocialProviders(config.oauth) });
  registerSocialLoginRoutes(app, { db, sessions, accounts, socialLogin, captcha });
  const social = createSocialService({ db });
  registerSocialRoutes(app, { social });
  registerTranslateRoutes(app, { db, translateUrl: config.translateUrl });
  // The one writer of money, shared by every module that moves it.
  const ledger = createLedger({ db });
  await registerWalletRoutes(app, { db, ledger, payments: config.payments });

  // The media server needs the streams module's hooks and the module needs media control: the
  // control reads `media` lazily, once it exists.
  const mediaIsLocal = config.role === 'all' || config.role === 'media';
  const mediaControl = createMediaControl(() => media, resources.bus, mediaIsLocal, config.playbackTtlSeconds);
  const streams = createStreamsService({ db, accounts, social, media: mediaControl });
  const broadcastHooks = createBroadcastHooks({ db, accounts, streams, bus: resources.bus });
  const media = createMediaServer({
    config,
    files: resources.files,
    hooks: broadcastHooks,
    log: app.log,
    secret: await loadSecret(db, 'playback'),
    graceMs: config.rtmpGraceMs,
  });
  media.registerRoutes(app, { playlist: broadcastHooks.locatePlaylist, thumbnail: broadcastHooks.locateThumbnail });
  const impressions = createImpressionMeter({ ledger, log: app.log });
  registerStreamRoutes(app, {
    streams,
    listing: createStreamListing({ db, accounts, social, onPromotedShown: impressions.shown }),
    interactions: createStreamInteractions({ db, streams, accounts }),
    moderation: createStreamModeration({ db, accounts, media: mediaControl }),
    channels,
    accounts,
    likeLimit: config.streamViewerLikeLimit,
    onKeyChanged: () => broadcastHooks.refreshKeys(),
    stopBroadcast: (streamId) => mediaControl.stopBroadcast(streamId),
    // The chat module is installed below, after the routes: these reach it when called.
    realtime: {
      optionsChanged: (streamId, options) => chat.publishToStream(streamId, { type: 'STREAM-OPTIONS', options }),
      viewerBanned: (streamId, userId) => chat.blockViewer(streamId, userId),
      accessChanged: (streamId) => chat.recheckStream(streamId),
      tipEnforced: (streamId, amount) => chat.publishToStream(streamId, { type: 'TIP-ENFORCE', data: { tip_viewer_min_amount: amount } }),
    },
    rtmpUrl: (request) => config.rtmpPublicUrl ?? `rtmp://${request.hostname}:${media.ingest.port || config.rtmpPort}/live`,
  });
  await mediaControl.listen();
  const chat = await installChat(app, { db, bus: resources.bus, streams, accounts, likeLimit: config.streamViewerLikeLimit });
  const tips = createTipsService({
    db, ledger, streams, accounts, fees: config.platformFees, log: app.log,
    publish: (streamId, message) => chat.publishToStream(streamId, message),
  });
  registerTipRoutes(app, { tips });
  // Stop the media first: ending live sessions still writes to the database.
  app.addHook('onClose', async () => media.stop());

  installNotFound(app, await installWebApp(app, config.webDist));

  const throttle = createThrottle(db, LOGIN_THROTTLE);
  const stopJobs = startJobs(
    [
      { name: 'purge-expired-sessions', everyMs: 15 * 60_000, run: sessions.purgeExpired },
      { name: 'purge-throttle-events', everyMs: 15 * 60_000, run: throttle.purgeOld },
      { name: 'purge-throttle-buckets', everyMs: 15 * 60_000, run: () => purgeIdleBuckets(db) },
      { name: 'purge-spent-captchas', everyMs: 15 * 60_000, run: captcha.purgeSpent },
      { name: 'purge-social-sign-ins', everyMs: 15 * 60_000, run: socialLogin.purgeExpired },
      { name: 'spend-shown-impressions', everyMs: 30_000, run: impressions.settle },
      // Keys allowed to publish, for the ingest's synchronous check: permissions change on other instances too.
      ...(mediaIsLocal ? [{ name: 'refresh-broadcast-keys', everyMs: 10_000, run: broadcastHooks.refreshKeys }] : []),
    ],
    app.log,
  );
  app.addHook('onClose', async () => stopJobs());

  app.decorate('services', { accounts, system, channels, settings, streams, broadcastHooks, media, chat });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: {
      accounts: ReturnType<typeof createAccountsService>;
      system: ReturnType<typeof createSystemService>;
      channels: ReturnType<typeof createChannelsService>;
      settings: ReturnType<typeof createSettingsService>;
      streams: ReturnType<typeof createStreamsService>;
      broadcastHooks: ReturnType<typeof createBroadcastHooks>;
      media: MediaServer;
      chat: ChatService;
    };
  }
}
