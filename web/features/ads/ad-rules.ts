/**
 * Pure rules of ads in the web app (spec part 1 §2 Dashboard and Stream view, §3 Offer, §4 Ads and
 * Video state, §5): who manages offers, which placements a stream page asks for, the pre-roll's skip
 * countdown, the creative's size, the dashboard's offer selection and the offer form's fields.
 */
import type { z } from 'zod';
import type { AdsSettings, AdType, ManagedOffer, PresentedOffer, PublicOffer } from '../../../common/api/ads';
import type { RATINGS, StreamInfo } from '../../../common/api/streams';
import { AD } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { SKIN_IDS, SKINS, type SkinId } from '../../../common/skins';
import type { FieldErrors } from '../../api/field-errors';
import { isImageFile, isVideoFile } from '../../uploads/files';

export { canManageOffers } from './offer-managers';

type Rating = (typeof RATINGS)[number];


export const AD_TYPE_LABEL: Record<AdType, string> = { PREROLL: 'Pre-roll', BANNER: 'Banner', CHAT: 'Chat' };

/** Ratings as offers show them (G, 14+, 18+). */
export const AD_RATING_LABEL: Record<Rating, string> = { G: 'G', PLUS_14: '14+', PLUS_18: '18+' };

/**
 * Where a pre-roll plays, for the dashboard's offer selection: only skins with pre-roll ads play one, and a
 * stream is watched in every skin, so a broadcaster choosing one on any skin is told which.
 */
export function prerollReach(skins: readonly SkinId[] = SKIN_IDS): string {
  const names = skins.filter((id) => SKINS[id].flags.prerollAds).map((id) => SKINS[id].name);
  return names.length === 0 ? MSG.adsPrerollPlaysNowhere : fill(MSG.adsPrerollPlaysIn, { skins: names.join(', ') });
}

export const COMMISSION_LABEL = { impression: 'Impression', click: 'Click', complete: 'Completion' } as const;

// ---------------------------------------------------------------------------------------------
// The stream page: which placements are asked for

type AdStream = Pick<StreamInfo, 'campaign_id' | 'no_ads' | 'has_offers'>;

/**
 * Whether a pre-roll is asked for before the stream plays (spec part 1 §4 Video state): the skin plays
 * pre-rolls, the stream has a campaign, the viewer's plan shows ads, the skin's pre-roll ad unit is not 0
 * ("ads with publisher ad unit id 0 are not requested") and this is not a Watch Again. 'wait' while the
 * ads settings are still on their way (the player waits too); 'skip' when the settings did not come.
 */
export function prerollDecision(input: {
  prerollAds: boolean;
  stream: AdStream;
  settings: AdsSettings | undefined;
  settingsPending: boolean;
  replaying: boolean;
}): 'ask' | 'wait' | 'skip' {
  const { prerollAds, stream, settings, settingsPending, replaying } = input;
  if (!prerollAds || replaying || stream.campaign_id === null || stream.no_ads) return 'skip';
  if (!settings) return settingsPending ? 'wait' : 'skip';
  return settings.units.preroll === 0 ? 'skip' : 'ask';
}

/** Banner and chat ads: the stream carries offers, the viewer's plan shows ads, and the placement's unit is not 0. */
export function wantsAd(placement: 'banner' | 'chat', stream: AdStream, settings: AdsSettings | undefined): boolean {
  if (!settings || !stream.has_offers || stream.no_ads || settings.units[placement] === 0) return false;
  return placement === 'chat' ? settings.chat_interval_seconds > 0 : true;
}

/** Seconds until the pre-roll may be skipped, counted on the seconds it has been on screen; 0: Skip Ad shows. */
export function skipSecondsLeft(skipAfterSeconds: number, shownSeconds: number): number {
  return Math.max(0, Math.ceil(skipAfterSeconds - shownSeconds));
}

/** The size a creative shows at (scaled down to fit by its container), or none when it has no usable size. */
export function creativeSize(dimX: number, dimY: number): { width: number; height: number } | undefined {
  return Number.isFinite(dimX) && Number.isFinite(dimY) && dimX > 0 && dimY > 0 ? { width: dimX, height: dimY } : undefined;
}

// ---------------------------------------------------------------------------------------------
// The dashboard: public offers and the local selection

/** The offset of the next page after `last` (a page of `count` offers from `offset`), or undefined when none remain. */
export function nextOffset(last: { offset: number; count: number; total: number }): number | undefined {
  const next = last.offset + last.count;
  return last.count > 0 && next < last.total ? next : undefined;
}

/** The broadcaster's own choices over the server's `selected` (offer id → chosen). */
export type Selection = ReadonlyMap<number, boolean>;

export const isChosen = (offer: Pick<PublicOffer, 'id' | 'selected'>, selection: Selection): boolean => selection.get(offer.id) ?? offer.selected;

/** The selection after Select or Remove on one offer. */
export function toggleOffer(selection: Selection, offer: Pick<PublicOffer, 'id' | 'selected'>): Selection {
  const next = new Map(selection);
  next.set(offer.id, !isChosen(offer, selection));
  return next;
}

/** The ids to send with 'Update Stream Ads': every loaded offer that is chosen, each once, in list order. */
export function chosenIds(offers: ReadonlyArray<Pick<PublicOffer, 'id' | 'selected'>>, selection: Selection): number[] {
  const ids: number[] = [];
  for (const offer of offers) if (isChosen(offer, selection) && !ids.includes(offer.id)) ids.push(offer.id);
  return ids;
}

