/**
 * Advertiser offers on streams (spec part 1 §1, §2 Dashboard and Stream view, §3 Offer, §4 Ads, §5;
 * part 2 §7 ads calls, §8, §9; decision 0021).
 *
 * - Offers: administrators and holders of CREATE AD_OFFER manage offers (their own; administrators
 *   every one): a creative uploaded through /uploads (an image for BANNER and CHAT, a video for
 *   PREROLL), a target link, a rating and what each counted activity pays the broadcaster.
 * - Selection: a broadcaster, in a skin with ad selection, picks offers from the public list for the
 *   current stream ('Update Stream Ads'; 'Please start streaming first' without one). The selection is
 *   the stream's campaign (`campaign_id` of stream info).
 * - Delivery: `offer-presentation` picks one of the stream's offers of a type for the caller, of a rating
 *   the stream allows, not yet seen by this viewer in the window (frequency cap); none for a viewer whose
 *   plan has 'no ads'. Pre-rolls are also a VAST 4 document at `/ads/vast?stream_id=`.
 * - Activity: `impression_id` is signed for the viewer it was presented to; `offer-activity` counts an
 *   impression, click or completion once per viewer, offer and window; counted activity is paid to the
 *   broadcaster through the ledger once per settlement period (`ad_commission` in the wallet history).
 * - Prepaid (decision 0037): each offer has a campaign balance its advertiser funds from their wallet
 *   (`offer-fund`) and takes back while it is paused or when it is withdrawn (`offer-withdraw`);
 *   commissions are paid from it only, and an offer whose balance cannot pay a presentation is not presented.
 */
import { z } from 'zod';
import { AD, PAGE_SIZE } from '../constants';
import { fill, MSG } from '../messages';
import { defineCall, success } from './define';
import { numeric, oneOf, optionalText, requiredText, userId } from './fields';
import { uploadId } from './posts';
import { RATINGS, streamId } from './streams';

export const AD_TYPES = ['PREROLL', 'BANNER', 'CHAT'] as const;
export type AdType = (typeof AD_TYPES)[number];
export const AD_ACTIVITIES = ['impression', 'click', 'complete'] as const;
export type AdActivity = (typeof AD_ACTIVITIES)[number];

export const offerId = numeric(z.number({ error: MSG.mustBeOfferId }).int(MSG.mustBeOfferId).positive(MSG.mustBeOfferId).max(Number.MAX_SAFE_INTEGER, MSG.mustBeOfferId));

const commissionCoins = numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole).min(0, MSG.coinsNumber)
  .max(AD.commissionMax, fill(MSG.coinsAtMost, { max: AD.commissionMax })));

/** Coins the broadcaster earns for each counted activity of a viewer. */
export const commission = z.strictObject({ impression: commissionCoins, click: commissionCoins, complete: commissionCoins });
/** The same, as answers carry it. */
const commissionAnswer = z.object({ impression: z.number(), click: z.number(), complete: z.number() });
export type Commission = z.infer<typeof commissionAnswer>;

const adLink = requiredText(MSG.adsLinkInvalid, 500).refine((text) => {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}, MSG.adsLinkInvalid);

const dimension = numeric(z.number({ error: MSG.mustBeWholeNumber }).int(MSG.mustBeWholeNumber).min(1, MSG.mustBeWholeNumber).max(4096, MSG.mustBeWholeNumber));

const offerFields = {
  name: requiredText(MSG.adsOfferNameRequired, 80),
  short_description: requiredText(MSG.adsShortDescriptionRequired, 140),
  description: optionalText(2000),
  type: z.enum(AD_TYPES, { error: oneOf(AD_TYPES) }),
  rating: z.enum(RATINGS, { error: oneOf(RATINGS) }),
  ad_link: adLink,
  /** The size it shows at, in CSS pixels; the creative's own size when left out. */
  dim_x: dimension.optional(),
  dim_y: dimension.optional(),
  commission,
};

/** An offer as its manager sees it. Addresses are signed for the caller. */
export const managedOffer = z.object({
  id: z.number(),
  name: z.string(),
  short_description: z.string(),
  description: z.string(),
  type: z.enum(AD_TYPES),
  rating: z.enum(RATINGS),
  ad_link: z.string(),
  dim_x: z.number(),
  dim_y: z.number(),
  commission: commissionAnswer,
  /** The banner or chat image, or the pre-roll's poster. */
  thumbnail: z.string(),
  /** The pre-roll video (MP4); null for other types. */
  video: z.string().nullable(),
  duration_seconds: z.number().nullable(),
  owner: z.object({ user_id: z.number(), username: z.string() }),
  /** Activity counted so far. */
  counted: commissionAnswer.meta({ description: 'Counted impressions, clicks and completions' }),
  /** Coins of the campaign balance not yet owed for counted activity: what new commissions are paid from. */
  balance: z.number(),
  /** Paused: not shown, nothing counted; its balance can be withdrawn. */
  paused: z.boolean(),
  created_at: z.string(),
});
export type ManagedOffer = z.infer<typeof managedOffer>;

