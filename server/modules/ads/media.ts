/**
 * Offers' creatives are served only through short-lived addresses signed for one viewer
 * (`/media/ads/<offer>/<file>?token=`, the posts' scheme): each fetch checks the fetcher is that viewer,
 * that the offer has not been withdrawn, and that an 18+ creative is fetched from the adult skin.
 */
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { SKINS } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import { ACCESS } from '../../platform/http/access';
import { forbidden, notFound } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import type { PlaybackTokens } from '../../platform/media/playback-tokens';
import type { FileStore } from '../../platform/storage/storage';
import { signedMediaViewer } from '../streams';
import { CREATIVE_TYPES, isCreativeFile } from './creatives';
import { adOffers } from './tables';

export const CREATIVES_PREFIX = '/media/ads';

const creativeDocs: RouteDocs = {
  security: [],
  parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string', maxLength: 200 }, description: 'The token of an address from offer-presentation or an offer list' }],
  responses: { 200: { description: "An offer's image (WebP), pre-roll video (MP4) or poster (JPEG).", content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } },
  refusals: [403, 404],
  description: 'Signed for one viewer and short-lived; each fetch checks the fetcher is that viewer and the offer is still offered.',
};

export function registerCreativeRoute(app: FastifyInstance, deps: { db: Db; files: FileStore; tokens: PlaybackTokens }) {
  const config = { access: ACCESS.public, openapi: creativeDocs };
  app.get(`${CREATIVES_PREFIX}/:offerId/:file`, { logLevel: 'warn', schema: { tags: ['media'], summary: "An offer's creative" }, config }, async (request, reply) => {
    const { offerId: idParam, file } = request.params as { offerId: string; file: string };
    const offerId = /^\d{1,15}$/.test(idParam) ? Number(idParam) : NaN;
    if (!Number.isSafeInteger(offerId) || !isCreativeFile(file)) throw notFound();
    const signed = await signedMediaViewer(request, deps.tokens, offerId);
    if (!signed) throw forbidden();
    const [offer] = await deps.db.select({ key: adOffers.creativeKey, rating: adOffers.rating, deletedAt: adOffers.deletedAt }).from(adOffers).where(eq(adOffers.id, offerId));
    if (!offer || offer.deletedAt) throw notFound();
    if (offer.rating === 'PLUS_18' && !SKINS[signed.viewer.skin].flags.adultContent) throw forbidden();
    const stored = await deps.files.open(`${offer.key}/${file}`);
    if (!stored) throw notFound();
    return reply.header('content-type', CREATIVE_TYPES[file]).header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=600').header('content-length', stored.size).send(stored.body);
  });
}
