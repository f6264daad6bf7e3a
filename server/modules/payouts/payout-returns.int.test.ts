/**
 * Coins coming back from a payout (decision 0061) over HTTP against a real database: the creator cancels
 * their own request while it is only requested; the bank sends back a transfer after it was imported as
 * paid (`PO-<id>,returned,<reason>`), so the coins leave `paid-out` for the wallet and count as money out
 * undone; and the monthly statement shows what left and what came back. Every case ends with the books
 * checked for conservation.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/payouts';
import { listNotifications } from '../../../common/api/notifications';
import { monthlyStatement, yearSummary } from '../../../common/api/statements';
import { fill, MSG } from '../../../common/messages';
import { auditLog } from '../../platform/db/platform-tables';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { closeCheckingLedger, expectLedgerInvariants, systemBalance } from '../../testing/ledger-invariants';
import { earningCreator } from '../../testing/payouts';
import { checkConservation, conservationViolations } from '../ledger';
import { ledgerTransfers } from '../ledger/tables';

const MINIMUM = 100;
let t: TestApp;
let admin: HttpSession;

beforeAll(async () => {
  t = await startTestApp({ PAYOUT_HOLD_SECONDS: '3600', PAYOUT_MINIMUM_COINS: String(MINIMUM) });
  admin = (await t.given.moderators()).admin.client;
});
afterAll(() => closeCheckingLedger(t));

const db = () => t.resources.database.db;
const creator = (matured: number) => earningCreator(t, { matured, maturedAt: new Date(Date.now() - 2 * 3600_000) });
const earnings = (c: SignedInUser) => c.client.call(api.myEarnings, {});
const wallet = async (c: SignedInUser) => (await t.app.services.ledger.balances(c.user.id)).CON;
const system = (name: string) => systemBalance(db(), name);
const moneyOut = async () => (await checkConservation(db())).currencies.find((c) => c.currency === 'CON')?.moneyOut ?? 0;
/** The ledger transfers a payout request made, by step. */
const transfersOf = async (id: number) =>
  (await db().select({ key: ledgerTransfers.idempotencyKey }).from(ledgerTransfers).where(like(ledgerTransfers.idempotencyKey, `payout:${id}:%`))).map((r) => r.key.split(':')[2]).sort();
const audited = async (id: number) =>
  (await db().select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.targetType, 'payout'), eq(auditLog.targetId, String(id))))).map((a) => a.action).sort();

/** The ledger's invariants, conservation among them. */
const expectConserved = () => expectLedgerInvariants(db());

async function requested(c: SignedInUser, coins: number) {
  return (await c.client.call(api.requestPayout, { coins }, { idempotencyKey: randomUUID() })).request;
}

/** A request taken through approval, the bank file and the bank's answer `paid`. */
async function paid(c: SignedInUser, coins: number) {
  const request = await requested(c, coins);
  await admin.call(api.approvePayout, { id: request.id });
  await admin.call(api.exportPayouts, {});
  expect(await admin.call(api.importPayouts, { csv: `PO-${request.id},paid` })).toMatchObject({ paid: 1 });
  return request;
}

async function told(c: SignedInUser) {
  await t.app.services.notifications.runJobs();
  return (await c.client.call(listNotifications, {})).notifications.filter((n) => n.kind === 'payout_update').map((n) => n.text);
}

