/**
 * Playback over HLS: the playlist and its segments need a token bound to the stream, the viewer and the
 * viewer's client; thumbnails are plain images, shown only for streams the streams module lists. `verify`
 * is the streams module's gate, asked for every playlist and every segment (decision 0039). The token is
 * a folder of the address (`/media/hls/<stream>/<token>/index.m3u8`, decision 0066) and the playlist lists
 * its segments relatively (`seg_<n>.<seal>.ts`), so its body is the same for every viewer: an edge cache
 * keys on the address without the token, checks the token itself, and asks the origin about once per
 * playlist refresh and once per segment. The seal cannot be made without the server's secret, so a token
 * cannot count its way through the segments. With live renditions (decision 0070) that playlist is a
 * master listing `<rendition>/index.m3u8` relatively, and each rendition's playlist and segments are
 * served under the same token folder, with the same checks and cache headers.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ACCESS } from '../http/access';
import { buffer, text } from 'node:stream/consumers';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { numeric } from '../../../common/api/fields';
import { forbidden, notFound } from '../http/errors';
import type { RouteDocs } from '../http/openapi';
import type { FileStore } from '../storage/storage';
import { PLAYLIST_NAME, rewriteSegmentUris, SEGMENT_NAME, withoutPeriods, type Period } from './hls-playlist';
import { VARIANT_FOLDER } from './live-renditions';
import type { PlaylistLocator } from './ingest-callbacks';
import { SEAL_LENGTH } from './playback-tokens';

export type PlaybackVerifier = (token: string | undefined, streamId: number, request: FastifyRequest) => boolean | Promise<boolean>;

export interface HlsRouteDeps {
  files: FileStore;
  locator: PlaylistLocator;
  verify: PlaybackVerifier;
  /** The unguessable tag of a stored segment's key (PlaybackTokens.seal). */
  seal: (key: string) => string;
  /** Where a stream's thumbnail is, or null when it may not be shown (the streams module decides). */
  thumbnailKey: (streamId: number) => Promise<string | null>;
  /** The stretches of the broadcast its playlists leave out for everyone (a private show's minutes, once it ended). */
  keptOut?: (streamId: number) => Promise<readonly Period[]>;
}

const streamIdParam = numeric(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));
const TOKEN_PARAM = /^[0-9A-Za-z._-]{1,200}$/;
const THUMB = /^(\d{1,15})\.jpg$/;
const SEALED_SEGMENT = new RegExp(`^(seg_\\d{5,9})\\.([A-Za-z0-9_-]{${SEAL_LENGTH}})\\.ts$`);
/** A player fetches a playlist and a segment every second or two: per-request info lines would flood the log. */
const quiet = { logLevel: 'warn' as const };

const tags = ['media'];
const playback = (description: string, type: string): RouteDocs => ({
  security: [],
  parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string', maxLength: 200 }, description: 'The signed playback token from stream-join' }],
  responses: { 200: { description, content: { [type]: { schema: { type: 'string', format: 'binary' } } } } },
  refusals: [403, 404],
  description: 'The playback token from stream-join is bound to the stream, the viewer and their session (or browser), and short-lived; every fetch checks the watch rules and the pay wall again. The answer is the same for every viewer, so a shared cache may keep it (a playlist a second, a segment long) when it checks the token itself.',
});
const playlistRoute = {
  ...quiet,
  schema: { tags, summary: "A broadcast's HLS playlist" },
  // The signed address (stream-join, for that viewer) authorises; the watch rules are checked again.
  config: { access: ACCESS.public, openapi: playback('The playlist; its segment addresses are relative to it (the same token).', 'application/vnd.apple.mpegurl') },
};
const segmentRoute = { ...quiet, schema: { tags, summary: 'One HLS segment' }, config: { access: ACCESS.public, openapi: playback('The segment.', 'video/mp2t') } };
const variantPlaylistRoute = {
  ...quiet,
  schema: { tags, summary: "One rendition's HLS playlist (live renditions)" },
  config: { access: ACCESS.public, openapi: playback('The rendition\'s playlist, listed by the master playlist at index.m3u8; its segment addresses are relative to it.', 'application/vnd.apple.mpegurl') },
};
const variantSegmentRoute = {
  ...quiet,
  schema: { tags, summary: "One HLS segment of a rendition" },
  config: { access: ACCESS.public, openapi: playback('The segment.', 'video/mp2t') },
};
const thumbnailRoute = {
  ...quiet,
  schema: { tags, summary: "A listed stream's thumbnail" },
  config: {
    access: ACCESS.public,
    openapi: {
      security: [],
      responses: { 200: { description: 'The thumbnail, JPEG.', content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } } } },
      refusals: [404],
    } satisfies RouteDocs,
  },
};

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * What a cache may do with an answer (decision 0066). A live playlist changes every segment: a shared
 * cache keeps it a second, a browser asks again each time (ETag: a 304 when it has not changed). A
 * replay's playlist no longer changes. A segment never changes under its sealed name. Every answer is
 * the same for every viewer: the token only decides whether it is given.
 */
