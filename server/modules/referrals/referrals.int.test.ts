/**
 * The referral programme: links, sign-ups credited through the tracking calls (first touch), commissions
 * settled once per period through the ledger, the dashboard's reports, and the refusals.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import type { HttpSession } from '../../testing/http-session';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import { signUpBody } from '../../testing/sign-up';

const PERIOD_SECONDS = 3600;
const RATES = { AGENT: 0.05, INFLUENCER: 0.1 };

let t: TestApp;
let holder: SignedInUser;
let links: Array<{ referral_code_id: number; code: string; type: string; campaign: string | null; url: string }>;
let names = 0;

interface Referred {
  user: { user_id: number };
  type: string;
  campaign: string | null;
  commission: { base_total: number; earn_total: number };
}

/** The dashboard's answers, each read through one of its sections. */
type Sections = Record<'summary' | 'referred' | 'commission' | 'streaming', Record<string, unknown>>;

const get = async <T = Sections>(client: HttpSession, path: string, query: Record<string, string | number> = {}) => {
  const res = await client.get(`/api/user/${path}`, query);
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as T;
};
const referredList = async () => get<{ referrals: Referred[]; total_rows: number }>(holder.client, 'referral-referred-list');
const linkOf = (type: string, campaign: string | null = null) => links.find((l) => l.type === type && l.campaign === campaign)!;

/** A visitor's browser: opens the app through each landing URL in turn, signs up, reports the sign-up. */
async function signUpThrough(landings: Array<{ referralCode?: string; campaign?: string }>): Promise<{ client: HttpSession; userId: number }> {
  const client = t.client();
  let tracker: string | undefined;
  for (const landing of landings) {
    const opened = await client.post('/ajax/tracking/track-event', { action: 'app_opened', ...landing, ...(tracker ? { tracker } : {}) });
    expect(opened.status).toBe(200);
    tracker = (opened.body.result as { tracker: string }).tracker;
  }
  const registered = await client.post('/api/user/user-register', signUpBody(`referred_${process.pid}_${(names += 1)}`));
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  const reported = await client.post('/ajax/tracking/track-event', { action: 'user_registered', ...(tracker ? { tracker } : {}) });
  expect(reported.status).toBe(200);
  return { client, userId: registered.body.user_id as number };
}

beforeAll(async () => {
  t = await startTestApp({ REFERRAL_SETTLEMENT_SECONDS: String(PERIOD_SECONDS), REFERRAL_RATES: `AGENT=${RATES.AGENT},INFLUENCER=${RATES.INFLUENCER}` });
  holder = await t.given.signedInUser({ perms: ['ALLOW REFERRAL_ACCESS', 'ALLOW CUSTOM_STREAM_CLIENT', 'CREATE STREAM_LIVE_G'] });
  links = (await get<{ links: typeof links }>(holder.client, 'referral-summary')).links;
});
afterAll(() => closeCheckingLedger(t));