describe('a creator cancels their own request', () => {
  it('gives the coins back through the ledger, once, audited and notified; the next request can be made', async () => {
    const c = await creator(600);
    const holdingBefore = await system('payouts');
    const request = await requested(c, 400);
    expect(await wallet(c)).toBe(200);

    // Cancelled twice at once, then again: one answer, one transfer back.
    const [first, second] = await Promise.all([c.client.call(api.cancelPayout, { id: request.id }), c.client.call(api.cancelPayout, { id: request.id })]);
    expect(first.request).toMatchObject({ id: request.id, state: 'cancelled', coins: 400 });
    expect(second.request).toEqual(first.request);
    expect((await c.client.call(api.cancelPayout, { id: request.id })).request).toEqual(first.request);
    expect(await transfersOf(request.id)).toEqual(['hold', 'returned']);
    expect(await wallet(c)).toBe(600);
    expect(await system('payouts')).toBe(holdingBefore);
    const mine = await earnings(c);
    expect(mine.earnings).toMatchObject({ available: 600, in_payout: 0, paid_out: 0 });
    expect(mine.open).toBeNull();
    expect(mine.history[0]).toMatchObject({ id: request.id, state: 'cancelled' });
    expect(await audited(request.id)).toEqual(['payout.cancel']);
    expect(await told(c)).toContain(fill(MSG.notifyPayoutCancelled, { amount: 400 }));

    // The one open request is free again.
    const next = await requested(c, 500);
    expect(next.state).toBe('requested');
    await c.client.call(api.cancelPayout, { id: next.id });
    await expectConserved();
  });

  it("refuses another user's request, an approved one, a visitor and a malformed id", async () => {
    const c = await creator(600);
    const request = await requested(c, 300);
    const stranger = await creator(600);
    const notTheirs = await stranger.client.refusal(api.cancelPayout, { id: request.id });
    expect(notTheirs).toMatchObject({ status: 404, body: { message: MSG.payoutUnknown } });
    expect(await t.client().refusal(api.cancelPayout, { id: request.id })).toMatchObject({ status: 401 });
    expect((await c.client.refusal(api.cancelPayout, { id: 'abc' as never })).status).toBe(400);
    expect((await c.client.refusal(api.cancelPayout, { id: 999_999_999 })).status).toBe(404);
    expect((await earnings(c)).open).toMatchObject({ id: request.id, state: 'requested' });

    await admin.call(api.approvePayout, { id: request.id });
    const approved = await c.client.refusal(api.cancelPayout, { id: request.id });
    expect(approved).toMatchObject({ status: 409, body: { message: fill(MSG.payoutNotCancellable, { state: 'approved' }) } });
    // The operator's approval and the creator's cancel race: exactly one of them wins.
    const other = await requested(stranger, 200);
    const [approving, cancelling] = await Promise.all([
      admin.send(api.approvePayout, { id: other.id }),
      stranger.client.send(api.cancelPayout, { id: other.id }),
    ]);
    expect([approving.status, cancelling.status].sort()).toEqual([200, 409]);
    expect(await wallet(c)).toBe(300);
    expect(await wallet(stranger)).toBe(cancelling.status === 200 ? 600 : 400);
    for (const id of [request.id, ...(approving.status === 200 ? [other.id] : [])]) await admin.call(api.rejectPayout, { id, reason: 'Test over' });
    await expectConserved();
  });
});

