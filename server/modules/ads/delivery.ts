/**
 * Delivery and measured activity (decisions 0021, 0037). `present` picks, for one viewer of a stream that
 * is live or whose replay they may play, one of the stream's offers of a type: live, not paused, not the
 * broadcaster's own, of a rating the stream allows, whose campaign budget pays what one presentation can earn,
 * and not yet seen by this viewer in the current window (the frequency cap). The broadcaster and viewers
 * whose plan has 'no ads' get none. Its presentation id (the API's `impression_id`) is issued then, good for
 * AD.presentationTtlSeconds, signed for the viewer (ad-viewer.ts), the offer, the stream and its broadcaster.
 *
 * `record` counts, once per viewer, offer and window (a unique row): an ad impression of such an id; a click
 * only after that presentation's impression counted; a completion (pre-rolls) only after both. Each count
 * takes its commission from the offer's budget in the same transaction, or earns nothing when the budget
 * cannot pay it (campaign.ts); an offer's activity on its own advertiser's stream is never counted.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { AdActivity, AdType, PresentedOffer } from '../../../common/api/ads';
import { AD } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { SKINS } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import { forbidden } from '../../platform/http/errors';
import type { PlaybackTokens } from '../../platform/media/playback-tokens';
import type { MediaAddresses, StreamAccess, Viewer } from '../streams';
import { activeBenefits } from '../subscriptions';
import type { AdViewer } from './ad-viewer';
import { commissionFor, creativeAddresses, type OfferRow } from './offers';
import { ratingsUpTo } from './selection';
import { adActivity, adCampaignOffers, adCampaigns, adOffers } from './tables';

const PRESENTATION_ID = /^(\d{1,15})\.(\S{1,280})$/;
const SIGNED_FOR = /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{22})$/;

/** What a presentation can earn at most: its impression, click and (a pre-roll's) completion. */
const presentationCostSql = sql`${adOffers.commissionImpression} + ${adOffers.commissionClick} + case when ${adOffers.type} = 'PREROLL' then ${adOffers.commissionComplete} else 0 end`;

/** What must have counted for this presentation before an activity counts: nothing before an impression. */
const PREREQUISITES: Record<AdActivity, AdActivity[]> = { impression: [], click: ['impression'], complete: ['impression', 'click'] };

const bindingHash = (bindingKey: string) => createHash('sha256').update(bindingKey).digest('base64url').slice(0, 22);

export interface Presented {
  offerId: number;
  streamId: number;
  broadcasterId: number;
  presentation: string;
}

