/**
 * Referral commissions (decision 0036) through HTTP: a share of the platform fee actually taken on the
 * referred person's payments, never more than that fee, paid out of the fees account; nothing on
 * payments with the referrer's circle, between accounts sharing a card or an address, or on kinds
 * without a fee. And finding 1: a holder farming commissions with a second account of their own ends
 * with no more coins than the pair bought, the books conserved.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConservation, conservationViolations } from '../ledger';
import { HttpSession } from '../../testing/http-session';
import { startTestApp, type TestApp, type TestUser } from '../../testing/harness';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import { signUpBody } from '../../testing/sign-up';

const PERIOD_SECONDS = 3600;
/** The whole fee for an influencer's referred spending, half of it for an agent's: never more than the fee. */
const RATES = { AGENT: 0.5, INFLUENCER: 1 };
const CARD = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2031, cvc: '123', name: 'Shared Card' };

let t: TestApp;
let names = 0;
let keys = 0;

interface Person { client: HttpSession; userId: number; username: string }
type Links = Array<{ referral_code_id: number; code: string; type: 'AGENT' | 'INFLUENCER'; campaign: string | null }>;

const sessionAt = (address: string) => HttpSession.over(t.app, undefined, address);
const coinsOf = async (userId: number) => (await t.app.services.ledger.balances(userId)).CON;
const settleAll = () => t.app.services.referrals.settlement.run(new Date(Date.now() + 2 * PERIOD_SECONDS * 1000 + 120_000));

/** Someone signing up from `address`, through a referral link when given, as the web reports it. */
async function signUpAt(address: string, referralCode?: string): Promise<Person> {
  const client = sessionAt(address);
  const opened = await client.post('/ajax/tracking/track-event', { action: 'app_opened', ...(referralCode ? { referralCode } : {}) });
  const tracker = (opened.body.result as { tracker: string }).tracker;
  const username = `comm_${process.pid}_${(names += 1)}`;
  const registered = await client.post('/api/user/user-register', signUpBody(username));
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  expect((await client.post('/ajax/tracking/track-event', { action: 'user_registered', tracker })).status).toBe(200);
  return { client, userId: registered.body.user_id as number, username };
}

/** A referral holder signed in from `address`, and their programme links. */
async function holderAt(address: string): Promise<Person & { links: Links }> {
  const user = await t.given.user({ perms: ['ALLOW REFERRAL_ACCESS'] });
  const client = await sessionAt(address).signIn(user.username, user.password);
  const links = (await client.get('/api/user/referral-summary')).body.links as Links;
  return { client, userId: user.id, username: user.username, links };
}
const codeOf = (links: Links, type: 'AGENT' | 'INFLUENCER') => links.find((l) => l.type === type && l.campaign === null)!.code;

/** A live stream of `person` (the test tools sign the owner in again, from the loopback address). */
async function liveStreamOf(person: Person): Promise<number> {
  await t.resources.database.db.execute(sql`insert into user_permissions (user_id, perm) values (${person.userId}, 'CREATE STREAM_LIVE_G'), (${person.userId}, 'ALLOW CUSTOM_STREAM_CLIENT') on conflict do nothing`);
  const owner: TestUser = { id: person.userId, username: person.username, email: `${person.username}@example.com`, password: 'a-good-password' };
  return (await t.given.liveStream({ title: 'Referred show' }, owner)).streamId;
}

