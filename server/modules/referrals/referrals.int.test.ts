/**
 * The referral programme: links, sign-ups credited through the tracking calls (first touch), the
 * dashboard's reports, and the refusals (commissions settled per period: commissions.int.test.ts).
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
      expect(res.body.message).toBe('You are not eligible for the Limelight referral program yet, please contact our sales team.');
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
  // What a period's settlement pays, and what earns nothing: commissions.int.test.ts.
});
