/**
 * A post's files are served only through short-lived addresses signed for one viewer (the HLS playback
 * tokens' scheme): `/media/posts/<media>/<file>?token=`. Every fetch checks that the fetcher is that
 * viewer and that they still may see the file now — the blurred tile of a post they may see, anything
 * else once the media is open to them — so a copied address dies with its token or in other hands. An
 * open medium's decision is kept 3 s (an audience change or a deletion stops the video within that).
 * A vault medium in no post (decision 0088) is its owner's, and opens to those its messages went to.
 */
import { text } from 'node:stream/consumers';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { ACCESS } from '../../platform/http/access';
import { forbidden, notFound } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import type { PlaybackTokens } from '../../platform/media/playback-tokens';
import type { FileStore } from '../../platform/storage/storage';
import { mediaViewerKey, signedMediaViewer, type Viewer } from '../streams';
import { moderatesPosts, type PostAccess, type PostRow } from './access';
import { postMedia, posts } from './tables';

export const MEDIA_PREFIX = '/media/posts';
/** The files of one medium, relative to its storage folder; the blurred tile is what a viewer who has not paid sees. */
export const MEDIA_FILES = { full: 'full.webp', tile: 'tile.webp', locked: 'locked.webp', poster: 'hls/poster.jpg', playlist: 'hls/index.m3u8' } as const;
const SERVED = /^(full\.webp|tile\.webp|locked\.webp|hls\/poster\.jpg|hls\/index\.m3u8|hls\/\d{1,2}\/index\.m3u8|hls\/\d{1,2}\/seg-\d{5}\.ts)$/;
const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', m3u8: 'application/vnd.apple.mpegurl', ts: 'video/mp2t' };
const DECISION_TTL_MS = 3_000;

/** Who sees a vault medium that is in no post besides its owner and moderators: those its messages went to. */
export interface LooseMediaRules {
  /** `visible`: the viewer may see its blurred tile; `open`: the medium itself. */
  standing(mediaId: number, viewerId: number): Promise<{ visible: boolean; open: boolean }>;
}
const MAX_DECISIONS = 50_000;


/** A playlist's references carry the token too (players resolve them without the query). */
export const signPlaylist = (body: string, token: string) =>
  body.split('\n').map((line) => (line.trim() === '' || line.startsWith('#') ? line : `${line.trim()}?token=${encodeURIComponent(token)}`)).join('\n');

const mediaDocs: RouteDocs = {
  security: [],
  parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string', maxLength: 200 }, description: 'The token of a media address from post-lookup or a post listing' }],
  responses: { 200: { description: 'An image (WebP, JPEG) or the video as HLS.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } },
  refusals: [403, 404],
  description: 'Signed for one viewer and short-lived; each fetch checks the fetcher is that viewer and may still see the file.',
};

export function registerPostMediaRoute(app: FastifyInstance, deps: {
  db: Db; files: FileStore; tokens: PlaybackTokens; access: PostAccess; looseMediaRules: () => LooseMediaRules; now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const decided = new Map<string, { at: number; open: boolean; visible: boolean; folder: string | null }>();

  async function decide(mediaId: number, viewer: Viewer) {
    const key = `${mediaId} ${mediaViewerKey(viewer)}`;
    const known = decided.get(key);
    if (known && now() - known.at < DECISION_TTL_MS) return known;
    const [row] = await deps.db.select({ post: posts, key: postMedia.key, ownerId: postMedia.ownerId }).from(postMedia)
      .leftJoin(posts, eq(posts.id, postMedia.postId)).where(eq(postMedia.id, mediaId));
    const standing = row && !row.post ? await looseStanding(mediaId, row.ownerId, viewer) : await standingOrNothing(row?.post ?? undefined, viewer);
    const decision = { at: now(), ...standing, folder: row?.key ?? null };
    // Only an open medium is remembered (players fetch a segment every few seconds): a refusal is decided
    // again at the next fetch, so a purchase opens the media at once.
    if (decision.open) {
      if (decided.size >= MAX_DECISIONS) decided.clear();
      decided.set(key, decision);
    }
    return decision;
  }

  async function standingOrNothing(post: PostRow | undefined, viewer: Viewer) {
    if (!post) return { open: false, visible: false };
    // The teaser of a subscribers-only post shows its blurred tile, never more.
    const standing = await deps.access.standing(post, viewer, { teaser: true }).catch(() => null);
    return { open: standing?.mediaOpen ?? false, visible: standing !== null };
  }

  async function looseStanding(mediaId: number, ownerId: number, viewer: Viewer) {
    if (viewer.principal?.userId === ownerId || moderatesPosts(viewer)) return { open: true, visible: true };
    if (!viewer.principal) return { open: false, visible: false };
    return deps.looseMediaRules().standing(mediaId, viewer.principal.userId);
  }

  async function serve(request: FastifyRequest, reply: FastifyReply, mediaIdParam: string, file: string) {
    const mediaId = /^\d{1,15}$/.test(mediaIdParam) ? Number(mediaIdParam) : NaN;
    if (!Number.isSafeInteger(mediaId) || !SERVED.test(file)) throw notFound();
    const signed = await signedMediaViewer(request, deps.tokens, mediaId);
    if (!signed) throw forbidden();
    const decision = await decide(mediaId, signed.viewer);
    const allowed = file === MEDIA_FILES.locked ? decision.visible : decision.open;
    if (!allowed || !decision.folder) throw forbidden();
    const stored = await deps.files.open(`${decision.folder}/${file}`);
    if (!stored) throw notFound();
    const type = CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
    reply.header('content-type', type).header('x-content-type-options', 'nosniff');
    if (type === CONTENT_TYPES.m3u8) return reply.header('cache-control', 'no-store').send(signPlaylist(await text(stored.body), signed.token));
    return reply.header('cache-control', 'private, max-age=600').header('content-length', stored.size).send(stored.body);
  }

  const route = (summary: string) => ({ logLevel: 'warn' as const, schema: { tags: ['media'], summary }, config: { access: ACCESS.public, openapi: mediaDocs } });
  // One parameter name per position: the router shares the node of `hls/<file>` and `hls/<rendition>/…`.
  type Params = { mediaId: string; file: string; part: string };
  app.get(`${MEDIA_PREFIX}/:mediaId/:file`, route("A post's image (full, tile or blurred tile)"), async (request, reply) => {
    const { mediaId, file } = request.params as Params;
    return serve(request, reply, mediaId, file);
  });
  app.get(`${MEDIA_PREFIX}/:mediaId/hls/:part`, route("A video post's master playlist or poster"), async (request, reply) => {
    const { mediaId, part } = request.params as Params;
    return serve(request, reply, mediaId, `hls/${part}`);
  });
  app.get(`${MEDIA_PREFIX}/:mediaId/hls/:part/:file`, route("One rendition's playlist or segment of a video post"), async (request, reply) => {
    const { mediaId, part, file } = request.params as Params;
    return serve(request, reply, mediaId, `hls/${part}/${file}`);
  });
}
