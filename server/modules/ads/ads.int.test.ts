/** Advertiser offers: management, a broadcaster's selection, delivery with a frequency cap, counted activity and settlements. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as subscriptionsApi from '../../../common/api/subscriptions';
import { MSG } from '../../../common/messages';
import type { HttpSession } from '../../testing/http-session';
import { startTestApp, type TestApp } from '../../testing/harness';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import { testPicture, uploadFile } from '../../testing/uploads';
import { adSteps, commission } from './ads-testing';

let t: TestApp;
let admin: HttpSession;
let adminUser: { id: number };
let ads: ReturnType<typeof adSteps>;

beforeAll(async () => {
  // Guests are told apart by the address each request names.
  t = await startTestApp({ TRUST_PROXY: 'on', ADS_UNITS: '{"personas":{"preroll":0}}' });
  ads = adSteps(t);
  const signedIn = await t.given.signedInUser({ role: 'admin' });
  [admin, adminUser] = [signedIn.client, signedIn.user];
});
afterAll(() => closeCheckingLedger(t));

/** An administrator's offer with a campaign balance enough for a hundred presentations. */
const createOffer = async (client: HttpSession, fields: Record<string, unknown> = {}) => {
  const offer = await ads.createOffer(client, fields);
  if (client !== admin) return offer;
  await t.given.coins(adminUser, 1000);
  expect((await ads.fund(admin, offer.id, 1000)).status).toBe(200);
  return offer;
};
type Steps = ReturnType<typeof adSteps>;
const attach: Steps['attach'] = (...args) => ads.attach(...args);
const presented: Steps['presented'] = (...args) => ads.presented(...args);
const activity: Steps['activity'] = (...args) => ads.activity(...args);
const balanceOf: Steps['balanceOf'] = (...args) => ads.balanceOf(...args);
type Listed = { offers: Array<{ id: number; selected: boolean; counted: Record<string, number> }>; total: number; stream_id: number | null };
const listed = (res: { body: unknown }) => res.body as Listed;

describe('offers', () => {
  it('are managed by administrators and advertisers (their own); everyone else is refused', async () => {
    const banner = await createOffer(admin);
    expect(banner).toMatchObject({ dim_x: 728, dim_y: 90, video: null, counted: { impression: 0, click: 0, complete: 0 } });
    const image = await t.client().request('GET', banner.thumbnail.split('?')[0]!);
    expect(image.status).toBe(403); // the address is signed for the administrator

    const plain = await t.given.signedInUser();
    const refused = await plain.client.get('/api/ads/offer-list');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MSG.adsOfferPermissionNeeded);

    const advertiser = await t.given.signedInUser({ perms: ['CREATE AD_OFFER'] });
    const own = await createOffer(advertiser.client, { name: 'Own offer' });
    expect(listed(await advertiser.client.get('/api/ads/offer-list')).offers.map((o) => o.id)).toEqual([own.id]);
    expect(listed(await admin.get('/api/ads/offer-list', { limit: 50 })).offers.map((o) => o.id)).toEqual(expect.arrayContaining([own.id, banner.id]));

    const rival = await t.given.signedInUser({ perms: ['CREATE AD_OFFER'] });
    expect((await rival.client.post('/api/ads/offer-update', { id: own.id, name: 'Taken' })).status).toBe(404);
    expect((await rival.client.post('/api/ads/offer-delete', { id: own.id })).status).toBe(404);

    const renamed = await advertiser.client.post('/api/ads/offer-update', { id: own.id, name: 'Renamed', commission: { impression: 1, click: 1, complete: 0 } });
    expect(renamed.body.offer).toMatchObject({ name: 'Renamed', commission: { impression: 1, click: 1, complete: 0 } });
    expect((await admin.post('/api/ads/offer-delete', { id: own.id })).status).toBe(200);
    expect((await advertiser.client.get('/api/ads/offer-list')).body.total).toBe(0);
  });

  it('refuses bad fields with their message, and a creative of the wrong kind', async () => {
    const link = await admin.post('/api/ads/offer-create', { name: 'x', short_description: 'y', type: 'BANNER', rating: 'G', ad_link: 'javascript:alert(1)', commission, upload_id: 'abc' });
    expect(link.status).toBe(400);
    expect(link.body).toMatchObject({ field: 'ad_link', message: MSG.adsLinkInvalid });
    const pictureUpload = await uploadFile(admin, await testPicture(), 'a.png', 'image/png');
    const preroll = await admin.post('/api/ads/offer-create', { name: 'x', short_description: 'y', type: 'PREROLL', rating: 'G', ad_link: 'https://a.example', commission, upload_id: pictureUpload });
    expect(preroll.status).toBe(400);
    expect(preroll.body.message).toBe(MSG.notAVideo);
    const videoUpload = await uploadFile(admin, ads.testClip(), 'ad.mp4', 'video/mp4');
    const banner = await admin.post('/api/ads/offer-create', { name: 'x', short_description: 'y', type: 'BANNER', rating: 'G', ad_link: 'https://a.example', commission, upload_id: videoUpload });
    expect(banner.status).toBe(400);
    expect(banner.body.message).toBe(MSG.notAnImage);
    // The refused uploads are gone.
    expect((await admin.post('/api/ads/offer-create', { name: 'x', short_description: 'y', type: 'BANNER', rating: 'G', ad_link: 'https://a.example', commission, upload_id: videoUpload })).status).toBe(404);
  });

  it('makes a pre-roll video a progressive MP4 with a poster, served only to the viewer it was signed for', async () => {
    const offer = await createOffer(admin, { type: 'PREROLL', name: 'Pre-roll' });
    expect(offer).toMatchObject({ dim_x: 640, dim_y: 360 });
    const video = await admin.request('GET', offer.video!);
    expect(video.status).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
    const bytes = video.body as unknown as Buffer;
    // faststart: the index (moov) comes before the media (mdat).
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    expect((await admin.request('GET', offer.thumbnail)).headers['content-type']).toBe('image/jpeg');
    expect((await t.client().request('GET', offer.video!)).status).toBe(403);
  });
});