export const MEDIA_CACHE = {
  livePlaylist: 'public, max-age=0, s-maxage=1',
  replayPlaylist: 'public, max-age=0, s-maxage=30',
  segment: 'public, max-age=3600, s-maxage=86400, immutable',
} as const;
const ENDED = /^#EXT-X-ENDLIST\s*$/m;

export function registerHlsRoutes(app: FastifyInstance, deps: HlsRouteDeps): void {
  /** The playlist key of a stream the caller may play, else 403/404. */
  async function authorizedPlaylist(request: FastifyRequest, params: unknown): Promise<{ streamId: number; token: string; key: string }> {
    const { streamId: idParam, token: tokenParam } = params as { streamId?: string; token?: string };
    const streamId = streamIdParam.safeParse(idParam);
    const token = tokenParam && TOKEN_PARAM.test(tokenParam) ? tokenParam : undefined;
    if (!streamId.success || !token || !(await deps.verify(token, streamId.data, request))) throw forbidden();
    const key = await deps.locator(streamId.data);
    if (!key) throw notFound();
    return { streamId: streamId.data, token, key };
  }

  /** A media or master playlist of an authorised stream; `variant`: a rendition's folder beside the master (decision 0070). */
  async function sendPlaylist(request: FastifyRequest, reply: FastifyReply, variant?: string) {
    const { streamId, key: broadcastKey } = await authorizedPlaylist(request, request.params);
    const key = variant === undefined ? broadcastKey : `${path.posix.dirname(broadcastKey)}/${variant}/${PLAYLIST_NAME}`;
    const stream = await deps.files.read(key);
    if (!stream) throw notFound();
    const directory = path.posix.dirname(key);
    const sealed = rewriteSegmentUris(await text(stream), (line) => {
      const segment = path.basename(line);
      if (!SEGMENT_NAME.test(segment)) return line;
      return `${segment.slice(0, -'.ts'.length)}.${deps.seal(`${directory}/${segment}`)}.ts`;
    });
    // The same for every viewer still: what is left out is left out for everyone.
    const body = withoutPeriods(sealed, (await deps.keptOut?.(streamId)) ?? []);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    reply.header('content-type', 'application/vnd.apple.mpegurl').header('etag', etag)
      .header('cache-control', ENDED.test(body) ? MEDIA_CACHE.replayPlaylist : MEDIA_CACHE.livePlaylist);
    return request.headers['if-none-match'] === etag ? reply.code(304).send() : reply.send(body);
  }

  async function sendSegment(request: FastifyRequest, reply: FastifyReply, variant?: string) {
    const match = SEALED_SEGMENT.exec((request.params as { segment: string }).segment);
    if (!match) throw notFound();
    const { key } = await authorizedPlaylist(request, request.params);
    const stored = `${path.posix.dirname(key)}/${variant === undefined ? '' : `${variant}/`}${match[1]}.ts`;
    if (!sameText(match[2] ?? '', deps.seal(stored))) throw notFound();
    const stream = await deps.files.read(stored);
    if (!stream) throw notFound();
    return reply.header('content-type', 'video/mp2t').header('cache-control', MEDIA_CACHE.segment).send(stream);
  }

  /** A rendition's folder (`source`, `480p`); anything else is not found, before the token is looked at. */
  const variantOf = (request: FastifyRequest) => {
    const { variant } = request.params as { variant: string };
    if (!VARIANT_FOLDER.test(variant)) throw notFound();
    return variant;
  };

  app.get('/media/hls/:streamId/:token/index.m3u8', playlistRoute, (request, reply) => sendPlaylist(request, reply));
  app.get('/media/hls/:streamId/:token/:segment', segmentRoute, (request, reply) => sendSegment(request, reply));
  app.get('/media/hls/:streamId/:token/:variant/index.m3u8', variantPlaylistRoute, (request, reply) => sendPlaylist(request, reply, variantOf(request)));
  app.get('/media/hls/:streamId/:token/:variant/:segment', variantSegmentRoute, (request, reply) => sendSegment(request, reply, variantOf(request)));

  app.get('/media/thumbs/:file', thumbnailRoute, async (request, reply) => {
    const match = THUMB.exec((request.params as { file: string }).file);
    if (!match) throw notFound();
    const streamId = Number(match[1]);
    const key = await deps.thumbnailKey(streamId);
    const stream = key ? await deps.files.read(key) : null;
    if (!stream) throw notFound();
    return reply.header('content-type', 'image/jpeg').header('cache-control', 'public, max-age=10').send(await buffer(stream));
  });
}