const page = (max: number, fallback: number) => ({
  offset: numeric(z.number().int().min(0).max(1_000_000).default(0)),
  limit: numeric(z.number().int().min(1).max(max).default(fallback)),
});

export const offerList = defineCall({
  method: 'GET',
  path: '/api/ads/offer-list',
  summary: "Offers the caller manages: an administrator's all, an advertiser's own (newest first)",
  refusals: [403],
  input: z.strictObject(page(50, 20)),
  output: success({ offers: z.array(managedOffer), total: z.number() }),
});

export const offerCreate = defineCall({
  method: 'POST',
  path: '/api/ads/offer-create',
  summary: 'A new offer from a finished upload (an image for BANNER and CHAT, a video for PREROLL)',
  refusals: [403, 404, 507],
  input: z.strictObject({ ...offerFields, upload_id: uploadId })
    .meta({ examples: [{ name: 'Spring sale', short_description: 'Everything 20% off', type: 'BANNER', rating: 'G', ad_link: 'https://shop.example/spring', commission: { impression: 1, click: 5, complete: 0 }, upload_id: 'q0Zt3x8yHk2mVb7wLr1sPa9c' }] }),
  output: success({ offer: managedOffer }),
});

export const offerUpdate = defineCall({
  method: 'POST',
  path: '/api/ads/offer-update',
  summary: "Changes an offer's fields; a new upload replaces its creative (same kind: image or video)",
  refusals: [403, 404, 507],
  input: z.strictObject({
    id: offerId,
    name: offerFields.name.optional(),
    short_description: offerFields.short_description.optional(),
    description: offerFields.description,
    rating: offerFields.rating.optional(),
    ad_link: adLink.optional(),
    dim_x: offerFields.dim_x,
    dim_y: offerFields.dim_y,
    commission: commission.optional(),
    upload_id: uploadId.optional(),
    paused: z.boolean({ error: MSG.adsPausedTrueOrFalse }).optional(),
  }),
  output: success({ offer: managedOffer }),
});

const fundingCoins = numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole).min(1, MSG.coinsNumber)
  .max(AD.fundingMax, fill(MSG.coinsAtMost, { max: AD.fundingMax })));

export const offerFund = defineCall({
  method: 'POST',
  path: '/api/ads/offer-fund',
  summary: "Moves coins from the advertiser's wallet to the offer's campaign balance, which pays its commissions",
  refusals: [402, 403, 404],
  idempotencyKey: 'required',
  input: z.strictObject({ id: offerId, coins: fundingCoins }),
  output: success({ offer: managedOffer }),
});

export const offerWithdraw = defineCall({
  method: 'POST',
  path: '/api/ads/offer-withdraw',
  summary: "Moves what is left of a paused offer's campaign balance (less what counted activity is owed) back to the advertiser's wallet",
  refusals: [403, 404, 409],
  idempotencyKey: 'required',
  input: z.strictObject({ id: offerId }),
  output: success({ offer: managedOffer, coins: z.number() }),
});

export const offerDelete = defineCall({
  method: 'POST',
  path: '/api/ads/offer-delete',
  summary: "Withdraws an offer: it leaves every stream and the public list; counted activity is still paid, what is left of its balance goes back to the advertiser's wallet",
  refusals: [403, 404],
  input: z.strictObject({ id: offerId }),
  output: success({}),
});

/** An offer in the broadcaster's public list (spec part 1 §3 list form). */
export const publicOffer = z.object({
  id: z.number(),
  name: z.string(),
  short_description: z.string(),
  description: z.string(),
  commission: commissionAnswer,
  rating: z.enum(RATINGS),
  type: z.enum(AD_TYPES),
  thumbnail: z.string(),
  /** Attached to the caller's current stream. */
  selected: z.boolean(),
});
export type PublicOffer = z.infer<typeof publicOffer>;

export const publicOfferList = defineCall({
  method: 'GET',
  path: '/api/ads/public-offer-list',
  summary: 'Offers a broadcaster can attach to the current stream, 10 a page (skins with ad selection)',
  refusals: [403],
  input: z.strictObject(page(PAGE_SIZE.publicOffers, PAGE_SIZE.publicOffers)),
  output: success({ offers: z.array(publicOffer), total: z.number(), stream_id: z.number().nullable() }),
});