describe('a broadcaster choosing offers', () => {
  it('lists public offers 10 a page, attaches them to the started stream, and the stream info says so', async () => {
    for (let i = 0; i < 11; i += 1) await createOffer(admin, { name: `Offer ${i}` });
    const broadcaster = await t.given.signedInUser();
    const before = await broadcaster.client.post('/api/ads/update-stream-offers', { offer_ids: [] });
    expect(before.status).toBe(409);
    expect(before.body.message).toBe(MSG.adsStartStreamingFirst);

    const live = await t.given.liveStream({}, broadcaster.user);
    const first = listed(await live.client.get('/api/ads/public-offer-list'));
    expect(first.offers).toHaveLength(10);
    expect(first.total).toBeGreaterThanOrEqual(11);
    expect(first.stream_id).toBe(live.streamId);
    const second = listed(await live.client.get('/api/ads/public-offer-list', { offset: 10 }));
    expect(second.offers.length).toBeGreaterThanOrEqual(1);

    const chosen = [first.offers[0]!.id, first.offers[1]!.id];
    const { campaign_id: campaignId } = await attach(live.client, chosen);
    expect(campaignId).toEqual(expect.any(Number));
    const marked = listed(await live.client.get('/api/ads/public-offer-list')).offers.filter((o) => o.selected).map((o) => o.id);
    expect(marked.sort()).toEqual([...chosen].sort());
    const info = (await t.client().get('/api/streams/stream-lookup', { id: live.streamId })).body.stream;
    expect(info).toMatchObject({ campaign_id: campaignId, has_offers: true });

    expect((await live.client.post('/api/ads/update-stream-offers', { offer_ids: [99_999_999] })).status).toBe(404);
    await attach(live.client, []);
    expect((await t.client().get('/api/streams/stream-lookup', { id: live.streamId })).body.stream).toMatchObject({ campaign_id: null, has_offers: false });
  });

  it('is refused in a skin without ad selection', async () => {
    const live = await t.given.liveStream();
    const res = await live.client.request('GET', '/api/ads/public-offer-list', { headers: { 'x-service': 'personas' } });
    expect(res.status).toBe(403);
    expect((res.body as { message: string }).message).toBe(MSG.adsSelectionUnavailable);
  });
});