/** The offers as the server now has them after 'Update Stream Ads' answered with `ids`. */
export function markSelected<O extends Pick<PublicOffer, 'id' | 'selected'>>(offers: readonly O[], ids: readonly number[]): O[] {
  return offers.map((offer) => ({ ...offer, selected: ids.includes(offer.id) }));
}

/** Whether one more offer may be chosen (a stream carries at most AD.maxStreamOffers). */
export const roomForMore = (chosen: number): boolean => chosen < AD.maxStreamOffers;

// ---------------------------------------------------------------------------------------------
// The offer form

/** The form's values as typed (numbers stay text until sent). */
export interface OfferDraft {
  name: string;
  short_description: string;
  description: string;
  type: AdType | '';
  rating: Rating | '';
  ad_link: string;
  dim_x: string;
  dim_y: string;
  impression: string;
  click: string;
  complete: string;
}

export const EMPTY_DRAFT: OfferDraft = {
  name: '',
  short_description: '',
  description: '',
  type: '',
  rating: '',
  ad_link: '',
  dim_x: '',
  dim_y: '',
  impression: '0',
  click: '0',
  complete: '0',
};

/** An offer's values in the edit form. */
export function draftOf(offer: ManagedOffer): OfferDraft {
  return {
    name: offer.name,
    short_description: offer.short_description,
    description: offer.description,
    type: offer.type,
    rating: offer.rating,
    ad_link: offer.ad_link,
    dim_x: offer.dim_x > 0 ? String(offer.dim_x) : '',
    dim_y: offer.dim_y > 0 ? String(offer.dim_y) : '',
    impression: String(offer.commission.impression),
    click: String(offer.commission.click),
    complete: String(offer.commission.complete),
  };
}

/** Typed text as a number: nothing typed is absent; anything else goes to the contract's checks as it reads. */
const numberOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));

/** The contract's offer fields from a draft (offer-create without upload_id; offer-update without id and upload_id). */
export function offerFields(draft: OfferDraft) {
  return {
    name: draft.name,
    short_description: draft.short_description,
    description: draft.description,
    type: draft.type || undefined,
    rating: draft.rating || undefined,
    ad_link: draft.ad_link,
    dim_x: numberOf(draft.dim_x),
    dim_y: numberOf(draft.dim_y),
    commission: { impression: numberOf(draft.impression), click: numberOf(draft.click), complete: numberOf(draft.complete) },
  };
}

/** The fields the form shows messages under, named as the server names them (`field` of the failure envelope). */
export const OFFER_FORM_FIELDS: ReadonlySet<string> = new Set([
  'name', 'short_description', 'description', 'type', 'rating', 'ad_link', 'dim_x', 'dim_y',
  'commission', 'commission.impression', 'commission.click', 'commission.complete', 'upload_id',
]);

/** The name the contract and the server give each draft field (a message shows under it, typing clears it). */
export const FIELD_NAME: Record<keyof OfferDraft, string> = {
  name: 'name',
  short_description: 'short_description',
  description: 'description',
  type: 'type',
  rating: 'rating',
  ad_link: 'ad_link',
  dim_x: 'dim_x',
  dim_y: 'dim_y',
  impression: 'commission.impression',
  click: 'commission.click',
  complete: 'commission.complete',
};

/** The first message per field when `value` fails `schema`, nested fields named with dots ('commission.click'). */
export function dottedErrors(schema: z.ZodType, value: unknown): FieldErrors {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) errors[issue.path.map(String).join('.') || 'body'] ??= issue.message;
  return errors;
}

/** What the creative must be: an image for a banner or chat offer, a video for a pre-roll. */
export const creativeKind = (type: AdType): 'image' | 'video' => (type === 'PREROLL' ? 'video' : 'image');

/**
 * Why a chosen file cannot be the creative of an offer of this type, or null when it can; `seconds` is a
 * video's running time once read (a pre-roll runs at most AD.prerollMaxSeconds).
 */
export function creativeProblem(type: AdType, file: Pick<File, 'name' | 'type'>, seconds: number | null = null): string | null {
  if (creativeKind(type) === 'image') return isImageFile(file) ? null : MSG.notAnImage;
  if (!isVideoFile(file)) return MSG.notAVideo;
  return seconds !== null && seconds > AD.prerollMaxSeconds ? fill(MSG.adsPrerollTooLong, { max: AD.prerollMaxSeconds }) : null;
}

// ---------------------------------------------------------------------------------------------
// Chat ads: lines of this viewer's chat list alone

export interface ChatAd {
  key: string;
  /** Its place among the chat's lines (the order of arrival). */
  seq: number;
  offer: PresentedOffer;
}

/** The chat ads after one more arrived: each presentation once, the newest `max` kept. */
export function withChatAd(list: readonly ChatAd[], ad: ChatAd, max: number): ChatAd[] {
  if (list.some((a) => a.key === ad.key)) return [...list];
  const next = [...list, ad];
  return next.length > max ? next.slice(next.length - max) : next;
}

export const withoutChatAd = (list: readonly ChatAd[], key: string): ChatAd[] => list.filter((a) => a.key !== key);