export function createDelivery(deps: { db: Db; streamAccess: Pick<StreamAccess, 'lookup' | 'mayPlay'>; tokens: PlaybackTokens; addresses: MediaAddresses; windowMs: number; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const windowStart = () => new Date(Math.floor(now() / deps.windowMs) * deps.windowMs);

  const presentationIdOf = (offerId: number, streamId: number, broadcasterId: number, viewer: AdViewer) => {
    const presentation = randomBytes(9).toString('base64url');
    return `${offerId}.${deps.tokens.sign(offerId, `${streamId}.${broadcasterId}.${presentation}.${bindingHash(viewer.bindingKey)}`, AD.presentationTtlSeconds)}`;
  };

  /** The presentation a presentation id was issued for, when it was issued to this viewer and has not expired; 403 otherwise. */
  function presentedTo(presentationId: string, viewer: AdViewer): Presented {
    const [, offer = '', token = ''] = PRESENTATION_ID.exec(presentationId) ?? [];
    const offerId = Number(offer);
    const signedFor = offer ? deps.tokens.verify(token, offerId) : null;
    const [, stream = '', broadcaster = '', presentation = '', binding] = (signedFor && SIGNED_FOR.exec(signedFor)) || [];
    if (binding !== bindingHash(viewer.bindingKey)) throw forbidden(MSG.adsPresentationInvalid);
    return { offerId, streamId: Number(stream), broadcasterId: Number(broadcaster), presentation };
  }

  /** One offer of the stream's campaign for this viewer, or null; the watch rules of the stream apply, and it must be playing. */
  async function choose(streamId: number, type: AdType, viewer: Viewer, key: string): Promise<{ row: OfferRow; broadcasterId: number } | null> {
    const stream = await deps.streamAccess.lookup(streamId, viewer);
    if (viewer.principal?.userId === stream.userId) return null;
    if (!(await deps.streamAccess.mayPlay(streamId, viewer))) return null;
    if (viewer.principal && SKINS[viewer.skin].flags.subscriptions && (await activeBenefits(db, viewer.principal.userId, stream.userId))?.no_ads) return null;
    const [row] = await db.select({ offer: adOffers }).from(adCampaignOffers)
      .innerJoin(adCampaigns, eq(adCampaigns.id, adCampaignOffers.campaignId))
      .innerJoin(adOffers, eq(adOffers.id, adCampaignOffers.offerId))
      .where(and(
        eq(adCampaigns.streamId, streamId),
        isNull(adOffers.deletedAt),
        isNull(adOffers.pausedAt),
        sql`${adOffers.ownerId} <> ${stream.userId}`,
        gte(adOffers.budget, presentationCostSql),
        eq(adOffers.type, type),
        inArray(adOffers.rating, ratingsUpTo(stream.rating)),
        sql`not exists (select 1 from ${adActivity} a where a.offer_id = ${adOffers.id} and a.viewer = ${key}
          and a.activity = 'impression' and a.window_start = ${windowStart().toISOString()}::timestamptz)`,
      ))
      .orderBy(sql`random()`).limit(1);
    return row ? { row: row.offer, broadcasterId: stream.userId } : null;
  }

  /** Whether the presentation's earlier activity this one needs has counted for this viewer. */
  async function prerequisitesCounted(presented: Presented, activity: AdActivity, countingKey: string): Promise<boolean> {
    const needed = PREREQUISITES[activity];
    if (needed.length === 0) return true;
    const rows = await db.select({ activity: adActivity.activity }).from(adActivity).where(and(
      eq(adActivity.offerId, presented.offerId), eq(adActivity.viewer, countingKey), eq(adActivity.presentation, presented.presentation), inArray(adActivity.activity, needed),
    ));
    return needed.every((kind) => rows.some((row) => row.activity === kind));
  }

  /** The count's row, its commission taken from the offer's budget in the same transaction (0 when the budget cannot pay it). */
  async function count(offer: OfferRow, presented: Presented, activity: AdActivity, countingKey: string): Promise<boolean> {
    const commission = commissionFor(offer, activity);
    return db.transaction(async (tx) => {
      const [counted] = await tx.insert(adActivity).values({
        offerId: offer.id, streamId: presented.streamId, broadcasterId: presented.broadcasterId, viewer: countingKey, activity,
        windowStart: windowStart(), presentation: presented.presentation, commission,
      }).onConflictDoNothing().returning({ id: adActivity.id });
      if (!counted) return false;
      if (commission > 0) {
        const taken = await tx.update(adOffers).set({ budget: sql`${adOffers.budget} - ${commission}` })
          .where(and(eq(adOffers.id, offer.id), gte(adOffers.budget, commission))).returning({ id: adOffers.id });
        if (taken.length === 0) await tx.update(adActivity).set({ commission: 0 }).where(eq(adActivity.id, counted.id));
      }
      return true;
    });
  }

  return {
    presentedTo,

    async present(streamId: number, type: AdType, viewer: Viewer, adViewer: AdViewer): Promise<PresentedOffer | null> {
      const chosen = await choose(streamId, type, viewer, adViewer.countingKey);
      if (!chosen) return null;
      const { row } = chosen;
      return {
        offer_id: row.id,
        impression_id: presentationIdOf(row.id, streamId, chosen.broadcasterId, adViewer),
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

    /**
     * Counts the activity once per viewer, offer and window, in the presentation's order; true when this
     * call counted it. A completion counts for pre-rolls only; a paused or withdrawn offer, and one on its
     * own advertiser's stream, count nothing.
     */
    async record(presentationId: string, activity: AdActivity, adViewer: AdViewer): Promise<boolean> {
      const presented = presentedTo(presentationId, adViewer);
      const [offer] = await db.select().from(adOffers).where(eq(adOffers.id, presented.offerId));
      if (!offer || offer.deletedAt || offer.pausedAt || offer.ownerId === presented.broadcasterId) return false;
      if (activity === 'complete' && offer.type !== 'PREROLL') return false;
      if (!(await prerequisitesCounted(presented, activity, adViewer.countingKey))) return false;
      return count(offer, presented, activity, adViewer.countingKey);
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
