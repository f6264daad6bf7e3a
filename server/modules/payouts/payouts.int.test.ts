/**
 * Earnings and payouts (decision 0061) over HTTP against a real database: the hold, the minimum and the
 * readiness check, request → approve → export → import paid, failed and rejected payouts returning their
 * coins, one open request at a time, retries, a payout racing new earnings and a dispute, and two runs of
 * the automatic payout job at once. Every case ends with the books checked for conservation.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/payouts';
import { sessionDetail } from '../../../common/api/accounts';
import { listNotifications } from '../../../common/api/notifications';
import { MSG, fill } from '../../../common/messages';
import { auditLog } from '../../platform/db/platform-tables';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { earningCreator, TEST_BANK_ACCOUNT } from '../../testing/payouts';
import { closeCheckingLedger, expectLedgerInvariants, systemBalance } from '../../testing/ledger-invariants';
import { checkConservation } from '../ledger';

const HOLD_SECONDS = 3600;
const MINIMUM = 100;
let t: TestApp;
let admin: HttpSession;

beforeAll(async () => {
  t = await startTestApp({ PAYOUT_HOLD_SECONDS: String(HOLD_SECONDS), PAYOUT_MINIMUM_COINS: String(MINIMUM) });
  admin = (await t.given.moderators()).admin.client;
});
afterAll(() => closeCheckingLedger(t));

const db = () => t.resources.database.db;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
const BANK = TEST_BANK_ACCOUNT;
const creator = (matured: number, pending = 0, options: { bank?: boolean; taxForm?: boolean } = {}) => earningCreator(t, { matured, pending, ...options, maturedAt: hoursAgo(2) });

const earnings = (c: SignedInUser) => c.client.call(api.myEarnings, {});
const ask = (c: SignedInUser, coins: number, key = randomUUID()) => c.client.send(api.requestPayout, { coins }, { idempotencyKey: key });
const system = (name: string) => systemBalance(db(), name);

/** The ledger's invariants, conservation among them. */
const expectConserved = () => expectLedgerInvariants(db());

async function requested(c: SignedInUser, coins: number) {
  const answer = await ask(c, coins);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { request: api.PayoutRequest }).request;
}

describe('earnings and the hold', () => {
  it('shows pending, available and the next withdraw date, in the session user too', async () => {
    const c = await creator(500, 300);
    const mine = await earnings(c);
    expect(mine.earnings).toMatchObject({ pending: 300, available: 500, paid_out: 0, in_payout: 0, earned_total: 800, minimum: MINIMUM, coins_per_usd: 20, hold_seconds: HOLD_SECONDS });
    expect(Date.parse(mine.earnings.next_withdraw_date!)).toBeLessThanOrEqual(Date.now());
    expect(mine.readiness).toEqual({ ready: true, requirements: [{ key: 'payout_method', done: true }, { key: 'tax_form', done: true }] });
    expect(mine.method).toMatchObject({ method: 'bank_transfer', account_last4: '3000' });
    const session = await c.client.call(sessionDetail, {});
    expect(Date.parse(session.user.env.next_withdraw_date!)).toBeLessThanOrEqual(Date.now());
  });

  it('dates the next withdrawal when the earnings in the hold will make the minimum', async () => {
    const c = await creator(0, 150);
    const { earnings: e } = await earnings(c);
    expect(e.available).toBe(0);
    const next = Date.parse(e.next_withdraw_date!);
    expect(next).toBeGreaterThan(Date.now() + (HOLD_SECONDS - 60) * 1000);
    expect(next).toBeLessThanOrEqual(Date.now() + HOLD_SECONDS * 1000);
    expect((await c.client.call(sessionDetail, {})).user.env.next_withdraw_date).toBe(e.next_withdraw_date);
    // Nobody who earned nothing has a date.
    const nobody = await t.given.signedInUser();
    expect((await nobody.client.call(sessionDetail, {})).user.env.next_withdraw_date).toBeNull();
  });

  it("keeps the session user's date only while the wallet stands still: a payout request dates it again at once", async () => {
    const c = await creator(500);
    const date = async () => (await c.client.call(sessionDetail, {})).user.env.next_withdraw_date;
    expect(Date.parse((await date())!)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse((await date())!)).toBeLessThanOrEqual(Date.now());
    await requested(c, 450);
    // 50 left, under the minimum, and nothing in the hold: no date.
    expect(await date()).toBeNull();
    await expectConserved();
  });

  it('never lets coins in the hold leave: spent coins come out of what was withdrawable', async () => {
    const c = await creator(200, 300);
    // The creator spends 250 of the 500 they hold: only 250 are left, all of them still in the hold.
    const other = await t.given.user();
    await t.app.services.ledger.transfer({ kind: 'tip', idempotencyKey: `spend-${randomUUID()}`, fromUserId: c.user.id, toUserId: other.id, amount: 250, currency: 'CON',
      legs: [{ account: { userId: c.user.id, currency: 'CON' }, amount: -250 }, { account: { userId: other.id, currency: 'CON' }, amount: 250 }] });
    expect((await earnings(c)).earnings.available).toBe(0);
    expect((await ask(c, 100)).status).toBe(409);
    await expectConserved();
  });
});

