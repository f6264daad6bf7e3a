/**
 * A broadcaster's choice of offers for the current stream (spec part 1 §2 Dashboard), in skins with ad
 * selection: the public list, 10 a page, marks the ones attached; 'Update Stream Ads' replaces the set.
 * The stream must have started (Go Live); its set is its campaign, read by the stream info.
 */
import { and, count, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { PublicOffer } from '../../../common/api/ads';
import { RATINGS } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { SKINS, type Rating, type SkinId } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { conflict, forbidden, notFound } from '../../platform/http/errors';
import type { MediaAddresses, StreamRow, StreamReads, Viewer } from '../streams';
import { commissionOf, creativeAddresses } from './offers';
import { adCampaignOffers, adCampaigns, adOffers } from './tables';

/** Offer ratings a stream of this rating may carry: its own and the milder ones. */
export const ratingsUpTo = (rating: Rating): Rating[] => RATINGS.slice(0, RATINGS.indexOf(rating) + 1);

export function createSelection(deps: { db: Db; streamReads: Pick<StreamReads, 'findStream' | 'openStreamIdsOf'>; addresses: MediaAddresses }) {
  const { db } = deps;

  function assertAdSelection(skin: SkinId) {
    if (!SKINS[skin].flags.adSelection) throw forbidden(MSG.adsSelectionUnavailable);
  }

  /** The broadcaster's stream that has started and not ended; null before Go Live. */
  async function startedStream(userId: number): Promise<StreamRow | null> {
    for (const id of await deps.streamReads.openStreamIdsOf(userId)) {
      const row = await deps.streamReads.findStream(id);
      if (!row.hidden) return row;
    }
    return null;
  }

  const selectedOf = async (streamId: number): Promise<Set<number>> => {
    const rows = await db.select({ offerId: adCampaignOffers.offerId }).from(adCampaignOffers)
      .innerJoin(adCampaigns, eq(adCampaigns.id, adCampaignOffers.campaignId)).where(eq(adCampaigns.streamId, streamId));
    return new Set(rows.map((r) => r.offerId));
  };

  return {
    startedStream,

    async publicList(principal: Principal, viewer: Viewer, offset: number, limit: number) {
      assertAdSelection(viewer.skin);
      const stream = await startedStream(principal.userId);
      // An advertiser's own offers earn nothing on their streams: they are not offered there.
      const where = and(isNull(adOffers.deletedAt), ne(adOffers.ownerId, principal.userId), stream ? inArray(adOffers.rating, ratingsUpTo(stream.rating)) : undefined);
      const [rows, [total], selected] = await Promise.all([
        db.select().from(adOffers).where(where).orderBy(desc(adOffers.id)).offset(offset).limit(limit),
        db.select({ n: count() }).from(adOffers).where(where),
        stream ? selectedOf(stream.id) : Promise.resolve(new Set<number>()),
      ]);
      const offers: PublicOffer[] = rows.map((row) => ({
        id: row.id,
        name: row.name,
        short_description: row.shortDescription,
        description: row.description,
        commission: commissionOf(row),
        rating: row.rating,
        type: row.type,
        thumbnail: creativeAddresses(deps.addresses, viewer, row).thumbnail,
        selected: selected.has(row.id),
      }));
      return { offers, total: total?.n ?? 0, stream_id: stream?.id ?? null };
    },

    /** Replaces the offers of the broadcaster's started stream; every one must be live, another advertiser's, and of a rating the stream allows. */
    async update(principal: Principal, skin: SkinId, offerIds: number[]) {
      assertAdSelection(skin);
      const stream = await startedStream(principal.userId);
      if (!stream) throw conflict(MSG.adsStartStreamingFirst);
      const ids = [...new Set(offerIds)];
      const found = ids.length === 0 ? [] : await db.select({ id: adOffers.id }).from(adOffers)
        .where(and(inArray(adOffers.id, ids), isNull(adOffers.deletedAt), ne(adOffers.ownerId, principal.userId), inArray(adOffers.rating, ratingsUpTo(stream.rating))));
      if (found.length !== ids.length) throw notFound(MSG.adsOfferUnknown);
      const campaignId = await db.transaction(async (tx) => {
        const [campaign] = await tx.insert(adCampaigns).values({ streamId: stream.id, broadcasterId: principal.userId })
          .onConflictDoUpdate({ target: adCampaigns.streamId, set: { updatedAt: sql`now()` } }).returning({ id: adCampaigns.id });
        await tx.delete(adCampaignOffers).where(eq(adCampaignOffers.campaignId, campaign!.id));
        if (ids.length > 0) await tx.insert(adCampaignOffers).values(ids.map((offerId) => ({ campaignId: campaign!.id, offerId })));
        return campaign!.id;
      });
      return { stream_id: stream.id, campaign_id: ids.length > 0 ? campaignId : null, offer_ids: ids };
    },

    /** The stream info's campaign: its id while it carries an offer that has not been withdrawn. */
    async campaignOf(streamId: number) {
      const [row] = await db.select({
        id: adCampaigns.id,
        // Qualified by hand: in a one-table select drizzle writes the column unqualified, which the subquery would read as o.id.
        offers: sql<number>`(select count(*)::int from ${adCampaignOffers} co join ${adOffers} o on o.id = co.offer_id
          where co.campaign_id = ad_campaigns.id and o.deleted_at is null)`,
      }).from(adCampaigns).where(eq(adCampaigns.streamId, streamId));
      const hasOffers = (row?.offers ?? 0) > 0;
      return { id: hasOffers ? row!.id : null, hasOffers };
    },
  };
}

export type Selection = ReturnType<typeof createSelection>;