async function tip(from: Person, streamId: number, amount: number) {
  const res = await from.client.request('POST', '/api/streams/send-tip', { body: { stream_id: streamId, amount }, headers: { 'idempotency-key': `comm-tip-${(keys += 1)}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** `host` schedules a call with `guest` (who follows them), and the guest pays its 250 coins with a fresh key. */
async function paidCall(host: Person, guest: Person) {
  const created = await host.client.post('/api/user/create-meeting', {
    audience_ids: String(guest.userId), title: 'Evening call', start_time: new Date(Date.now() + 3_600_000).toISOString(),
    tip_rules: { currency: 'CON', viewer_min_amount: 250 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = (created.body.data as { meeting_id: number }).meeting_id;
  const paid = await guest.client.request('POST', '/api/user/pay-meeting', { body: { id, amount: 250 }, headers: { 'idempotency-key': `comm-call-${(keys += 1)}` } });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
}

const follow = async (fan: Person, star: Person) =>
  expect((await fan.client.post('/api/user/toggle-following', { id: star.userId, isFollowing: true })).status).toBe(200);

async function depositWithCard(person: Person) {
  const packages = (await person.client.get('/api/wallet/coin-packages')).body.packages as Array<{ package_id: number }>;
  const res = await person.client.post('/api/wallet/deposit-coins', { package_id: packages[0]!.package_id, payment_method: 'card', card: CARD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function feesHeld(): Promise<number> {
  const { rows } = await t.resources.database.db.execute<{ n: string | null }>(sql`select sum(balance) as n from ledger_accounts where system = 'fees' and currency = 'CON'`);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Each part on its own app: a settlement run here settles every period up to two ahead, so activity
 * after it in the same books would never be settled.
 */
function onItsOwnApp() {
  beforeAll(async () => {
    t = await startTestApp({ REFERRAL_SETTLEMENT_SECONDS: String(PERIOD_SECONDS), REFERRAL_RATES: `AGENT=${RATES.AGENT},INFLUENCER=${RATES.INFLUENCER}` });
  });
  afterAll(() => closeCheckingLedger(t));
}

describe('referral commissions', () => {
  onItsOwnApp();

  it('are a share of the fee taken, paid from the fees, and nothing on the circle, shared cards or addresses, or fee-free kinds', async () => {
    const holder = await holderAt('198.51.100.1');
    const viewer = await signUpAt('198.51.100.2', codeOf(holder.links, 'INFLUENCER'));
    const broadcaster = await signUpAt('198.51.100.3', codeOf(holder.links, 'AGENT'));
    const outsider = await signUpAt('198.51.100.4');
    const creator = await signUpAt('198.51.100.5');
    const sameAddress = await signUpAt('198.51.100.2');
    const sameCard = await signUpAt('198.51.100.6');
    // Someone the holder brought in from the holder's own address: the holder themselves, to the programme.
    const self = await signUpAt('198.51.100.1', codeOf(holder.links, 'INFLUENCER'));
    const [broadcasterStream, creatorStream, sameAddressStream, sameCardStream] =
      [await liveStreamOf(broadcaster), await liveStreamOf(creator), await liveStreamOf(sameAddress), await liveStreamOf(sameCard)];
    for (const person of [viewer, outsider, holder, self]) await t.given.coins(person.userId, 1_000);
    await depositWithCard(viewer);
    await depositWithCard(sameCard);

    await tip(outsider, broadcasterStream, 100); // fee 20: the agent's referred broadcaster earned it → 10
    await tip(viewer, creatorStream, 100); // fee 20: the influencer's referred viewer spent it → 20, the whole fee
    await tip(viewer, broadcasterStream, 200); // between two people the holder brought in: nothing
    await tip(holder, broadcasterStream, 150); // the referrer paying their referred: nothing
    await tip(viewer, sameAddressStream, 100); // an account that signed in from the viewer's address: nothing
    await tip(viewer, sameCardStream, 100); // an account that paid with the viewer's card: nothing
    await follow(viewer, creator);
    await paidCall(creator, viewer); // a video call: the platform takes no fee, so nothing
    await tip(self, creatorStream, 100); // the holder's own second account: nothing

    const summary = async () => (await holder.client.get('/api/user/referral-summary')).body.summary as Record<string, unknown>;
    expect(await summary()).toMatchObject({ pending_settlement: 30, last_settlement: 0 });
    const [before, feesBefore] = [await coinsOf(holder.userId), await feesHeld()];
    expect(await settleAll()).toBeGreaterThan(0);
    expect(await coinsOf(holder.userId)).toBe(before + 30);
    expect(await feesHeld()).toBe(feesBefore - 30);
    const { rows } = await t.resources.database.db.execute<{ legs: string }>(sql`select string_agg(coalesce(a.system, 'wallet') || ' ' || e.amount, ', ' order by e.amount) as legs
      from ledger_transfers tr join ledger_entries e on e.transfer_id = tr.id join ledger_accounts a on a.id = e.account_id
      where tr.kind = 'referral_commission' and tr.to_user_id = ${holder.userId} group by tr.id`);
    expect(rows).toEqual([{ legs: 'fees -30, wallet 30' }]);

    expect(await summary()).toMatchObject({ last_settlement: 30, pending_settlement: 0, rates: [
      { type: 'AGENT', commission_type: 'EARNINGS', rate: RATES.AGENT }, { type: 'INFLUENCER', commission_type: 'SPENDING', rate: RATES.INFLUENCER },
    ] });
    const list = (await holder.client.get('/api/user/referral-referred-list')).body.referrals as Array<{ user: { user_id: number }; commission: unknown }>;
    expect(list.map((r) => [r.user.user_id, r.commission])).toEqual([
      [self.userId, { base_total: 0, earn_total: 0 }],
      [broadcaster.userId, { base_total: 20, earn_total: 10 }],
      [viewer.userId, { base_total: 20, earn_total: 20 }],
    ]);
    expect((await holder.client.get('/api/user/referral-summary-commission')).body.commission).toMatchObject({ base_total: 40, earn_total: 30 });
    expect((await holder.client.get('/api/user/referral-summary-streaming')).body.streaming).toMatchObject({ broadcasters: 1, tip_coins: 450 });
    expect(JSON.stringify((await holder.client.get('/api/wallet/transfers')).body)).toContain('referral_commission');
  });

});

describe('finding 1: farming commissions with a second account', () => {
  onItsOwnApp();
  it('leaves the pair with no more coins than they bought, however often they pay each other\'s calls', async () => {
    const holder = await holderAt('203.0.113.10');
    // The holder's second account, signed up through their own link from another address.
    const second = await signUpAt('203.0.113.11', codeOf(holder.links, 'INFLUENCER'));
    await follow(holder, second);
    await follow(second, holder);
    await t.given.coins(holder.userId, 1_000);
    await t.given.coins(second.userId, 1_000);
    const pair = async () => (await coinsOf(holder.userId)) + (await coinsOf(second.userId));
    const bought = await pair();

    for (let round = 0; round < 4; round++) {
      await paidCall(holder, second);
      await paidCall(second, holder);
    }
    expect(await settleAll()).toBeGreaterThan(0);

    expect(await pair()).toBeLessThanOrEqual(bought);
    const { rows } = await t.resources.database.db.execute<{ n: string }>(sql`select count(*) as n from ledger_transfers
      where kind = 'referral_commission' and to_user_id in (${holder.userId}, ${second.userId})`);
    expect(Number(rows[0]!.n)).toBe(0);
    expect(conservationViolations(await checkConservation(t.resources.database.db))).toEqual([]);
  });
});