describe('what a request must meet', () => {
  it('refuses below the minimum, above what is available, before the method is set, and while on hold', async () => {
    const c = await creator(500, 300);
    const below = await c.client.refusal(api.requestPayout, { coins: MINIMUM - 1 }, { idempotencyKey: randomUUID() });
    expect(below).toMatchObject({ status: 400, body: { message: fill(MSG.payoutBelowMinimum, { minimum: MINIMUM }) } });
    const above = await c.client.refusal(api.requestPayout, { coins: 501 }, { idempotencyKey: randomUUID() });
    expect(above).toMatchObject({ status: 409, body: { message: fill(MSG.payoutAboveAvailable, { available: 500 }) } });

    const noBank = await creator(500, 0, { bank: false });
    expect((await earnings(noBank)).readiness.ready).toBe(false);
    const unready = await noBank.client.refusal(api.requestPayout, { coins: 200 }, { idempotencyKey: randomUUID() });
    expect(unready).toMatchObject({ status: 409, body: { message: fill(MSG.payoutNotReady, { missing: 'payout method' }) } });
    const noTaxForm = await creator(500, 0, { taxForm: false });
    expect((await earnings(noTaxForm)).readiness.requirements).toEqual([{ key: 'payout_method', done: true }, { key: 'tax_form', done: false }]);
    const untaxed = await noTaxForm.client.refusal(api.requestPayout, { coins: 200 }, { idempotencyKey: randomUUID() });
    expect(untaxed).toMatchObject({ status: 409, body: { message: fill(MSG.payoutNotReady, { missing: 'tax form' }) } });

    await t.app.services.ledger.openHold(c.user.id, `dispute:test:${randomUUID()}`);
    const held = await c.client.refusal(api.requestPayout, { coins: 200 }, { idempotencyKey: randomUUID() });
    expect(held).toMatchObject({ status: 403, body: { message: MSG.payoutOnHold } });
    expect((await earnings(c)).on_hold).toBe(true);
    await expectConserved();
  });

  it('refuses bad input with a clear message', async () => {
    const c = await creator(0);
    const badAccount = await c.client.refusal(api.savePayoutMethod, { ...BANK, account_number: '12' });
    expect(badAccount).toMatchObject({ status: 400, body: { message: MSG.payoutAccountNumberInvalid } });
    const badSchedule = await c.client.refusal(api.setPayoutSchedule, { schedule: 'daily' as never });
    expect(badSchedule.status).toBe(400);
    expect((await c.client.refusal(api.requestPayout, { coins: -5 }, { idempotencyKey: randomUUID() })).status).toBe(400);
    const badImport = await admin.refusal(api.importPayouts, { csv: 'PO-1,maybe' });
    expect(badImport).toMatchObject({ status: 400, body: { message: fill(MSG.payoutImportLine, { line: 1 }) } });
  });

  it('keeps one request open at a time; a retry with the same key answers the same request', async () => {
    const c = await creator(1000);
    const key = randomUUID();
    const [first, again] = await Promise.all([ask(c, 300, key), ask(c, 300, key)]);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const second = await c.client.refusal(api.requestPayout, { coins: 200 }, { idempotencyKey: randomUUID() });
    expect(second).toMatchObject({ status: 409, body: { message: MSG.payoutOpen } });
    const mine = await earnings(c);
    expect(mine.earnings).toMatchObject({ available: 700, in_payout: 300 });
    expect(mine.open?.coins).toBe(300);
    await expectConserved();
  });

  it('lets only administrators see and decide the queue', async () => {
    const c = await creator(300);
    const request = await requested(c, 200);
    expect((await c.client.refusal(api.adminPayouts, {})).status).toBe(403);
    expect((await c.client.refusal(api.approvePayout, { id: request.id })).status).toBe(403);
    expect((await t.client().refusal(api.exportPayouts, {})).status).toBe(401);
    await admin.call(api.rejectPayout, { id: request.id, reason: 'Test over' });
  });
});