describe('referral links', () => {
  it('gives a holder a link per programme, named in the session user', async () => {
    expect(links.map((l) => [l.type, l.campaign])).toEqual([['AGENT', null], ['INFLUENCER', null]]);
    for (const link of links) expect(link.url).toMatch(new RegExp(`^https?://[^/]+/user/sign-up\\?referralCode=${link.code}$`));
    const session = await holder.client.get('/api/user/session-detail');
    expect(session.body.user).toMatchObject({ referral_code_id: links[0]!.referral_code_id });
    const plain = await t.given.signedInUser();
    expect((await plain.client.get('/api/user/session-detail')).body.user).toMatchObject({ referral_code_id: null });
  });

  it('adds campaign links, once per campaign and programme', async () => {
    const made = await holder.client.post('/api/user/referral-link-create', { type: 'INFLUENCER', campaign: 'spring-2026' });
    expect(made.status).toBe(200);
    expect(made.body.link).toMatchObject({ type: 'INFLUENCER', campaign: 'spring-2026' });
    expect(String((made.body.link as { url: string }).url)).toContain('&campaign=spring-2026');
    const again = await holder.client.post('/api/user/referral-link-create', { type: 'INFLUENCER', campaign: 'spring-2026' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MSG.referralLinkExists);
    const bad = await holder.client.post('/api/user/referral-link-create', { type: 'INFLUENCER', campaign: 'spring sale!' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(MSG.referralCampaignShape);
    links = (await get<{ links: typeof links }>(holder.client, 'referral-summary')).links;
    expect(links).toHaveLength(3);
  });

  it('refuses everyone without ALLOW REFERRAL_ACCESS, and another holder\'s link', async () => {
    const plain = await t.given.signedInUser();
    for (const path of ['referral-summary', 'referral-referred-list', 'referral-summary-referred', 'referral-summary-commission', 'referral-summary-streaming']) {
      const res = await plain.client.get(`/api/user/${path}`);
      expect(res.status, path).toBe(403);
      expect(res.body.message).toBe(MSG.referralIneligible);
    }
    expect((await plain.client.post('/api/user/referral-link-create', { type: 'AGENT', campaign: 'x' })).status).toBe(403);
    expect((await t.client().get('/api/user/referral-summary')).status).toBe(401);
    const other = await t.given.signedInUser({ perms: ['ALLOW REFERRAL_ACCESS'] });
    const foreign = await other.client.get('/api/user/referral-referred-list', { referral_code_id: links[0]!.referral_code_id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(MSG.referralLinkUnknown);
  });
});

describe('attribution and settlement', () => {
  let viewer: { client: HttpSession; userId: number };
  let broadcaster: { client: HttpSession; userId: number };

  it('credits a sign-up to the first link its browser carried, once', async () => {
    viewer = await signUpThrough([{ referralCode: linkOf('INFLUENCER', 'spring-2026').code, campaign: 'spring-2026' }, { referralCode: linkOf('AGENT').code }]);
    broadcaster = await signUpThrough([{}, { referralCode: linkOf('AGENT').code.toUpperCase() }]);
    const nobody = await signUpThrough([{ referralCode: 'no-such-code' }]);
    // An unknown code first, a real one after: the real one is credited.
    const second = await signUpThrough([{ referralCode: 'no-such-code' }, { referralCode: linkOf('INFLUENCER').code }]);
    await signUpThrough([{}]);

    const list = await referredList();
    expect(list.total_rows).toBe(3);
    expect(list.referrals.map((r) => [r.user.user_id, r.type, r.campaign])).toEqual([
      [second.userId, 'INFLUENCER', null],
      [broadcaster.userId, 'AGENT', null],
      [viewer.userId, 'INFLUENCER', 'spring-2026'],
    ]);
    // Reporting the sign-up again, from another browser with another link, changes nothing.
    const elsewhere = await viewer.client.post('/ajax/tracking/track-event', { action: 'user_registered', referralCode: linkOf('AGENT').code });
    expect(elsewhere.status).toBe(200);
    expect((await referredList()).referrals.find((r) => r.user.user_id === viewer.userId)?.type).toBe('INFLUENCER');
    expect((await get(holder.client, 'referral-summary')).summary.total_referral_count).toBe(3);
    expect((await get(holder.client, 'referral-summary-referred', { referral_code_id: linkOf('AGENT').referral_code_id })).referred).toMatchObject({ total: 1, by_type: { AGENT: 1, INFLUENCER: 0 } });
    expect(nobody.userId).toBeGreaterThan(0);

    // An account older than a day is credited to nobody; nor is a holder's sign-up to their own link.
    const old = await t.given.signedInUser();
    await t.resources.database.db.execute(sql`update users set created_at = now() - interval '2 days' where id = ${old.user.id}`);
    const late = await old.client.post('/ajax/tracking/track-event', { action: 'user_registered', referralCode: linkOf('AGENT').code });
    expect(late.status).toBe(200);
    expect(await t.app.services.referrals.attribution.credit({ userId: holder.user.id, referralCodes: [linkOf('AGENT').code] })).toBe(false);
    expect((await get(holder.client, 'referral-summary')).summary.total_referral_count).toBe(3);
  });

  it('pays each referrer once per closed period: rate × what the referred earned or spent', async () => {
    // The referred broadcaster goes live; the referred viewer tips them 200 and someone else tips them 100.
    await t.resources.database.db.execute(sql`insert into user_permissions (user_id, perm) values (${broadcaster.userId}, 'CREATE STREAM_LIVE_G'), (${broadcaster.userId}, 'ALLOW CUSTOM_STREAM_CLIENT') on conflict do nothing`);
    const user = { id: broadcaster.userId, username: '', email: '', password: '' };
    const live = await t.given.liveStream({ title: 'Referred show' }, { ...user, ...(await usernameOf(broadcaster.userId)) });
    await t.given.coins(viewer.userId, 1_000);
    const outsider = await t.given.signedInUser();
    await t.given.coins(outsider.user, 1_000);
    const tip = async (client: HttpSession, amount: number, key: string) =>
      expect((await client.request('POST', '/api/streams/send-tip', { body: { stream_id: live.streamId, amount }, headers: { 'idempotency-key': key } })).status).toBe(200);
    await tip(viewer.client, 200, 'ref-1');
    await tip(outsider.client, 100, 'ref-2');

    // AGENT: 5 % of 300 earned; INFLUENCER: 10 % of 200 spent.
    const expected = Math.floor(300 * RATES.AGENT) + Math.floor(200 * RATES.INFLUENCER);
    expect((await get(holder.client, 'referral-summary')).summary).toMatchObject({ pending_settlement: expected, last_settlement: 0, last_settlement_date_formatted: '' });

    const before = (await t.app.services.ledger.balances(holder.user.id)).CON ?? 0;
    const later = new Date(Date.now() + 2 * PERIOD_SECONDS * 1000 + 120_000);
    const settlement = t.app.services.referrals.settlement;
    const runs = await Promise.all([settlement.run(later), settlement.run(later)]);
    expect(await settlement.run(later)).toBe(0);
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect((await t.app.services.ledger.balances(holder.user.id)).CON).toBe(before + expected);
    const { rows } = await t.resources.database.db.execute<{ n: string }>(sql`select count(*) as n from ledger_transfers where kind = 'referral_commission' and to_user_id = ${holder.user.id}`);
    expect(Number(rows[0]!.n)).toBe(1);

    const summary = (await get(holder.client, 'referral-summary')).summary;
    expect(summary).toMatchObject({ last_settlement: expected, last_settlement_amount_formatted: `${expected} Coins`, pending_settlement: 0 });
    expect(summary.last_settlement_date_formatted).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(summary.rates).toEqual([{ type: 'AGENT', commission_type: 'EARNINGS', rate: 0.05 }, { type: 'INFLUENCER', commission_type: 'SPENDING', rate: 0.1 }]);
    const list = (await referredList()).referrals;
    expect(list.map((r) => [r.user.user_id, r.commission])).toEqual([
      [expect.any(Number), { base_total: 0, earn_total: 0 }],
      [broadcaster.userId, { base_total: 300, earn_total: 15 }],
      [viewer.userId, { base_total: 200, earn_total: 20 }],
    ]);
    const commission = (await get(holder.client, 'referral-summary-commission')).commission;
    expect(commission).toMatchObject({ base_total: 500, earn_total: expected });
    expect(commission.settlements as unknown[]).toHaveLength(1);
    expect((await get(holder.client, 'referral-summary-streaming')).streaming).toMatchObject({ broadcasters: 1, streams: 1, tip_coins: 300 });
    // A range before any of it shows nothing; the wallet names the commission.
    expect((await get(holder.client, 'referral-summary-commission', { from: '2016-01-01', to: '2016-12-31' })).commission.earn_total).toBe(0);
    const history = await holder.client.get('/api/wallet/transfers');
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body)).toContain('referral_commission');
  });
});

async function usernameOf(userId: number) {
  const { rows } = await t.resources.database.db.execute<{ username: string }>(sql`select username from users where id = ${userId}`);
  return { username: rows[0]!.username, password: 'a-good-password' };
}
