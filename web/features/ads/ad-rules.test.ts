import { describe, expect, it } from 'vitest';
import { offerCreate, offerUpdate } from '../../../common/api/ads';
import type { AdsSettings, ManagedOffer, PresentedOffer } from '../../../common/api/ads';
import { AD } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import {
  canManageOffers, chosenIds, creativeKind, creativeProblem, creativeSize, dottedErrors, draftOf, EMPTY_DRAFT, FIELD_NAME, isChosen, markSelected,
  nextOffset, OFFER_FORM_FIELDS, offerFields, prerollDecision, prerollReach, roomForMore, skipSecondsLeft, toggleOffer, wantsAd, withChatAd, withoutChatAd,
} from './ad-rules';
import type { Selection } from './ad-rules';

const settings = (units: Partial<AdsSettings['units']> = {}, chat_interval_seconds = 60): AdsSettings => ({
  network: 'exo',
  units: { preroll: 11, banner: 22, chat: 33, ...units },
  chat_interval_seconds,
});
const stream = { campaign_id: 7, no_ads: false, has_offers: true };

describe('who manages offers', () => {
  it('is an administrator or a holder of CREATE AD_OFFER, never a guest', () => {
    expect(canManageOffers({ role: 'admin', perms: [] })).toBe(true);
    expect(canManageOffers({ role: 'user', perms: ['CREATE AD_OFFER'] })).toBe(true);
    expect(canManageOffers({ role: 'user', perms: ['CREATE STREAM_LIVE_G'] })).toBe(false);
    expect(canManageOffers(null)).toBe(false);
  });
});

describe('the pre-roll', () => {
  it('tells the broadcaster which sites play it, whichever site the dashboard is on', () => {
    expect(prerollReach()).toBe(fill(MSG.adsPrerollPlaysIn, { skins: 'AfterDark' }));
    expect(prerollReach(['limelight', 'miitv'])).toBe(MSG.adsPrerollPlaysNowhere);
  });

  const base = { prerollAds: true, stream, settings: settings(), settingsPending: false, replaying: false };

  it('is asked for when the skin plays pre-rolls, the stream has a campaign and the unit is set', () => {
    expect(prerollDecision(base)).toBe('ask');
  });

  it('is skipped on a replay, without the skin setting, a campaign or a unit, and for a no-ads plan', () => {
    expect(prerollDecision({ ...base, replaying: true })).toBe('skip');
    expect(prerollDecision({ ...base, prerollAds: false })).toBe('skip');
    expect(prerollDecision({ ...base, stream: { ...stream, campaign_id: null } })).toBe('skip');
    expect(prerollDecision({ ...base, stream: { ...stream, no_ads: true } })).toBe('skip');
    // "Ads with publisher ad unit id 0 are not requested."
    expect(prerollDecision({ ...base, settings: settings({ preroll: 0 }) })).toBe('skip');
  });

  it('waits for the ads settings, and goes without when they do not come', () => {
    expect(prerollDecision({ ...base, settings: undefined, settingsPending: true })).toBe('wait');
    expect(prerollDecision({ ...base, settings: undefined, settingsPending: false })).toBe('skip');
  });

  it('counts down to Skip Ad in whole seconds', () => {
    expect(skipSecondsLeft(AD.skipAfterSeconds, 0)).toBe(5);
    expect(skipSecondsLeft(5, 0.2)).toBe(5);
    expect(skipSecondsLeft(5, 4.1)).toBe(1);
    expect(skipSecondsLeft(5, 5)).toBe(0);
    expect(skipSecondsLeft(5, 12)).toBe(0);
  });
});

describe('banner and chat ads', () => {
  it('are asked for when the stream has offers, the plan shows ads and the unit is not 0', () => {
    expect(wantsAd('banner', stream, settings())).toBe(true);
    expect(wantsAd('chat', stream, settings())).toBe(true);
    expect(wantsAd('banner', { ...stream, has_offers: false }, settings())).toBe(false);
    expect(wantsAd('chat', { ...stream, no_ads: true }, settings())).toBe(false);
    expect(wantsAd('banner', stream, settings({ banner: 0 }))).toBe(false);
    expect(wantsAd('chat', stream, settings({ chat: 0 }))).toBe(false);
    expect(wantsAd('banner', stream, undefined)).toBe(false);
  });

  it('ask for chat ads only with an interval', () => {
    expect(wantsAd('chat', stream, settings({}, 0))).toBe(false);
  });

  it("show a creative at its size when it has one", () => {
    expect(creativeSize(728, 90)).toEqual({ width: 728, height: 90 });
    expect(creativeSize(0, 90)).toBeUndefined();
    expect(creativeSize(Number.NaN, 90)).toBeUndefined();
  });

  it('keep each chat ad once, the newest ones, and drop a closed one', () => {
    const offer = { impression_id: 'i' } as PresentedOffer;
    const ad = (n: number) => ({ key: `ad:${n}`, seq: n, offer });
    let list = withChatAd([], ad(1), 2);
    list = withChatAd(list, ad(1), 2);
    expect(list.map((a) => a.key)).toEqual(['ad:1']);
    list = withChatAd(withChatAd(list, ad(2), 2), ad(3), 2);
    expect(list.map((a) => a.key)).toEqual(['ad:2', 'ad:3']);
    expect(withoutChatAd(list, 'ad:2').map((a) => a.key)).toEqual(['ad:3']);
  });
});