describe('a paid bank transfer the bank sends back', () => {
  it('moves the coins from paid-out back to the wallet, once, audited and notified, and out of money out', async () => {
    const c = await creator(600);
    const request = await paid(c, 400);
    const [paidOut, out] = [await system('paid-out'), await moneyOut()];
    expect((await earnings(c)).earnings).toMatchObject({ paid_out: 400, available: 200 });

    const answer = `reference,status,reason\r\nPO-${request.id},returned,Account closed\r\n`;
    expect(await admin.call(api.importPayouts, { csv: answer })).toMatchObject({ paid: 0, failed: 0, returned: 1, unchanged: 0 });
    expect(await admin.call(api.importPayouts, { csv: answer })).toMatchObject({ paid: 0, failed: 0, returned: 0, unchanged: 1 });
    // A later "paid" or "failed" for it changes nothing either.
    expect(await admin.call(api.importPayouts, { csv: `PO-${request.id},paid\nPO-${request.id},failed,late` })).toMatchObject({ unchanged: 2 });
    expect(await transfersOf(request.id)).toEqual(['bank-return', 'hold', 'paid']);
    expect(await system('paid-out')).toBe(paidOut - 400);
    expect(await moneyOut()).toBe(out - 400);
    expect(await wallet(c)).toBe(600);
    const mine = await earnings(c);
    expect(mine.earnings).toMatchObject({ paid_out: 0, in_payout: 0, available: 600 });
    expect(mine.history[0]).toMatchObject({ id: request.id, state: 'returned', reason: 'Account closed' });
    expect(await audited(request.id)).toEqual(['payout.approve', 'payout.paid', 'payout.returned']);
    expect(await told(c)).toContain(fill(MSG.notifyPayoutReturned, { amount: 400, state: 'returned', reason: 'Account closed' }));
    // The coins are withdrawable again.
    await c.client.call(api.cancelPayout, { id: (await requested(c, 600)).id });
    await expectConserved();
  });

  it('fails an exported transfer answered "returned" before it was paid; leaves an open request alone', async () => {
    const c = await creator(600);
    const exported = await requested(c, 300);
    await admin.call(api.approvePayout, { id: exported.id });
    await admin.call(api.exportPayouts, {});
    const other = await creator(600);
    const open = await requested(other, 200);
    expect(await admin.call(api.importPayouts, { csv: `PO-${exported.id},returned\nPO-${open.id},returned,No` })).toMatchObject({ paid: 0, failed: 1, returned: 0, unchanged: 1 });
    expect((await earnings(c)).history[0]).toMatchObject({ state: 'failed', reason: 'The bank returned the transfer' });
    expect(await transfersOf(exported.id)).toEqual(['hold', 'returned']);
    expect(await wallet(c)).toBe(600);
    expect((await earnings(other)).open).toMatchObject({ id: open.id, state: 'requested' });
    const bad = await admin.refusal(api.importPayouts, { csv: `PO-${open.id},bounced` });
    expect(bad).toMatchObject({ status: 400, body: { message: fill(MSG.payoutImportLine, { line: 1 }) } });
    await other.client.call(api.cancelPayout, { id: open.id });
    await expectConserved();
  });

  it('counts a debit of paid-out as money out undone only for a payout it paid, no more than it paid', async () => {
    await paid(await creator(600), 200);
    const c = await creator(600);
    const request = await paid(c, 300);
    const paidOut = { system: 'paid-out' as const, currency: 'CON' as const };
    const toWallet = { userId: c.user.id, currency: 'CON' as const };
    // Inside a transaction rolled back: the books never keep them.
    const violationsOf = async (kind: 'payout' | 'adjustment', coins: number, payoutRequest: number) => {
      let found: string[] = [];
      await db().transaction(async (tx) => {
        await t.app.services.ledger.transfer({
          kind, idempotencyKey: `return-test-${randomUUID()}`, toUserId: c.user.id, amount: coins, currency: 'CON', details: { payout_request: payoutRequest },
          legs: [{ account: paidOut, amount: -coins }, { account: toWallet, amount: coins }],
        }, tx);
        found = conservationViolations(await checkConservation(tx));
        tx.rollback();
      }).catch((error: unknown) => {
        if (!(error instanceof Error && /rollback/i.test(error.message))) throw error;
      });
      return found;
    };
    expect(await violationsOf('payout', 300, request.id)).toEqual([]);
    expect((await violationsOf('payout', 301, request.id)).join('\n')).toMatch(/not the return of a payout paid out earlier/);
    expect((await violationsOf('adjustment', 100, request.id)).join('\n')).toMatch(/not the return of a payout paid out earlier/);
    expect((await violationsOf('payout', 100, request.id + 1_000_000)).join('\n')).toMatch(/not the return of a payout paid out earlier/);
    await expectConserved();
  });
});

describe('the monthly statement', () => {
  it('shows what left and what came back as payouts, reconciled with the wallet', async () => {
    const c = await creator(1000);
    const kept = await paid(c, 250);
    const cancelled = await requested(c, 200);
    await c.client.call(api.cancelPayout, { id: cancelled.id });
    const bounced = await paid(c, 300);
    await admin.call(api.importPayouts, { csv: `PO-${bounced.id},returned,Name mismatch` });
    expect([kept, cancelled, bounced].map((r) => r.id)).toHaveLength(3);

    const month = new Date().toISOString().slice(0, 7);
    const { statement } = await c.client.call(monthlyStatement, { month });
    // Three requests took 750 out; the cancelled one and the returned one gave 500 back.
    expect(statement.payouts).toEqual([{ kind: 'payout', transfers: 5, coins: 250 }]);
    expect(statement.totals.payouts).toBe(250);
    expect(statement.other).toEqual([]);
    expect(statement.opening_balance + statement.totals.net - statement.totals.payouts + statement.totals.other_net).toBe(statement.closing_balance);
    expect(statement.closing_balance).toBe(await wallet(c));
    expect(await wallet(c)).toBe(750);
    const { summary: year } = await c.client.call(yearSummary, { year: Number(month.slice(0, 4)) });
    expect(year.totals.payouts).toBe(250);
    expect(year.closing_balance).toBe(750);
    await expectConserved();
  });
});