export const updateStreamOffers = defineCall({
  method: 'POST',
  path: '/api/ads/update-stream-offers',
  summary: "Sets the offers of the caller's current stream ('Update Stream Ads'); 409 'Please start streaming first' without one",
  refusals: [403, 404, 409],
  input: z.strictObject({
    offer_ids: z.array(offerId, { error: MSG.mustBeOfferId }).max(AD.maxStreamOffers, fill(MSG.adsTooManyOffers, { max: AD.maxStreamOffers })),
  }),
  output: success({ stream_id: z.number(), campaign_id: z.number().nullable(), offer_ids: z.array(z.number()) }),
});

/** An offer chosen for one viewer of a stream (spec part 1 §3 Offer; banner ad: ad_link, thumbnail, short_description). */
export const presentedOffer = z.object({
  offer_id: z.number(),
  /** Signed for this viewer: what offer-activity takes. */
  impression_id: z.string(),
  type: z.enum(AD_TYPES),
  name: z.string(),
  short_description: z.string(),
  ad_link: z.string(),
  /** The pre-roll's MP4, signed for this viewer; null for other types. */
  video: z.string().nullable(),
  /** The image (the pre-roll's poster), signed for this viewer. */
  thumbnail: z.string(),
  dim_x: z.number(),
  dim_y: z.number(),
  duration_seconds: z.number().nullable(),
  /** A pre-roll can be skipped after this many seconds. */
  skip_after_seconds: z.number(),
});
export type PresentedOffer = z.infer<typeof presentedOffer>;

export const offerPresentation = defineCall({
  method: 'GET',
  path: '/api/ads/offer-presentation',
  summary: "One of the stream's offers of this type for the caller, or null (none left in the window, 'no ads' plan)",
  refusals: [403, 404],
  input: z.strictObject({ stream_id: streamId, type: z.enum(AD_TYPES, { error: oneOf(AD_TYPES) }) }),
  output: success({ offer: presentedOffer.nullable() }),
});

export const presentationId = z.string({ error: MSG.adsPresentationInvalid }).min(1, MSG.adsPresentationInvalid).max(300, MSG.adsPresentationInvalid);

export const offerActivity = defineCall({
  method: 'POST',
  path: '/api/ads/offer-activity',
  summary: 'Records an impression, click or completion of a presented offer: counted once per viewer, offer and window',
  refusals: [403],
  input: z.strictObject({ impression_id: presentationId, activity: z.enum(AD_ACTIVITIES, { error: oneOf(AD_ACTIVITIES) }) }),
  output: success({ counted: z.boolean() }),
});

export const AD_PLACEMENTS = { PREROLL: 'preroll', BANNER: 'banner', CHAT: 'chat' } as const;

/** A publisher network's ad unit id: digits; 0 means the placement is off and is never requested (spec part 1 §5). */
export const adUnitId = numeric(z.number({ error: MSG.mustBeWholeNumber }).int(MSG.mustBeWholeNumber).min(0, MSG.mustBeWholeNumber).max(Number.MAX_SAFE_INTEGER, MSG.mustBeWholeNumber));

export const publisher = defineCall({
  method: 'POST',
  path: '/api/ads/publisher',
  summary: "The ad unit of a publisher network in this skin, for a broadcaster's current stream (its VAST address for a pre-roll)",
  refusals: [404],
  input: z.strictObject({
    network: requiredText(MSG.adsUnitUnknown, 40),
    user_id: userId,
    adunit_id: adUnitId.refine((id) => id !== 0, MSG.adsUnitZero),
  }),
  output: success({
    publisher: z.object({
      network: z.string(),
      adunit_id: z.number(),
      type: z.enum(AD_TYPES),
      stream_id: z.number(),
      /** The IAB VAST 4 document of a pre-roll unit; null for banner and chat units. */
      vast_url: z.string().nullable(),
    }),
  }),
});

export const exoClickTracking = defineCall({
  method: 'GET',
  path: '/api/user/exo-click-tracking',
  summary: "Records the click of a publisher network's ad (its tracking id is the presented offer's impression id)",
  changesState: true,
  refusals: [403],
  input: z.strictObject({ tracking_id: presentationId }),
  output: success({ counted: z.boolean() }),
});

/** The ads settings of the caller's skin, in app-config. */
export const adsSettings = z.object({
  network: z.string(),
  /** Ad unit ids per placement; 0: that placement is off. */
  units: z.object({ preroll: z.number(), banner: z.number(), chat: z.number() }),
  /** A chat ad line every this many seconds while watching. */
  chat_interval_seconds: z.number(),
});
export type AdsSettings = z.infer<typeof adsSettings>;
