/**
 * A stream's pre-roll as an IAB VAST 4.2 document, for standard players (video.js, Google IMA, JW Player):
 * `GET /ads/vast?stream_id=` answers one InLine linear ad chosen for the fetcher as offer-presentation
 * chooses it, or an empty `<VAST/>` (no ad) when there is none or the fetcher may not watch the stream.
 * Its Impression, complete and ClickTracking addresses are `GET /ads/track` pixels that count like
 * offer-activity; the presentation id in them is signed for the fetcher (a guest: their address and
 * ad-viewer cookie), so a pixel fired by anyone else counts nothing, nor one fired from another site's
 * page. No open CORS grant: the document is read by our own pages' player (same origin) or one at the
 * configured public origin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AD_ACTIVITIES, type AdActivity, type PresentedOffer } from '../../../common/api/ads';
import { ACCESS } from '../../platform/http/access';
import { AppError } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import { viewerOf } from '../streams';
import { adViewerOf, fromAnotherSite, isOwnOrigin } from './ad-viewer';
import type { Delivery } from './delivery';

export const VAST_PATH = '/ads/vast';
export const TRACK_PATH = '/ads/track';
const VAST_VERSION = '4.2';

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
const cdata = (url: string) => `<![CDATA[${url.replaceAll(']]>', ']]%3E')}]]>`;

/** HH:MM:SS.mmm, VAST's time format. */
export function vastTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** The VAST document of one presented pre-roll; `origin` makes its addresses absolute, as VAST requires. */
export function vastDocument(offer: PresentedOffer | null, origin: string): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
  if (!offer?.video) return `${head}<VAST version="${VAST_VERSION}"/>\n`;
  const track = (activity: AdActivity) => cdata(`${origin}${TRACK_PATH}?impression_id=${encodeURIComponent(offer.impression_id)}&activity=${activity}`);
  const absolute = (address: string) => cdata(`${origin}${address}`);
  return `${head}<VAST version="${VAST_VERSION}" xmlns="http://www.iab.com/VAST">
  <Ad id="${offer.offer_id}">
    <InLine>
      <AdSystem version="1">Limelight</AdSystem>
      <AdServingId>${escapeXml(offer.impression_id)}</AdServingId>
      <AdTitle>${escapeXml(offer.name)}</AdTitle>
      <Description>${escapeXml(offer.short_description)}</Description>
      <Impression id="limelight">${track('impression')}</Impression>
      <Creatives>
        <Creative id="${offer.offer_id}" adId="${offer.offer_id}">
          <UniversalAdId idRegistry="limelight">${offer.offer_id}</UniversalAdId>
          <Linear skipoffset="${vastTime(offer.skip_after_seconds)}">
            <Duration>${vastTime(offer.duration_seconds ?? 0)}</Duration>
            <TrackingEvents>
              <Tracking event="complete">${track('complete')}</Tracking>
            </TrackingEvents>
            <VideoClicks>
              <ClickThrough id="limelight">${cdata(offer.ad_link)}</ClickThrough>
              <ClickTracking id="limelight">${track('click')}</ClickTracking>
            </VideoClicks>
            <MediaFiles>
              <MediaFile delivery="progressive" type="video/mp4" width="${offer.dim_x}" height="${offer.dim_y}">${absolute(offer.video)}</MediaFile>
            </MediaFiles>
            <Icons/>
          </Linear>
        </Creative>
      </Creatives>
    </InLine>
  </Ad>
</VAST>
`;
}

const STREAM_ID = /^\d{1,15}$/;

const vastDocs: RouteDocs = {
  security: [],
  parameters: [{ name: 'stream_id', in: 'query', required: true, schema: { type: 'integer', minimum: 1 }, description: 'The stream the pre-roll plays before' }],
  responses: { 200: { description: 'A VAST 4.2 document: one linear ad, or none (an empty VAST element).', content: { 'application/xml': { schema: { type: 'string' } } } } },
  refusals: [],
  description: "The stream's pre-roll for the fetcher, as offer-presentation chooses it; an empty VAST when there is none.",
};

const trackDocs: RouteDocs = {
  security: [],
  parameters: [
    { name: 'impression_id', in: 'query', required: true, schema: { type: 'string', maxLength: 300 }, description: 'From the VAST document' },
    { name: 'activity', in: 'query', required: true, schema: { type: 'string', enum: [...AD_ACTIVITIES] }, description: 'What happened' },
  ],
  responses: { 204: { description: 'Recorded (counted once per viewer, offer and window).' } },
  refusals: [],
  description: "A VAST tracking pixel: offer-activity for players that fire addresses. A pixel not signed for the fetcher, or fired from another site's page, counts nothing.",
};

export function registerVastRoutes(app: FastifyInstance, deps: { delivery: Delivery }) {
  const route = (summary: string, openapi: RouteDocs) => ({ logLevel: 'warn' as const, schema: { tags: ['ads'], summary }, config: { access: ACCESS.public, openapi } });

  const sendVast = (request: FastifyRequest, reply: FastifyReply, body: string) => {
    reply.header('content-type', 'application/xml; charset=utf-8').header('cache-control', 'no-store').header('vary', 'Origin');
    // Only our own origin is granted a cross-origin read (a player on the configured public address): the pixels in it are this viewer's.
    const origin = request.headers.origin;
    if (origin !== undefined && isOwnOrigin(request, origin)) reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true');
    return reply.send(body);
  };

  app.get(VAST_PATH, route("A stream's pre-roll as a VAST 4.2 document", vastDocs), async (request, reply) => {
    const { stream_id: streamId } = request.query as { stream_id?: unknown };
    if (typeof streamId !== 'string' || !STREAM_ID.test(streamId) || fromAnotherSite(request)) return sendVast(request, reply, vastDocument(null, request.publicOrigin));
    const principal = await request.currentPrincipal();
    try {
      const offer = await deps.delivery.present(Number(streamId), 'PREROLL', viewerOf(request, principal), adViewerOf(request, principal, reply));
      return sendVast(request, reply, vastDocument(offer, request.publicOrigin));
    } catch (error) {
      // A stream the fetcher may not watch (or that is not there) has no ad for them.
      if (error instanceof AppError) return sendVast(request, reply, vastDocument(null, request.publicOrigin));
      throw error;
    }
  });

  app.get(TRACK_PATH, route('A VAST tracking pixel (impression, click, complete)', trackDocs), async (request, reply) => {
    const { impression_id: presentationId, activity } = request.query as { impression_id?: unknown; activity?: unknown };
    if (typeof presentationId === 'string' && presentationId.length <= 300 && AD_ACTIVITIES.includes(activity as AdActivity) && !fromAnotherSite(request)) {
      await deps.delivery.record(presentationId, activity as AdActivity, adViewerOf(request, await request.currentPrincipal())).catch((error: unknown) => {
        if (!(error instanceof AppError)) throw error;
      });
    }
    return reply.header('cache-control', 'no-store').code(204).send();
  });
}
