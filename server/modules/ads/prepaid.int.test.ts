/**
 * Advertising is prepaid and its activity real (decision 0037): commissions come out of the offer's funded
 * campaign balance only, never on the advertiser's own streams; activity counts only for an ad presented to
 * this viewer of a playing stream, in order, and never from another site's page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { DEFAULT_PERMISSIONS } from '../../../common/permissions';
import { startTestApp, type TestApp } from '../../testing/harness';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import { adSteps } from './ads-testing';

let t: TestApp;
let ads: ReturnType<typeof adSteps>;

beforeAll(async () => {
  // Visitors are told apart by the address each request names.
  t = await startTestApp({ TRUST_PROXY: 'on' });
  ads = adSteps(t);
});
afterAll(() => closeCheckingLedger(t));

const big = { impression: 1000, click: 1000, complete: 1000 };
const advertiser = () => t.given.signedInUser({ perms: [...DEFAULT_PERMISSIONS, 'CREATE AD_OFFER'] });
const advertiserBroadcasting = async () => {
  const owner = await advertiser();
  return { owner, live: await t.given.liveStream({}, owner.user) };
};

describe('a self-paying advertiser', () => {
  it('earns nothing from their own offer on their own stream', async () => {
    const { owner, live } = await advertiserBroadcasting();
    const offer = await ads.fundedOffer(owner, 6000, { commission: big });
    const listed = (await live.client.get('/api/ads/public-offer-list')).body.offers as Array<{ id: number }>;
    expect(listed.map((o) => o.id)).not.toContain(offer.id);
    const attached = await live.client.post('/api/ads/update-stream-offers', { offer_ids: [offer.id] });
    expect(attached.status).toBe(404);

    const before = await ads.balanceOf(owner.user.id);
    for (let i = 0; i < 3; i += 1) {
      const viewer = (await t.given.signedInUser()).client;
      const shown = await ads.presented(viewer, live.streamId, 'BANNER');
      expect(shown).toBeNull();
    }
    await ads.settleLater();
    expect(await ads.balanceOf(owner.user.id)).toBe(before);
    expect((await ads.managed(owner.client, offer.id)).balance).toBe(6000);
  });

  it("is not shown, nor paid, on another's stream while the campaign is unfunded", async () => {
    const owner = await advertiser();
    const offer = await ads.createOffer(owner.client, { commission: big });
    const live = await t.given.liveStream();
    await ads.attach(live.client, [offer.id]);
    const held = await ads.coinsHeld();
    for (let i = 0; i < 3; i += 1) expect(await ads.presented((await t.given.signedInUser()).client, live.streamId, 'BANNER')).toBeNull();
    await ads.settleLater();
    expect(await ads.balanceOf(live.user.id)).toBe(0);
    expect(await ads.coinsHeld()).toEqual(held);
  });
});

describe("commissions on another's stream", () => {
  it('come out of the campaign balance, stop when it is spent, and move no coin that was not paid in', async () => {
    const owner = await advertiser();
    // One presentation of a banner can earn 2,000 (impression and click): 2,500 pays one and part of another.
    const offer = await ads.fundedOffer(owner, 2500, { commission: big });
    expect(offer.balance).toBe(2500);
    expect(await ads.balanceOf(owner.user.id)).toBe(0);
    const live = await t.given.liveStream();
    await ads.attach(live.client, [offer.id]);

    const [first, second] = [(await t.given.signedInUser()).client, (await t.given.signedInUser()).client];
    const shown = (await ads.presented(first, live.streamId, 'BANNER'))!;
    for (const kind of ['impression', 'click']) expect((await ads.activity(first, shown.impression_id, kind)).body.counted).toBe(true);
    // 500 left cannot pay a presentation: the offer is no longer presented.
    expect((await ads.managed(owner.client, offer.id)).balance).toBe(500);
    expect(await ads.presented(second, live.streamId, 'BANNER')).toBeNull();

    const held = await ads.coinsHeld();
    await ads.settleLater();
    expect(await ads.balanceOf(live.user.id)).toBe(2000);
    expect(await ads.coinsHeld()).toEqual(held);

    // What is left goes back to the advertiser once the offer is paused.
    const early = await ads.withdraw(owner.client, offer.id);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(MSG.adsPauseBeforeWithdraw);
    expect((await owner.client.post('/api/ads/offer-update', { id: offer.id, paused: true })).body.offer).toMatchObject({ paused: true });
    const key = 'withdraw-once';
    const withdrawn = await ads.withdraw(owner.client, offer.id, key);
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body).toMatchObject({ coins: 500, offer: { balance: 0 } });
    expect((await ads.withdraw(owner.client, offer.id, key)).body).toMatchObject({ coins: 500 });
    expect(await ads.balanceOf(owner.user.id)).toBe(500);
    const empty = await ads.withdraw(owner.client, offer.id);
    expect(empty.status).toBe(409);
    expect(empty.body.message).toBe(MSG.adsNothingToWithdraw);
    expect(await ads.coinsHeld()).toEqual(held);
  });

  it('pay nothing for activity beyond the balance, however many viewers were shown the offer', async () => {
    const owner = await advertiser();
    const offer = await ads.fundedOffer(owner, 2000, { commission: big });
    const live = await t.given.liveStream();
    await ads.attach(live.client, [offer.id]);
    const viewers = [(await t.given.signedInUser()).client, (await t.given.signedInUser()).client, (await t.given.signedInUser()).client];
    // All three are shown it while 2,000 pays a presentation; their activity then competes for it.
    const shown = [];
    for (const viewer of viewers) shown.push((await ads.presented(viewer, live.streamId, 'BANNER'))!);
    for (const [i, viewer] of viewers.entries()) {
      for (const kind of ['impression', 'click']) await ads.activity(viewer, shown[i]!.impression_id, kind);
    }
    const held = await ads.coinsHeld();
    await ads.settleLater();
    expect(await ads.balanceOf(live.user.id)).toBe(2000);
    expect((await ads.managed(owner.client, offer.id)).balance).toBe(0);
    expect(await ads.coinsHeld()).toEqual(held);
  });

  it('refuse funding beyond the wallet, with its message, and bad amounts by field', async () => {
    const owner = await advertiser();
    const offer = await ads.createOffer(owner.client);
    const short = await ads.fund(owner.client, offer.id, 10);
    expect(short.status).toBe(402);
    expect(short.body.message).toBe(MSG.adsFundNeedsCoins);
    const zero = await ads.fund(owner.client, offer.id, 0);
    expect(zero.status).toBe(400);
    expect(zero.body).toMatchObject({ field: 'coins', message: MSG.coinsNumber });
    const other = await advertiser();
    await t.given.coins(other.user, 10);
    expect((await ads.fund(other.client, offer.id, 10)).status).toBe(404);
  });

  it('give the balance back when the offer is withdrawn, while what was counted is still paid', async () => {
    const owner = await advertiser();
    const offer = await ads.fundedOffer(owner, 3000, { commission: big });
    const live = await t.given.liveStream();
    await ads.attach(live.client, [offer.id]);
    const viewer = (await t.given.signedInUser()).client;
    const shown = (await ads.presented(viewer, live.streamId, 'BANNER'))!;
    await ads.activity(viewer, shown.impression_id, 'impression');
    expect((await owner.client.post('/api/ads/offer-delete', { id: offer.id })).status).toBe(200);
    expect(await ads.balanceOf(owner.user.id)).toBe(2000);
    // Withdrawn: its presentation id counts nothing more.
    expect((await ads.activity(viewer, shown.impression_id, 'click')).body.counted).toBe(false);
    await ads.settleLater();
    expect(await ads.balanceOf(live.user.id)).toBe(1000);
  });
});

describe('ad activity generated off-site', () => {
  const funded = async (type: string) => {
    const owner = await advertiser();
    const offer = await ads.fundedOffer(owner, 10_000, { commission: big, type });
    const live = await t.given.liveStream();
    await ads.attach(live.client, [offer.id]);
    return { owner, offer, live, counted: async () => (await ads.managed(owner.client, offer.id)).counted };
  };

  it('counts no pixel fetched without a presentation', async () => {
    const { offer, live, counted } = await funded('PREROLL');
    const script = t.client({ 'x-forwarded-for': '198.51.100.7' });
    for (const kind of ['impression', 'click', 'complete']) {
      expect((await script.request('GET', `/ads/track?impression_id=${offer.id}.forged&activity=${kind}`)).status).toBe(204);
    }
    expect((await ads.activity(script, `${offer.id}.forged`, 'impression')).status).toBe(403);
    expect(await counted()).toEqual({ impression: 0, click: 0, complete: 0 });
    await ads.settleLater();
    expect(await ads.balanceOf(live.user.id)).toBe(0);
  });

  it('counts a click only after its impression, and a completion only after both', async () => {
    const { live } = await funded('PREROLL');
    const viewer = (await t.given.signedInUser()).client;
    const shown = (await ads.presented(viewer, live.streamId, 'PREROLL'))!;
    expect((await ads.activity(viewer, shown.impression_id, 'complete')).body.counted).toBe(false);
    expect((await ads.activity(viewer, shown.impression_id, 'click')).body.counted).toBe(false);
    expect((await ads.activity(viewer, shown.impression_id, 'impression')).body.counted).toBe(true);
    expect((await ads.activity(viewer, shown.impression_id, 'complete')).body.counted).toBe(false);
    expect((await ads.activity(viewer, shown.impression_id, 'click')).body.counted).toBe(true);
    expect((await ads.activity(viewer, shown.impression_id, 'complete')).body.counted).toBe(true);
    await ads.settleLater();
    expect(await ads.balanceOf(live.user.id)).toBe(3000);
  });

  it('presents nothing for a stream that is not live and has no replay', async () => {
    const { live } = await funded('PREROLL');
    await t.app.services.broadcastCallbacks.onEnded({ streamId: live.streamId, broadcastId: 'b1', playlistKey: `media/${live.streamId}/b1/index.m3u8`, lengthSeconds: 0 });
    const visitor = t.client({ 'x-forwarded-for': '198.51.100.8' });
    expect(await ads.presented(visitor, live.streamId, 'PREROLL')).toBeNull();
    expect(String((await visitor.get('/ads/vast', { stream_id: live.streamId })).body)).toMatch(/<VAST version="4.2"\/>/);
  });

  it("grants no other site the VAST document, and counts no pixel fired from another site's page", async () => {
    const { live, counted } = await funded('PREROLL');
    const visitor = t.client({ 'x-forwarded-for': '198.51.100.9' });
    const elsewhere = await visitor.request('GET', `/ads/vast?stream_id=${live.streamId}`, { headers: { origin: 'https://elsewhere.example' } });
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(elsewhere.body)).toMatch(/<VAST version="4.2"\/>/);

    const vast = await visitor.get('/ads/vast', { stream_id: live.streamId });
    expect(vast.headers['access-control-allow-origin']).toBeUndefined();
    const pixel = (activity: string) => {
      const url = new URL(new RegExp(`<!\\[CDATA\\[([^\\]]+activity=${activity})\\]\\]>`).exec(String(vast.body))![1]!);
      return `${url.pathname}${url.search}`;
    };
    // The installation's own public origin (where its pixels point) is granted the document.
    const own = new URL(/<!\[CDATA\[(http[^\]]+\/ads\/track[^\]]*)\]\]>/.exec(String(vast.body))![1]!).origin;
    const ours = await t.client({ 'x-forwarded-for': '198.51.100.10' }).request('GET', `/ads/vast?stream_id=${live.streamId}`, { headers: { origin: own } });
    expect(ours.headers['access-control-allow-origin']).toBe(own);
    // Another site's script in the visitor's browser: its fetches name its origin, or cross sites.
    await visitor.request('GET', pixel('impression'), { headers: { origin: 'https://elsewhere.example' } });
    await visitor.request('GET', pixel('impression'), { headers: { 'sec-fetch-site': 'cross-site' } });
    // The visitor's address without the browser it was presented to (no ad-viewer cookie).
    await t.client({ 'x-forwarded-for': '198.51.100.9' }).request('GET', pixel('impression'));
    expect(await counted()).toEqual({ impression: 0, click: 0, complete: 0 });
    // The player on our page, in the browser it was presented to, counts.
    expect((await visitor.request('GET', pixel('impression'))).status).toBe(204);
    expect(await counted()).toEqual({ impression: 1, click: 0, complete: 0 });
    await ads.settleLater();
    expect(await ads.balanceOf(live.user.id)).toBe(1000);
  });
});