describe('request, approve, export, paid', () => {
  it('moves the coins wallet → payouts → paid-out, audited, notified, conserved', async () => {
    const c = await creator(600);
    const [payoutsBefore, paidOutBefore] = [await system('payouts'), await system('paid-out')];
    const request = await requested(c, 400);
    expect(request).toMatchObject({ coins: 400, usd_cents: 2000, state: 'requested', method: 'bank_transfer' });
    expect(await system('payouts')).toBe(payoutsBefore + 400);
    expect((await t.app.services.ledger.balances(c.user.id)).CON).toBe(200);

    const queued = (await admin.call(api.adminPayouts, { state: 'open' })).requests.find((r) => r.id === request.id)!;
    expect(queued).toMatchObject({ user: { user_id: c.user.id }, on_hold: false, coins_owed: 0, earnings: { earned_total: 600, available: 200, paid_out: 0 }, payee: { account_last4: '3000' } });

    expect((await admin.call(api.approvePayout, { id: request.id })).request.state).toBe('approved');
    expect((await admin.refusal(api.approvePayout, { id: request.id })).status).toBe(409);
    const batch = await admin.call(api.exportPayouts, {});
    const line = batch.csv.split('\r\n').find((l) => l.startsWith(`PO-${request.id},`))!;
    expect(line).toBe(`PO-${request.id},Ada Creator,DE89370400440532013000,Test Bank,DE,20.00,USD,${c.user.username}`);
    expect((await admin.refusal(api.rejectPayout, { id: request.id, reason: 'Too late' })).status).toBe(409);

    const answer = `reference,status\r\nPO-${request.id},paid\r\n`;
    expect(await admin.call(api.importPayouts, { csv: answer })).toMatchObject({ paid: 1, failed: 0 });
    expect(await admin.call(api.importPayouts, { csv: answer })).toMatchObject({ paid: 0, unchanged: 1 });
    expect(await system('payouts')).toBe(payoutsBefore);
    expect(await system('paid-out')).toBe(paidOutBefore + 400);
    const mine = await earnings(c);
    expect(mine.earnings).toMatchObject({ paid_out: 400, in_payout: 0, available: 200 });
    expect(mine.history[0]).toMatchObject({ id: request.id, state: 'paid' });

    const audited = await db().select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.targetType, 'payout'), eq(auditLog.targetId, String(request.id))));
    expect(audited.map((a) => a.action).sort()).toEqual(['payout.approve', 'payout.paid']);
    await t.app.services.notifications.runJobs();
    const told = (await c.client.call(listNotifications, {})).notifications.filter((n) => n.kind === 'payout_update').map((n) => n.text);
    expect(told).toEqual(expect.arrayContaining([fill(MSG.notifyPayout, { amount: 400, state: 'requested' }), fill(MSG.notifyPayout, { amount: 400, state: 'approved' }), fill(MSG.notifyPayout, { amount: 400, state: 'paid' })]));
    const books = (await checkConservation(db())).currencies.find((x) => x.currency === 'CON')!;
    expect(books.moneyOut).toBeGreaterThanOrEqual(400);
    await expectConserved();
  });

  it('returns the coins when the bank fails the transfer or the operator rejects it', async () => {
    const c = await creator(500);
    const failing = await requested(c, 300);
    await admin.call(api.approvePayout, { id: failing.id });
    await admin.call(api.exportPayouts, {});
    expect(await admin.call(api.importPayouts, { csv: `PO-${failing.id},failed,Account closed` })).toMatchObject({ failed: 1 });
    expect((await t.app.services.ledger.balances(c.user.id)).CON).toBe(500);
    expect((await earnings(c)).history[0]).toMatchObject({ state: 'failed', reason: 'Account closed' });

    const rejected = await requested(c, 200);
    expect((await admin.refusal(api.rejectPayout, { id: rejected.id, reason: ' ' })).status).toBe(400);
    expect((await admin.call(api.rejectPayout, { id: rejected.id, reason: 'Name does not match' })).request).toMatchObject({ state: 'rejected', reason: 'Name does not match' });
    expect((await t.app.services.ledger.balances(c.user.id)).CON).toBe(500);
    expect((await earnings(c)).earnings.available).toBe(500);
    await t.app.services.notifications.runJobs();
    const texts = (await c.client.call(listNotifications, {})).notifications.map((n) => n.text);
    expect(texts).toContain(fill(MSG.notifyPayoutReturned, { amount: 200, state: 'rejected', reason: 'Name does not match' }));
    expect(texts).toContain(fill(MSG.notifyPayoutReturned, { amount: 300, state: 'failed', reason: 'Account closed' }));
    await expectConserved();
  });
});