describe('delivery', () => {
  it('presents each offer once per viewer and window, none to the broadcaster, none above the stream rating', async () => {
    const [a, b, adult] = [await createOffer(admin, { name: 'A' }), await createOffer(admin, { name: 'B' }), await createOffer(admin, { name: 'Teen', rating: 'PLUS_14' })];
    const live = await t.given.liveStream();
    await attach(live.client, [a.id, b.id]);
    expect((await live.client.post('/api/ads/update-stream-offers', { offer_ids: [adult.id] })).status).toBe(404);
    const viewer = (await t.given.signedInUser()).client;

    const seen: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      const offer = (await presented(viewer, live.streamId, 'BANNER'))!;
      expect(seen).not.toContain(offer.offer_id);
      seen.push(offer.offer_id);
      expect((await activity(viewer, offer.impression_id, 'impression')).body.counted).toBe(true);
    }
    expect(seen.sort()).toEqual([a.id, b.id].sort());
    expect(await presented(viewer, live.streamId, 'BANNER')).toBeNull();
    expect(await presented(viewer, live.streamId, 'PREROLL')).toBeNull();
    expect(await presented(live.client, live.streamId, 'BANNER')).toBeNull();
  });

  it("shows no ads to a subscriber whose plan has 'no ads'", async () => {
    const offer = await createOffer(admin);
    const live = await t.given.liveStream();
    await attach(live.client, [offer.id]);
    const templates = (await live.client.send(subscriptionsApi.planTemplates, {})).body.templates as subscriptionsApi.PlanTemplate[];
    const vip = templates.find((x) => x.benefits.no_ads)!;
    const added = await live.client.post(subscriptionsApi.planAdd.path, { template_id: vip.template_id, price: vip.prices[0]!.price, currency: 'CON' });
    const fan = await t.given.signedInUser();
    await t.given.coins(fan.user, vip.prices[0]!.price);
    const subscribed = await fan.client.request('POST', subscriptionsApi.subscribe.path, {
      body: { plan_id: (added.body.plan as subscriptionsApi.Plan).plan_id, user_id: live.user.id }, headers: { 'idempotency-key': randomUUID() },
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    expect((await fan.client.get('/api/streams/stream-lookup', { id: live.streamId })).body.stream).toMatchObject({ no_ads: true });
    expect(await presented(fan.client, live.streamId, 'BANNER')).toBeNull();
    expect(await presented((await t.given.signedInUser()).client, live.streamId, 'BANNER')).not.toBeNull();
  });

  it('counts 1,000 posts of one activity from one viewer once, and a visitor by address whatever browser it claims', async () => {
    const offer = await createOffer(admin);
    const live = await t.given.liveStream();
    await attach(live.client, [offer.id]);
    const viewer = (await t.given.signedInUser()).client;
    const shown = (await presented(viewer, live.streamId, 'BANNER'))!;
    const answers = await Promise.all(Array.from({ length: 1000 }, () => activity(viewer, shown.impression_id, 'impression')));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(answers.filter((r) => r.body.counted === true)).toHaveLength(1);
    expect((await activity(viewer, shown.impression_id, 'click')).body.counted).toBe(true);

    const visitor = (agent: string) => t.client({ 'x-forwarded-for': '203.0.113.50', 'user-agent': agent });
    const one = visitor('one');
    const first = (await presented(one, live.streamId, 'BANNER'))!;
    expect((await activity(one, first.impression_id, 'impression')).body.counted).toBe(true);
    // Another browser at the address holds no ad-viewer cookie of this presentation.
    expect((await activity(visitor('two'), first.impression_id, 'impression')).status).toBe(403);
    // The visitor's offer was seen in this window: a new browser at the address is not shown it again.
    expect(await presented(visitor('three'), live.streamId, 'BANNER')).toBeNull();

    const counted = listed(await admin.get('/api/ads/offer-list', { limit: 50 })).offers.find((o) => o.id === offer.id)!.counted;
    expect(counted).toEqual({ impression: 2, click: 1, complete: 0 });
  });

  it("refuses a presentation id (impression_id) presented to someone else, and one that was tampered with", async () => {
    const offer = await createOffer(admin);
    const live = await t.given.liveStream();
    await attach(live.client, [offer.id]);
    const shown = (await presented((await t.given.signedInUser()).client, live.streamId, 'BANNER'))!;
    const other = (await t.given.signedInUser()).client;
    const stolen = await activity(other, shown.impression_id, 'click');
    expect(stolen.status).toBe(403);
    expect(stolen.body.message).toBe(MSG.adsPresentationInvalid);
    expect((await activity(other, `${offer.id + 1}${shown.impression_id.slice(String(offer.id).length)}`, 'click')).status).toBe(403);
    expect((await other.get('/api/user/exo-click-tracking', { tracking_id: shown.impression_id })).status).toBe(403);
  });

  it('answers a pre-roll as a VAST 4 document whose pixels count for the fetcher', async () => {
    const offer = await createOffer(admin, { type: 'PREROLL' });
    const live = await t.given.liveStream();
    await attach(live.client, [offer.id]);
    const viewer = (await t.given.signedInUser()).client;
    const vast = await viewer.get('/ads/vast', { stream_id: live.streamId });
    expect(vast.headers['content-type']).toMatch(/^application\/xml/);
    const xml = String(vast.body);
    expect(xml).toContain('<VAST version="4.2"');
    expect(xml).toMatch(/<Linear skipoffset="00:00:05.000">/);
    expect(xml).toMatch(/<MediaFile delivery="progressive" type="video\/mp4" width="640" height="360"><!\[CDATA\[http:\/\/[^\]]+\/media\/ads\/\d+\/creative\.mp4\?token=/);
    const impression = /<Impression id="limelight"><!\[CDATA\[([^\]]+)\]\]>/.exec(xml)![1]!;
    const pixel = new URL(impression);
    expect((await viewer.request('GET', `${pixel.pathname}${pixel.search}`)).status).toBe(204);
    // Counted: the offer is not presented to this viewer again in the window.
    expect(String((await viewer.get('/ads/vast', { stream_id: live.streamId })).body)).toMatch(/<VAST version="4.2"\/>/);
    expect(String((await t.client().get('/ads/vast', { stream_id: 'nope' })).body)).toMatch(/<VAST version="4.2"\/>/);
  });
});

describe('publisher ad units', () => {
  it("answer the skin's configured units, never unit 0, and the pre-roll's VAST address", async () => {
    const live = await t.given.liveStream();
    const config = (await t.client().get('/api/meta/app-config')).body.ads;
    expect(config).toMatchObject({ network: 'limelight', units: { preroll: 1, banner: 2, chat: 3 } });
    const unit = await t.client().post('/api/ads/publisher', { network: 'limelight', user_id: live.user.id, adunit_id: 1 });
    expect(unit.body.publisher).toMatchObject({ type: 'PREROLL', stream_id: live.streamId, vast_url: expect.stringMatching(new RegExp(`/ads/vast\\?stream_id=${live.streamId}$`)) });
    expect((await t.client().post('/api/ads/publisher', { network: 'limelight', user_id: live.user.id, adunit_id: 2 })).body.publisher).toMatchObject({ type: 'BANNER', vast_url: null });
    const zero = await t.client().post('/api/ads/publisher', { network: 'limelight', user_id: live.user.id, adunit_id: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.message).toBe(MSG.adsUnitZero);
    expect((await t.client().post('/api/ads/publisher', { network: 'other', user_id: live.user.id, adunit_id: 1 })).status).toBe(404);
    const personas = t.client({ 'x-service': 'personas' });
    expect((await personas.get('/api/meta/app-config')).body.ads).toMatchObject({ units: { preroll: 0 } });
    expect((await personas.post('/api/ads/publisher', { network: 'limelight', user_id: live.user.id, adunit_id: 1 })).status).toBe(404);
  });
});

describe('settlements', () => {
  it("pay a broadcaster the period's counted commission once, through the ledger, into the wallet history", async () => {
    const [banner, preroll] = [await createOffer(admin), await createOffer(admin, { type: 'PREROLL' })];
    const live = await t.given.liveStream();
    await attach(live.client, [banner.id, preroll.id]);
    for (let i = 0; i < 2; i += 1) {
      const viewer = (await t.given.signedInUser()).client;
      const ad = (await presented(viewer, live.streamId, 'PREROLL'))!;
      for (const kind of ['impression', 'click', 'complete', 'click']) await activity(viewer, ad.impression_id, kind);
      const shown = (await presented(viewer, live.streamId, 'BANNER'))!;
      await activity(viewer, shown.impression_id, 'impression');
      await activity(viewer, shown.impression_id, 'complete'); // not a pre-roll: not counted
    }
    // Two viewers: pre-roll impression 2 + complete 3 + click 5, banner impression 2 = 12 each.
    const expected = 2 * (commission.impression + commission.complete + commission.click + commission.impression);
    const before = await balanceOf(live.user.id);
    const { settlement } = t.app.services.ads;
    // The period has not closed: nothing is paid yet.
    await settlement.run(new Date());
    expect(await balanceOf(live.user.id)).toBe(before);
    const later = new Date(Date.now() + 3 * 3600_000);
    await Promise.all([settlement.run(later), settlement.run(later)]);
    await settlement.run(later);
    expect(await balanceOf(live.user.id)).toBe(before + expected);
    const history = (await live.client.get('/api/wallet/transfers')).body.transfers as Array<{ kind: string; amount: number }>;
    expect(history.filter((h) => h.kind === 'ad_commission')).toEqual([expect.objectContaining({ amount: expected })]);
  });
});
