import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { AD_ACTIVITIES, AD_TYPES } from '../../../common/api/ads';
import { RATINGS } from '../../../common/api/streams';
import { userRef } from '../accounts/tables';
import { streams } from '../streams/tables';

/** An advertiser's offer (spec part 1 §3 Offer): its creative, target link, rating and what each counted activity pays. */
export const adOffers = pgTable(
  'ad_offers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    ownerId: userRef('owner_id'),
    name: text('name').notNull(),
    shortDescription: text('short_description').notNull(),
    description: text('description').notNull().default(''),
    type: text('type', { enum: AD_TYPES }).notNull(),
    rating: text('rating', { enum: RATINGS }).notNull(),
    adLink: text('ad_link').notNull(),
    dimX: integer('dim_x').notNull(),
    dimY: integer('dim_y').notNull(),
    /** Coins paid to the broadcaster per counted impression, click and completion. */
    commissionImpression: integer('commission_impression').notNull().default(0),
    commissionClick: integer('commission_click').notNull().default(0),
    commissionComplete: integer('commission_complete').notNull().default(0),
    /** The storage folder of the creative (`ads/<random>`): image.webp, or creative.mp4 and poster.jpg. */
    creativeKey: text('creative_key').notNull(),
    durationSeconds: real('duration_seconds'),
    /**
     * Coins of the offer's campaign account (ledger system account `ad-campaign:<id>`) not yet owed for
     * counted activity: a count takes its commission from here, funding adds, a withdrawal takes. The
     * campaign account always holds this plus the unsettled commissions of the offer (decision 0037).
     */
    budget: bigint('budget', { mode: 'number' }).notNull().default(0),
    /** Paused by its advertiser: not shown, nothing counted; its budget can be withdrawn. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Withdrawn: off every stream and list; its counted activity is still paid. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('ad_offers_public_idx').on(t.id).where(sql`${t.deletedAt} is null`),
    index('ad_offers_owner_idx').on(t.ownerId, t.id),
    check('ad_offers_commission', sql`${t.commissionImpression} >= 0 and ${t.commissionClick} >= 0 and ${t.commissionComplete} >= 0`),
    check('ad_offers_budget', sql`${t.budget} >= 0`),
  ],
);

/** A stream's campaign: the offers its broadcaster attached (stream info's `campaign_id`). */
export const adCampaigns = pgTable('ad_campaigns', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  streamId: bigint('stream_id', { mode: 'number' }).notNull().unique().references(() => streams.id, { onDelete: 'cascade' }),
  broadcasterId: userRef('broadcaster_id'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const adCampaignOffers = pgTable(
  'ad_campaign_offers',
  {
    campaignId: bigint('campaign_id', { mode: 'number' }).notNull().references(() => adCampaigns.id, { onDelete: 'cascade' }),
    offerId: bigint('offer_id', { mode: 'number' }).notNull().references(() => adOffers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.offerId] })],
);

/**
 * Counted activity: one row per (offer, viewer, activity, window), so a reload loop or a script counts
 * once. `commission` is what the offer paid for it when counted; `settled_at` is set in the transaction
 * of the settlement that paid it.
 */
export const adActivity = pgTable(
  'ad_activity',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    offerId: bigint('offer_id', { mode: 'number' }).notNull().references(() => adOffers.id, { onDelete: 'cascade' }),
    streamId: bigint('stream_id', { mode: 'number' }).notNull(),
    broadcasterId: userRef('broadcaster_id'),
    /** `u:<user id>` or `ip:<hash of the address>`. */
    viewer: text('viewer').notNull(),
    activity: text('activity', { enum: AD_ACTIVITIES }).notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    /** The presentation (the nonce in its presentation id, the API's impression_id) it belongs to: a click needs its impression, a completion both. */
    presentation: text('presentation'),
    commission: integer('commission').notNull(),
    countedAt: timestamp('counted_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ad_activity_once_idx').on(t.offerId, t.viewer, t.activity, t.windowStart),
    index('ad_activity_unsettled_idx').on(t.countedAt, t.broadcasterId).where(sql`${t.settledAt} is null`),
    check('ad_activity_commission', sql`${t.commission} >= 0`),
  ],
);
