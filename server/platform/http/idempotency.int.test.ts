/**
 * The Idempotency-Key rule on every call whose definition takes a key (idempotency.ts, decision 0038):
 * the contract is read for them, so a new money call without a case here fails. For each: the same key
 * and body twice gives the same answer and charges once; the same key with another body answers 409
 * and moves nothing; coins are conserved (the payer's loss is the others' gain, nothing issued).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '../../../common/api';
import type { CallDef } from '../../../common/api/define';
import { MSG } from '../../../common/messages';
import * as planOffersApi from '../../../common/api/plan-offers';
import * as subscriptionsApi from '../../../common/api/subscriptions';
import { DEFAULT_PERMISSIONS } from '../../../common/permissions';
import { coinChanges, coinHoldings } from '../../testing/coin-holdings';
import { expectLedgerInvariants } from '../../testing/ledger-invariants';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { publishImagePost, testPicture, uploadFile } from '../../testing/uploads';
import { earningCreator } from '../../testing/payouts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  if (t) await expectLedgerInvariants(t.resources.database.db);
  await t?.close();
});

/** A payer with coins, two different bodies for the call, and the coins the first one costs. */
interface KeyedCase {
  payer: SignedInUser;
  first: Record<string, unknown>;
  other: Record<string, unknown>;
  price: number;
}

const COINS = 2000;

async function payerFollowing(star: { id: number }): Promise<SignedInUser> {
  const payer = await t.given.follower(star);
  await t.given.coins(payer.user, COINS);
  return payer;
}