describe('races', () => {
  it('a payout racing new earnings and a dispute: never more than what was withdrawable, a held creator is not approved', async () => {
    const c = await creator(400);
    const fan = await t.given.user();
    await t.given.coins(fan, 1000);
    const dispute = `dispute:test:${randomUUID()}`;
    const [asked] = await Promise.all([
      ask(c, 400),
      ...Array.from({ length: 5 }, () => t.given.pastTip({ tipperId: fan.id, creatorId: c.user.id, streamId: null, amount: 100, at: new Date() })),
      t.app.services.ledger.openHold(c.user.id, dispute),
    ]);
    const mine = await earnings(c);
    expect(mine.earnings.pending).toBe(500);
    if (asked.status === 200) {
      const id = (asked.body as { request: api.PayoutRequest }).request.id;
      expect(mine.earnings).toMatchObject({ in_payout: 400, available: 0 });
      const refused = await admin.refusal(api.approvePayout, { id });
      expect(refused).toMatchObject({ status: 409, body: { message: MSG.payoutCreatorHeld } });
      const queued = (await admin.call(api.adminPayouts, {})).requests.find((r) => r.id === id)!;
      expect(queued).toMatchObject({ on_hold: true, open_disputes: 1 });
      await admin.call(api.rejectPayout, { id, reason: 'Dispute open' });
    } else {
      expect(asked.status).toBe(403);
    }
    expect((await t.app.services.ledger.balances(c.user.id)).CON).toBe(900);
    await t.app.services.ledger.releaseHold(dispute);
    await expectConserved();
  });

  it('two runs of the automatic payout job at once make one request per creator and period', async () => {
    const creators = await Promise.all([creator(300), creator(250), creator(50)]);
    for (const c of creators) await c.client.call(api.setPayoutSchedule, { schedule: 'weekly' });
    const runs = await Promise.all([t.app.services.automaticPayouts.runDue(), t.app.services.automaticPayouts.runDue()]);
    expect(runs[0] + runs[1]).toBe(2);
    const [a, b, small] = await Promise.all(creators.map(earnings));
    expect(a!.open).toMatchObject({ coins: 300, automatic: true });
    expect(b!.open).toMatchObject({ coins: 250, automatic: true });
    expect(small!.open).toBeNull();
    expect(a!.schedule).toBe('weekly');
    // The next run is a week away: running again now makes nothing.
    expect(await t.app.services.automaticPayouts.runDue()).toBe(0);
    for (const c of creators.slice(0, 2)) await admin.call(api.rejectPayout, { id: (await earnings(c)).open!.id, reason: 'Test over' });
    await creators[0]!.client.call(api.setPayoutSchedule, { schedule: 'off' });
    expect((await earnings(creators[0]!)).schedule).toBe('off');
    await expectConserved();
  });
});
