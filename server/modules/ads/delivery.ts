/**
 * Delivery and measured activity. `present` picks, for one viewer of a stream, one of the stream's
 * offers of a type: live, of a rating the stream allows, and not yet seen by this viewer in the current
 * window (the frequency cap: an offer whose impression counted is not shown again in it). The broadcaster
 * and viewers whose plan has 'no ads' get none. Its `impression_id` is signed for the viewer, the offer,
 * the stream and its broadcaster; `record` counts an impression, click or completion once per viewer,
 * offer and window (a unique row), with the commission the offer pays for it then.
 *
 * Who counts as one viewer: a signed-in user by account, a visitor by address alone (a header anyone can
 * change does not make a new visitor), as Get Popular's impressions count them.
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AdActivity, AdType, PresentedOffer } from '../../../common/api/ads';
import { AD } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { SKINS } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import { forbidden } from '../../platform/http/errors';
import type { PlaybackTokens } from '../../platform/media/playback-tokens';
import type { MediaAddresses, StreamsService, Viewer } from '../streams';
import { activeBenefits } from '../subscriptions';
import { commissionFor, creativeAddresses, type OfferRow } from './offers';
import { ratingsUpTo } from './selection';
import { adActivity, adCampaignOffers, adCampaigns, adOffers } from './tables';

/** An impression id stays usable this long after the offer was presented (a banner clicked late in a long stream). */
export const IMPRESSION_TTL_SECONDS = 6 * 3600;

/** The viewer activity counts for: `u:<user id>`, or `ip:<hash of the address>` for a visitor. */
export const countingKey = (viewer: Viewer, ip: string) =>
  viewer.principal ? `u:${viewer.principal.userId}` : `ip:${createHash('sha256').update(ip).digest('base64url').slice(0, 22)}`;

const IMPRESSION_ID = /^(\d{1,15})\.(\S{1,280})$/;
const SIGNED_FOR = /^(\d{1,15})\.(\d{1,15})\|(.+)$/;

export interface Presented {
  offerId: number;
  streamId: number;
  broadcasterId: number;
}

export function createDelivery(deps: { db: Db; streams: StreamsService; tokens: PlaybackTokens; addresses: MediaAddresses; windowMs: number; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const windowStart = () => new Date(Math.floor(now() / deps.windowMs) * deps.windowMs);

  const impressionIdOf = (offerId: number, streamId: number, broadcasterId: number, key: string) =>
    `${offerId}.${deps.tokens.sign(offerId, `${streamId}.${broadcasterId}|${key}`, IMPRESSION_TTL_SECONDS)}`;

  /** The presentation an impression id was signed for, when it was signed for this viewer; 403 otherwise. */
  function presentedTo(impressionId: string, key: string): Presented {
    const [, offer = '', token = ''] = IMPRESSION_ID.exec(impressionId) ?? [];
    const offerId = Number(offer);
    const signedFor = offer ? deps.tokens.verify(token, offerId) : null;
    const [, stream = '', broadcaster = '', signedKey] = (signedFor && SIGNED_FOR.exec(signedFor)) || [];
    if (signedKey !== key) throw forbidden(MSG.adsImpressionInvalid);
    return { offerId, streamId: Number(stream), broadcasterId: Number(broadcaster) };
  }

  /** One offer of the stream's campaign for this viewer, or null; the watch rules of the stream apply. */
  async function choose(streamId: number, type: AdType, viewer: Viewer, key: string): Promise<{ row: OfferRow; broadcasterId: number } | null> {
    const stream = await deps.streams.lookup(streamId, viewer);
    if (viewer.principal?.userId === stream.userId) return null;
    if (viewer.principal && SKINS[viewer.skin].flags.subscriptions && (await activeBenefits(db, viewer.principal.userId, stream.userId))?.no_ads) return null;
    const [row] = await db.select({ offer: adOffers }).from(adCampaignOffers)
      .innerJoin(adCampaigns, eq(adCampaigns.id, adCampaignOffers.campaignId))
      .innerJoin(adOffers, eq(adOffers.id, adCampaignOffers.offerId))
      .where(and(
        eq(adCampaigns.streamId, streamId),
        isNull(adOffers.deletedAt),
        eq(adOffers.type, type),
        inArray(adOffers.rating, ratingsUpTo(stream.rating)),
        sql`not exists (select 1 from ${adActivity} a where a.offer_id = ${adOffers.id} and a.viewer = ${key}
          and a.activity = 'impression' and a.window_start = ${windowStart().toISOString()}::timestamptz)`,
      ))
      .orderBy(sql`random()`).limit(1);
    return row ? { row: row.offer, broadcasterId: stream.userId } : null;
  }

  return {
    presentedTo,

    async present(streamId: number, type: AdType, viewer: Viewer, key: string): Promise<PresentedOffer | null> {
      const chosen = await choose(streamId, type, viewer, key);
      if (!chosen) return null;
      const { row } = chosen;
      return {
        offer_id: row.id,
        impression_id: impressionIdOf(row.id, streamId, chosen.broadcasterId, key),
        type: row.type,
        name: row.name,
        short_description: row.shortDescription,
        ad_link: row.adLink,
        ...creativeAddresses(deps.addresses, viewer, row),
        dim_x: row.dimX,
        dim_y: row.dimY,
        duration_seconds: row.durationSeconds,
        skip_after_seconds: AD.skipAfterSeconds,
      };
    },

    /** Counts the activity once per viewer, offer and window; true when this call counted it. A completion counts for pre-rolls only. */
    async record(impressionId: string, activity: AdActivity, key: string): Promise<boolean> {
      const presented = presentedTo(impressionId, key);
      const [offer] = await db.select().from(adOffers).where(eq(adOffers.id, presented.offerId));
      if (!offer || offer.deletedAt || (activity === 'complete' && offer.type !== 'PREROLL')) return false;
      const counted = await db.insert(adActivity).values({
        offerId: offer.id,
        streamId: presented.streamId,
        broadcasterId: presented.broadcasterId,
        viewer: key,
        activity,
        windowStart: windowStart(),
        commission: commissionFor(offer, activity),
      }).onConflictDoNothing().returning({ id: adActivity.id });
      return counted.length > 0;
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