describe('the dashboard selection', () => {
  const offers = [
    { id: 1, selected: true },
    { id: 2, selected: false },
    { id: 3, selected: false },
  ];

  it('starts from what the current stream carries and follows Select and Remove', () => {
    let selection: Selection = new Map();
    expect(chosenIds(offers, selection)).toEqual([1]);
    selection = toggleOffer(selection, offers[1]!);
    selection = toggleOffer(selection, offers[0]!);
    expect(chosenIds(offers, selection)).toEqual([2]);
    expect(isChosen(offers[0]!, selection)).toBe(false);
    selection = toggleOffer(selection, offers[0]!);
    expect(chosenIds(offers, selection)).toEqual([1, 2]);
  });

  it('names an offer once even when a page brought it again', () => {
    expect(chosenIds([...offers, { id: 1, selected: true }], new Map())).toEqual([1]);
  });

  it('takes the answer of Update Stream Ads as the new selection', () => {
    expect(markSelected(offers, [2, 3]).map((o) => o.selected)).toEqual([false, true, true]);
  });

  it('allows at most AD.maxStreamOffers', () => {
    expect(roomForMore(AD.maxStreamOffers - 1)).toBe(true);
    expect(roomForMore(AD.maxStreamOffers)).toBe(false);
  });

  it('loads pages until the offset reaches the total', () => {
    expect(nextOffset({ offset: 0, count: 10, total: 25 })).toBe(10);
    expect(nextOffset({ offset: 20, count: 5, total: 25 })).toBeUndefined();
    expect(nextOffset({ offset: 0, count: 0, total: 3 })).toBeUndefined();
  });
});

describe('the offer form', () => {
  const filled = { ...EMPTY_DRAFT, name: 'Spring sale', short_description: 'Everything 20% off', type: 'BANNER' as const, rating: 'G' as const, ad_link: 'https://shop.example/spring' };

  it('sends numbers for what was typed and leaves out an empty size', () => {
    expect(offerFields({ ...filled, dim_x: '728', dim_y: '', click: '5' })).toMatchObject({ dim_x: 728, dim_y: undefined, commission: { impression: 0, click: 5, complete: 0 } });
    expect(dottedErrors(offerCreate.input, { ...offerFields(filled), upload_id: 'pending' })).toEqual({});
  });

  it("names a commission's message by its dotted field, as the server does, and every such field is the form's", () => {
    const errors = dottedErrors(offerCreate.input, { ...offerFields({ ...filled, click: '', name: ' ', ad_link: 'ftp://x' }), upload_id: 'pending' });
    expect(errors).toEqual({ name: MSG.adsOfferNameRequired, ad_link: MSG.adsLinkInvalid, 'commission.click': MSG.coinsNumber });
    for (const field of Object.values(FIELD_NAME)) expect(OFFER_FORM_FIELDS.has(field)).toBe(true);
  });

  it('edits an offer from its values, leaving its type as it is', () => {
    const offer = {
      id: 4, name: 'Spring sale', short_description: 'Everything 20% off', description: '', type: 'PREROLL', rating: 'PLUS_14', ad_link: 'https://shop.example',
      dim_x: 640, dim_y: 360, commission: { impression: 1, click: 2, complete: 3 }, thumbnail: '/t.webp', video: '/v.mp4', duration_seconds: 12,
      owner: { user_id: 1, username: 'ann' }, counted: { impression: 0, click: 0, complete: 0 }, balance: 0, paused: false, created_at: '2026-01-01T00:00:00Z',
    } satisfies ManagedOffer;
    const draft = draftOf(offer);
    expect(draft).toMatchObject({ type: 'PREROLL', dim_x: '640', impression: '1', complete: '3' });
    const { type: _type, ...editable } = offerFields(draft);
    expect(dottedErrors(offerUpdate.input, { id: offer.id, ...editable })).toEqual({});
  });

  it('takes an image for a banner or chat offer and a video within the longest running time for a pre-roll', () => {
    expect(creativeKind('PREROLL')).toBe('video');
    expect(creativeKind('CHAT')).toBe('image');
    expect(creativeProblem('BANNER', { name: 'a.png', type: 'image/png' })).toBeNull();
    expect(creativeProblem('BANNER', { name: 'a.mp4', type: 'video/mp4' })).toBe(MSG.notAnImage);
    expect(creativeProblem('PREROLL', { name: 'a.mp4', type: 'video/mp4' })).toBeNull();
    expect(creativeProblem('PREROLL', { name: 'a.png', type: 'image/png' })).toBe(MSG.notAVideo);
    expect(creativeProblem('PREROLL', { name: 'a.mp4', type: 'video/mp4' }, AD.prerollMaxSeconds)).toBeNull();
    expect(creativeProblem('PREROLL', { name: 'a.mp4', type: 'video/mp4' }, AD.prerollMaxSeconds + 1)).toBe(fill(MSG.adsPrerollTooLong, { max: AD.prerollMaxSeconds }));
  });
});
