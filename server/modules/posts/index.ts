/**
 * Posts: image and video posts published from resumable uploads, their signed media, the video
 * transcode queue, paid posts bought through the ledger, likes, bookmarks, comments and complaints.
 */
import './events';
import path from 'node:path';
import { UPLOADS_PATH } from '../../../common/api/posts';
import { canUpload, mayManageOffers } from '../../../common/permissions';
import { MSG } from '../../../common/messages';
import { createReadCache } from '../../platform/cache/read-cache';
import { ACCESS } from '../../platform/http/access';
import { forbidden } from '../../platform/http/errors';
import { createPlaybackTokens } from '../../platform/media/playback-tokens';
import type { AppModule, ModuleContext } from '../../platform/module';
import { createResumableUploads, mountResumableUploads, type ResumableUploads } from '../../platform/uploads/resumable';
import { createPostAccess } from './access';
import { createComments } from './comments';
import { createPostListing, POST_LISTINGS_TAG } from './listing';
import { createPostModeration, type PostModeration } from './moderation';
import { createPostQuotas } from './quotas';
import { createMediaAddresses } from '../streams';
import { MEDIA_PREFIX, registerPostMediaRoute, type LooseMediaRules } from './media';
import { registerPostRoutes } from './routes';
import { createPostsService, videoTooBigMessage, type PostsService } from './service';
import { createTranscodes, type Transcodes } from './transcodes';
import { createVault, type Vault } from './vault';
import { registerVaultRoutes } from './vault-routes';

export type { PostsService } from './service';
export { commentReportsSql, postCountSql, postReportsSql, type PostModeration } from './moderation';
export type { Transcodes } from './transcodes';
export { describeMedium, mediumFacts, type MediumView, type Vault } from './vault';
export type { LooseMediaRules } from './media';

declare module '../../platform/module' {
  interface ModuleServices {
    posts: PostsService;
    transcodes: Transcodes;
    /** Moderators' deletions of reported posts and comments (audited). */
    postModeration: PostModeration;
    /** Finished uploads at /uploads, for modules that publish files (ads' creatives). */
    uploads: ResumableUploads;
    /** Creators' media kept for reuse in posts and messages (decision 0088). */
    vault: Vault;
  }
  interface ModuleHooks {
    /** Who sees a vault medium that is in no post: the messages module, later in MODULES, fills it. */
    looseMediaRules: LooseMediaRules;
  }
}

/** Unfinished uploads are removed a day after they were started. */
export const UPLOAD_EXPIRY_MS = 24 * 3600_000;

export async function createPostsModule(ctx: ModuleContext): Promise<AppModule> {
  const { db, config, files } = ctx;
  const accounts = ctx.service('accounts');
  const social = ctx.service('social');
  const access = createPostAccess({ db, accounts, social });
  const tokens = createPlaybackTokens(await ctx.secret('post-media'));
  const addresses = createMediaAddresses(MEDIA_PREFIX, tokens, config.playbackTtlSeconds);
  const quotas = createPostQuotas({ db, quotas: config.postQuotas, uploadExpiryMs: UPLOAD_EXPIRY_MS });
  const uploads = createResumableUploads({
    directory: path.join(config.dataDir, 'uploads'),
    ...(config.storage.kind === 's3' ? { s3: { settings: config.storage.s3, workDir: config.storage.workDir } } : {}),
    path: UPLOADS_PATH,
    maxBytes: config.uploadMaxBytes,
    tooBigMessage: videoTooBigMessage(config.uploadMaxBytes),
    emptyMessage: MSG.notAnImage,
    expireAfterMs: UPLOAD_EXPIRY_MS,
    admit: quotas.admitUpload,
    onRemoved: quotas.settleUpload,
  });
  // Guests' channel listings are kept about a second; a post that appears, changes or goes drops them on every instance.
  const cache = await createReadCache(ctx.bus, { name: 'post-listings', ttlMs: config.readCacheMs, log: ctx.log });
  const listingsChanged = () => cache.invalidate([POST_LISTINGS_TAG]);
  // Videos are transcoded where jobs run; an API-only instance queues them for the workers.
  const transcodes = createTranscodes({
    db, files, log: ctx.log, concurrency: config.role === 'all' || config.role === 'worker' ? config.transcodeConcurrency : 0, listingsChanged,
  });
  const vault = createVault({ db, files, uploads, addresses, quotas, onVideoQueued: () => transcodes.kick() });
  const posts = createPostsService({
    db, files, uploads, ledger: ctx.service('ledger'), accounts, access, addresses,
    feePercent: config.platformFees.post_purchase ?? 0,
    onVideoQueued: () => transcodes.kick(),
    listingsChanged,
    quotas,
    outbox: ctx.platform.outbox,
    vault,
  });
  const looseMediaRules = ctx.hook('looseMediaRules', 'messages');
  const comments = createComments({ db, accounts, posts, outbox: ctx.platform.outbox });
  ctx.events.onDurable('account.deleted', ({ userId }) => posts.forgetAccount(userId));
  const listing = createPostListing({ db, accounts, social, addresses, cache });

  return {
    name: 'posts',
    services: { posts, transcodes, uploads, vault, postModeration: createPostModeration({ db, posts }) },
    routes(app) {
      mountResumableUploads(app, uploads, {
        path: UPLOADS_PATH,
        config: { access: ACCESS.signedIn },
        unauthorizedMessage: MSG.loginRequired,
        uploaderOf: async (request) => {
          const principal = await request.currentPrincipal();
          if (!principal) return null;
          // Creators upload posts; administrators and advertisers upload offers' creatives.
          if (!canUpload(principal.perms) && !mayManageOffers(principal.role, principal.perms)) throw forbidden(MSG.uploadPermissionNeeded);
          return principal.userId;
        },
      });
      registerPostMediaRoute(app, { db, files, tokens, access, looseMediaRules });
      registerVaultRoutes(app, vault);
      registerPostRoutes(app, { posts, comments, listing, channels: ctx.service('channels') });
    },
    jobs: [{ name: 'expired-uploads', everyMs: 3600_000, roles: ['worker'], run: async () => void (await uploads.removeExpired()) }],
    start: async () => transcodes.start(),
    async stop() {
      await transcodes.stop();
      await cache.close();
    },
  };
}