async function meetingWith(host: SignedInUser, guest: SignedInUser): Promise<number> {
  const res = await host.client.post('/api/user/create-meeting', {
    audience: 'PRIVATE', audience_ids: String(guest.user.id), title: 'Keyed call', start_time: new Date(Date.now() + 3_600_000).toISOString(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as { meeting_id: number }).meeting_id;
}

/** A holder of CREATE AD_OFFER with coins. */
async function advertiser(): Promise<SignedInUser> {
  const payer = await t.given.signedInUser({ perms: [...DEFAULT_PERMISSIONS, 'CREATE AD_OFFER'] });
  await t.given.coins(payer.user, COINS);
  return payer;
}

/** A banner offer of `owner`'s, unfunded: its id. */
async function bannerOffer(owner: SignedInUser): Promise<number> {
  const res = await owner.client.post('/api/ads/offer-create', {
    name: 'Keyed sale', short_description: 'Keyed', type: 'BANNER', rating: 'G', ad_link: 'https://shop.example/keyed', commission: { impression: 1, click: 1, complete: 1 },
    upload_id: await uploadFile(owner.client, await testPicture({ r: 10, g: 200, b: 90 }, 728, 90), 'banner.png', 'image/png'),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.offer as { id: number }).id;
}

/** A creator's plan with two half-price offers on it: their codes and the price of the first period. */
async function halfPriceOffers(creator: SignedInUser): Promise<{ codes: [string, string]; price: number }> {
  const { templates } = await creator.client.call(subscriptionsApi.planTemplates, {});
  const template = templates[0]!;
  const { plan } = await creator.client.call(subscriptionsApi.planAdd, { template_id: template.template_id, price: template.prices[0]!.price, currency: 'CON' });
  const offer = async () => (await creator.client.call(planOffersApi.offerAdd, { plan_id: plan.plan_id, kind: 'discount', percent: 50 })).offer;
  const [one, two] = [await offer(), await offer()];
  return { codes: [one.code, two.code], price: one.first_price };
}

/** Per call (`METHOD path`): what a payer sends. */
const CASES: Record<string, () => Promise<KeyedCase>> = {
  async 'POST /api/streams/send-tip'() {
    const live = await t.given.liveStream();
    const payer = await payerFollowing(live.user);
    return { payer, first: { stream_id: live.streamId, amount: 10 }, other: { stream_id: live.streamId, amount: 10, message: 'another tip' }, price: 10 };
  },
  async 'POST /api/subscription/subscribe'() {
    const creator = await t.given.signedInUser();
    const templates = await creator.client.get('/api/subscription/plan-template');
    const fan = (templates.body.templates as Array<{ template_id: number; name: string }>).find((x) => x.name === 'Fan')!;
    const plan = await creator.client.post('/api/subscription/plan-add', { template_id: fan.template_id, price: 150, currency: 'CON' });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const planId = (plan.body.plan as { plan_id: number }).plan_id;
    const payer = await payerFollowing(creator.user);
    return { payer, first: { plan_id: planId, user_id: creator.user.id, auto_renew: true }, other: { plan_id: planId, user_id: creator.user.id, auto_renew: false }, price: 150 };
  },
  async 'POST /api/user/buy-impressions-package'() {
    const payer = await t.given.signedInUser();
    await t.given.coins(payer.user, COINS);
    const listed = await payer.client.get('/api/user/get-impression-packages');
    const [cheap, dear] = listed.body.impression_packages as Array<{ package_id: number; price: number }>;
    return { payer, first: { id: cheap!.package_id }, other: { id: dear!.package_id }, price: cheap!.price };
  },
  async 'POST /api/user/pay-meeting'() {
    const host = await t.given.signedInUser();
    const payer = await payerFollowing(host.user);
    const id = await meetingWith(host, payer);
    return { payer, first: { id, amount: 250 }, other: { id, amount: 260 }, price: 250 };
  },
  async 'POST /api/post/purchase'() {
    const author = await t.given.signedInUser();
    const [one, two] = [await publishImagePost(author.client, { title: 'Paid one', tip: 100 }), await publishImagePost(author.client, { title: 'Paid two', tip: 100 })];
    const payer = await payerFollowing(author.user);
    return { payer, first: { post_id: one }, other: { post_id: two }, price: 100 };
  },
  async 'POST /api/ads/offer-fund'() {
    const payer = await advertiser();
    const [one, two] = [await bannerOffer(payer), await bannerOffer(payer)];
    return { payer, first: { id: one, coins: 300 }, other: { id: two, coins: 300 }, price: 300 };
  },
  async 'POST /api/ads/offer-withdraw'() {
    // The advertiser is paid back: what they "pay" is the balance, negative.
    const payer = await advertiser();
    const offers = [await bannerOffer(payer), await bannerOffer(payer)];
    for (const id of offers) {
      const funded = await payer.client.request('POST', '/api/ads/offer-fund', { body: { id, coins: 400 }, headers: { 'idempotency-key': randomUUID() } });
      expect(funded.status, JSON.stringify(funded.body)).toBe(200);
      expect((await payer.client.post('/api/ads/offer-update', { id, paused: true })).status).toBe(200);
    }
    return { payer, first: { id: offers[0] }, other: { id: offers[1] }, price: -400 };
  },
  async 'POST /api/subscription/claim-offer'() {
    const creator = await t.given.signedInUser();
    const { codes, price } = await halfPriceOffers(creator);
    const payer = await payerFollowing(creator.user);
    return { payer, first: { code: codes[0], auto_renew: false }, other: { code: codes[1], auto_renew: false }, price };
  },
  async 'POST /api/payouts/request'() {
    // Coins leave the creator's wallet for the payouts account.
    const payer = await earningCreator(t, { matured: 3000 });
    return { payer, first: { coins: 1000 }, other: { coins: 1100 }, price: 1000 };
  },
  async 'POST /api/user/lovense-action'() {
    const host = await t.given.signedInUser();
    const payer = await payerFollowing(host.user);
    const id = await meetingWith(host, payer);
    const where = { stream_id: id, room: 'meeting' };
    // Access is paid only while the host's device is connected.
    expect((await host.client.post('/api/user/lovense-device', { connected: true })).status).toBe(200);
    const asked = await host.client.post('/api/user/lovense-action', { event: 'GET_QR_CODE', ...where, viewer_id: payer.user.id, tip_amount: 50 });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    return { payer, first: { event: 'PAID_TIP_SUCCESS', ...where, tip_amount: 50 }, other: { event: 'PAID_TIP_SUCCESS', ...where, tip_amount: 60 }, price: 50 };
  },
};

/** The answer with each signed address's token cut off. */
const withoutMediaTokens = (body: unknown): unknown => JSON.parse(JSON.stringify(body).replace(/([?&]token=)[^&"]+/g, '$1…'));

const keyedCalls = Object.values(contract)
  .flatMap((domain) => Object.values(domain as Record<string, unknown>))
  .filter((def): def is CallDef => typeof def === 'object' && def !== null && 'path' in def && 'idempotencyKey' in def && (def as CallDef).idempotencyKey !== undefined);

describe('an Idempotency-Key names one request', () => {
  it('finds the calls that take a key in the contract', () => {
    expect(keyedCalls.map((def) => `${def.method} ${def.path}`).sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const def of keyedCalls) {
    const name = `${def.method} ${def.path}`;
    it(`${name}: the same body answers the first outcome, another body 409 with nothing moved`, async () => {
      const setUp = CASES[name];
      if (!setUp) throw new Error(`${name} takes an Idempotency-Key: add its case to CASES`);
      const { payer, first, other, price } = await setUp();
      const send = (body: Record<string, unknown>) => payer.client.request('POST', def.path, { body, headers: { 'idempotency-key': key } });
      const key = `keyed-${randomUUID()}`;
      const before = await coinHoldings(t.resources.database.db);

      const done = await send(first);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      const again = await send(first);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      // The same answer, but for its media addresses: signed again for the viewer when answered, their expiry moves on.
      expect(withoutMediaTokens(again.body)).toEqual(withoutMediaTokens(done.body));
      const changed = await send(other);
      expect(changed.status, JSON.stringify(changed.body)).toBe(409);
      expect(changed.body).toMatchObject({ response: 'conflict', message: MSG.idempotencyKeyReused });

      // Charged once, for the first body; what the payer lost, others gained; no coin issued.
      const changes = coinChanges(before, await coinHoldings(t.resources.database.db));
      const { [String(payer.user.id)]: paid, ...gains } = changes;
      expect(paid).toBe(-price);
      expect(Object.values(gains).reduce((sum, gain) => sum + gain, 0)).toBe(price);
      expect(changes.mint).toBeUndefined();
    });
  }

  it('keeps a key to its own user: another user may use the same key for another body', async () => {
    const host = await t.given.signedInUser();
    const [a, b] = [await payerFollowing(host.user), await payerFollowing(host.user)];
    const [idA, idB] = [await meetingWith(host, a), await meetingWith(host, b)];
    const key = `shared-${randomUUID()}`;
    const pay = (who: SignedInUser, id: number) => who.client.request('POST', '/api/user/pay-meeting', { body: { id, amount: 250 }, headers: { 'idempotency-key': key } });
    expect((await pay(a, idA)).status).toBe(200);
    expect((await pay(b, idB)).status).toBe(200);
  });

  it('treats the same body written differently as the same request (numbers as text, keys in another order)', async () => {
    const host = await t.given.signedInUser();
    const payer = await payerFollowing(host.user);
    const id = await meetingWith(host, payer);
    const key = `same-${randomUUID()}`;
    const first = await payer.client.request('POST', '/api/user/pay-meeting', { body: { id, amount: 250 }, headers: { 'idempotency-key': key } });
    const again = await payer.client.request('POST', '/api/user/pay-meeting', { body: { amount: '250', id: String(id) }, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});
