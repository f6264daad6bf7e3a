/**
 * Statements through HTTP (decision 0062), on money moved by the real calls: tips, a subscription, a
 * post sale and a video call's fee paid to a creator, coins they bought and spent, and a payout. The
 * statement's sums must reconcile with the wallet (opening + gross − fees − payouts + other = closing =
 * the balance), every earning's fee must be what reached the fees account, and the books stay conserved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/statements';
import { MSG } from '../../../common/messages';
import { startTestApp, type LiveStream, type SignedInUser, type TestApp } from '../../testing/harness';
import { HttpSession } from '../../testing/http-session';
import { closeCheckingLedger, expectLedgerInvariants } from '../../testing/ledger-invariants';
import { paidCallFee } from '../../testing/paid-call';
import { publishImagePost } from '../../testing/uploads';
import { platformFee, type AccountRef } from '../ledger';

let t: TestApp;
let baseUrl: string;
let creator: LiveStream;
let fan: SignedInUser;
const month = new Date().toISOString().slice(0, 7);
const lastMonthDay = (() => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
})();
const lastMonth = lastMonthDay.toISOString().slice(0, 7);
const paid = { tip: 0, subscription: 0, post_purchase: 0, meeting_fee: 0 };
const key = (name: string) => ({ 'idempotency-key': `statement-${name}-${process.pid}` });

const conservedFees = (gross: number, percent: number) => platformFee(gross, percent);

beforeAll(async () => {
  t = await startTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await t.given.liveStream({ title: 'Statement show' });
  fan = await t.given.follower(creator.user);
  await t.given.coins(fan.user, 10_000);

  // Last month: a tip (the opening balance).
  await t.given.pastTip({ tipperId: fan.user.id, creatorId: creator.user.id, streamId: creator.streamId, amount: 120, at: lastMonthDay });

  // This month, through the real calls: two tips, a subscription, a post sale, a video call's fee.
  for (const [n, amount] of [[1, 50], [2, 15]] as const) {
    const tip = await fan.client.request('POST', '/api/streams/send-tip', { body: { stream_id: creator.streamId, amount }, headers: key(`tip-${n}`) });
    expect(tip.status, JSON.stringify(tip.body)).toBe(200);
    paid.tip += amount;
  }
  const templates = (await creator.client.get('/api/subscription/plan-template')).body.templates as Array<{ template_id: number; prices: Array<{ price: number }> }>;
  const price = templates[0]!.prices[0]!.price;
  const plan = await creator.client.post('/api/subscription/plan-add', { template_id: templates[0]!.template_id, price, currency: 'CON' });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  const planId = (plan.body.plan as { plan_id: number }).plan_id;
  const subscribed = await fan.client.request('POST', '/api/subscription/subscribe', { body: { plan_id: planId, user_id: creator.user.id, auto_renew: false }, headers: key('subscribe') });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
  paid.subscription += price;

  const creatorWeb = await HttpSession.at(baseUrl).signIn(creator.user.username, creator.user.password);
  const postId = await publishImagePost(creatorWeb, { tip: 100, title: 'Statement picture' });
  expect((await fan.client.post('/api/post/purchase', { post_id: postId })).status).toBe(200);
  paid.post_purchase += 100;

  await paidCallFee(creator, fan, 300, key('meeting')['idempotency-key']);
  paid.meeting_fee += 300;

  // The creator buys coins and tips another broadcaster with some: other movements, not earnings.
  await t.given.coins(creator.user, 200);
  const elsewhere = await t.given.liveStream({ title: 'Another show' });
  const spent = await creator.client.request('POST', '/api/streams/send-tip', { body: { stream_id: elsewhere.streamId, amount: 20 }, headers: key('spend') });
  expect(spent.status, JSON.stringify(spent.body)).toBe(200);

  // A referral commission, paid out of the fees the platform took (as the referral settlement pays it): no fee on it.
  await t.app.services.ledger.gatherSystem('fees', 'CON');
  await t.app.services.ledger.transfer({
    kind: 'referral_commission', idempotencyKey: `statement-referral-${process.pid}`, toUserId: creator.user.id, amount: 7, currency: 'CON',
    legs: [{ account: { system: 'fees', currency: 'CON' }, amount: -7 }, { account: { userId: creator.user.id, currency: 'CON' }, amount: 7 }],
  });

  // A payout: coins leave the wallet for the payouts holding account (a `payout` transfer through the ledger;
  // the payout requests that write it are built apart, so the account's name is not in the ledger's type yet).
  const payouts = { system: 'payouts', currency: 'CON' } as unknown as AccountRef;
  await t.app.services.ledger.transfer({
    kind: 'payout', idempotencyKey: `statement-payout-${process.pid}`, fromUserId: creator.user.id, amount: 150, currency: 'CON',
    legs: [{ account: { userId: creator.user.id, currency: 'CON' }, amount: -150 }, { account: payouts, amount: 150 }],
  });
});
afterAll(() => closeCheckingLedger(t));

describe('monthly statements', () => {
  it('reconciles with the wallet: opening + gross − fees − payouts + other = closing = the balance', async () => {
    const { statement } = await creator.client.call(api.monthlyStatement, { month });
    const balance = (await t.app.services.ledger.balances(creator.user.id)).CON;
    expect(statement.opening_balance).toBe(120);
    expect(statement.closing_balance).toBe(balance);
    const { totals } = statement;
    expect(statement.opening_balance + totals.gross - totals.fees - totals.payouts + totals.other_net).toBe(balance);
    expect(totals.net).toBe(totals.gross - totals.fees);

    // Each kind's gross is what the payers paid; its fee the platform's rate on it (calls are free).
    const byKind = Object.fromEntries(statement.earnings.map((line) => [line.kind, line]));
    expect(Object.keys(byKind).sort()).toEqual(['meeting_fee', 'post_purchase', 'referral_commission', 'subscription', 'tip']);
    expect(statement.earnings.map((line) => line.kind)).toEqual(['tip', 'subscription', 'post_purchase', 'meeting_fee', 'referral_commission']);
    expect(byKind.referral_commission).toEqual({ kind: 'referral_commission', transfers: 1, gross: 7, fees: 0, net: 7 });
    expect(byKind.tip).toMatchObject({ transfers: 2, gross: paid.tip, fees: conservedFees(50, 20) + conservedFees(15, 20) });
    expect(byKind.subscription).toMatchObject({ transfers: 1, gross: paid.subscription, fees: conservedFees(paid.subscription, 20) });
    expect(byKind.post_purchase).toMatchObject({ transfers: 1, gross: 100, fees: conservedFees(100, 20) });
    expect(byKind.meeting_fee).toMatchObject({ transfers: 1, gross: 300, fees: 0, net: 300 });
    expect(statement.payouts).toEqual([{ kind: 'payout', transfers: 1, coins: 150 }]);
    expect(statement.other).toEqual([
      { kind: 'deposit', transfers: 1, coins_in: 200, coins_out: 0 },
      { kind: 'tip', transfers: 1, coins_in: 0, coins_out: 20 },
    ]);
    expect(statement.coins_per_usd).toBe(20);
  });

  it("closes last month where this month opens, and a year's months chain to the same balance", async () => {
    const previous = (await creator.client.call(api.monthlyStatement, { month: lastMonth })).statement;
    expect(previous).toMatchObject({ opening_balance: 0, closing_balance: 120, totals: { gross: 120, fees: 0, net: 120, payouts: 0, other_net: 0 } });
    const year = Number(month.slice(0, 4));
    const { summary } = await creator.client.call(api.yearSummary, { year });
    const current = summary.months.find((m) => m.month === month)!;
    const { statement } = await creator.client.call(api.monthlyStatement, { month });
    expect(current).toMatchObject({ opening_balance: statement.opening_balance, closing_balance: statement.closing_balance, gross: statement.totals.gross, fees: statement.totals.fees });
    for (let i = 1; i < summary.months.length; i += 1) expect(summary.months[i]!.opening_balance).toBe(summary.months[i - 1]!.closing_balance);
    expect(summary.closing_balance).toBe((await t.app.services.ledger.balances(creator.user.id)).CON);
    expect(summary.totals.payouts).toBe(150);
  });

  it('offers the month as a CSV file, escaped, named, that sums to the closing balance', async () => {
    const res = await creator.client.request('GET', `${api.STATEMENT_CSV_PATH}?month=${month}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-${creator.user.username}-${month}.csv"; filename*=UTF-8''statement-${creator.user.username}-${month}.csv`);
    const lines = String(res.body).trimEnd().split('\r\n').map((line) => line.split(','));
    expect(lines[0]).toEqual(['section', 'kind', 'description', 'transfers', 'coins', 'usd']);
    const rows = lines.slice(1);
    const coins = (section: string) => rows.filter((r) => r[0] === section).reduce((sum, r) => sum + Number(r[4]), 0);
    const closing = rows.find((r) => r[0] === 'closing')!;
    expect(coins('opening') + coins('earning') + coins('fee') + coins('payout') + coins('other')).toBe(Number(closing[4]));
    expect(closing[5]).toBe((Number(closing[4]) / 20).toFixed(2));
    expect(rows.find((r) => r[0] === 'earning' && r[1] === 'meeting_fee')).toEqual(['earning', 'meeting_fee', 'Video call (gross)', '1', '300', '15.00']);
  });

  it("refuses a malformed month or year, a month to come, another user's statement; an administrator reads any", async () => {
    for (const bad of ['2026-13', '2026-1', 'November', '1999-01']) {
      const refused = await creator.client.refusal(api.monthlyStatement, { month: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^Must be a month written YYYY-MM/);
    }
    expect((await creator.client.request('GET', `${api.STATEMENT_CSV_PATH}?month=26-11`)).status).toBe(400);
    expect((await creator.client.refusal(api.yearSummary, { year: 20260 })).status).toBe(400);
    const nextYear = `${Number(month.slice(0, 4)) + 1}-01`;
    expect(await creator.client.refusal(api.monthlyStatement, { month: nextYear })).toMatchObject({ status: 400, body: { message: MSG.statementNotYet } });

    const stranger = await t.given.signedInUser();
    expect(await stranger.client.refusal(api.monthlyStatement, { month, user_id: creator.user.id })).toMatchObject({ status: 403, body: { message: MSG.ownFinancesOnly } });
    expect((await stranger.client.refusal(api.yearSummary, { year: 2026, user_id: creator.user.id })).status).toBe(403);
    expect((await stranger.client.request('GET', `${api.STATEMENT_CSV_PATH}?month=${month}&user_id=${creator.user.id}`)).status).toBe(403);
    expect((await HttpSession.over(t.app).request('GET', `${api.STATEMENT_CSV_PATH}?month=${month}`)).status).toBe(401);
    // A stranger's own statement is empty, not the creator's.
    expect((await stranger.client.call(api.monthlyStatement, { month })).statement).toMatchObject({ opening_balance: 0, closing_balance: 0, earnings: [] });

    const admin = await t.given.signedInUser({ role: 'admin' });
    const seen = await admin.client.call(api.monthlyStatement, { month, user_id: creator.user.id });
    expect(seen.statement.closing_balance).toBe((await t.app.services.ledger.balances(creator.user.id)).CON);
    expect((await admin.client.refusal(api.monthlyStatement, { month, user_id: 999_999_999 })).status).toBe(404);
    await expectLedgerInvariants(t.resources.database.db);
  });
});
