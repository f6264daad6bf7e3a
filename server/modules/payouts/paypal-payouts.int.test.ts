/**
 * Payouts through PayPal Payouts (decision 0064) over HTTP, against the PayPal stand-in: the creator's
 * email as the receiver, a request approved and sent as a batch of one item, settled by the item's
 * webhook (checked by PayPal's verification call), failed and returned items giving the coins back,
 * replayed webhooks, a lost answer settled once by the reconcile job, and an administrator marking a
 * stuck payout failed — a later success from PayPal flagged, never paid twice. Every money path ends
 * with the books checked for conservation.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/payouts';
import { MSG, fill } from '../../../common/messages';
import { auditLog } from '../../platform/db/platform-tables';
import { eventually } from '../../testing/eventually';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import { earningCreator, payoutBooks } from '../../testing/payouts';
import { LocalPayPal } from '../../testing/paypal-standin';
import { PAYPAL_PAYOUTS_WEBHOOK_PATH } from './paypal-routes';
import { PROCESSOR_LEASE_MS } from './processor-payouts';
import { payoutRequests } from './tables';

let t: TestApp;
let paypal: LocalPayPal;
let admin: HttpSession;
let webhookUrl: string;

beforeAll(async () => {
  paypal = await new LocalPayPal().start();
  t = await startTestApp({ ...paypal.env(), PAYOUT_HOLD_SECONDS: '3600', PAYOUT_MINIMUM_COINS: '100' });
  webhookUrl = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}${PAYPAL_PAYOUTS_WEBHOOK_PATH}`;
  paypal.payoutsWebhookUrl = webhookUrl;
  admin = (await t.given.moderators()).admin.client;
});
afterAll(async () => {
  await closeCheckingLedger(t);
  await paypal?.close();
});

const db = () => t.resources.database.db;
const reconcile = (at: Date) => t.app.services.processorPayouts!.reconcile(at);
const afterLease = () => new Date(Date.now() + PROCESSOR_LEASE_MS + 1000);

const { expectConserved, paidOut, steps } = payoutBooks(db);
const earnings = (c: SignedInUser) => c.client.call(api.myEarnings, {});
const audits = async (id: number) => db().select({ action: auditLog.action, actor: auditLog.actorId }).from(auditLog)
  .where(and(eq(auditLog.targetType, 'payout'), eq(auditLog.targetId, String(id)))).orderBy(auditLog.id);
const stateOf = async (c: SignedInUser, id: number) => (await earnings(c)).history.find((r) => r.id === id);
const batchesOf = (id: number) => [...paypal.payouts.batches.values()].filter((b) => b.senderBatchId === `po_${id}`);

/** A creator with `coins` available whose payouts go to `email` on PayPal. */
async function paypalCreator(coins = 1000, email = `creator-${randomUUID().slice(0, 8)}@example.com`): Promise<SignedInUser & { email: string }> {
  const c = await earningCreator(t, { matured: coins, bank: false, maturedAt: new Date(Date.now() - 2 * 3600_000) });
  await c.client.call(api.choosePayPal, { email });
  return Object.assign(c, { email });
}

async function requested(c: SignedInUser, coins: number) {
  return (await c.client.call(api.requestPayout, { coins }, { idempotencyKey: randomUUID() })).request;
}

/** Posts a payouts event as PayPal would, signed for `webhookId` (default: the payouts webhook). */
async function post(event: object, webhookId = paypal.payoutsWebhookId, tamper = false) {
  const body = JSON.stringify(event);
  const headers = paypal.signedHeaders(body, webhookId);
  const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: tamper ? body.replace('SUCCESS', 'FAILED') : body });
  await res.arrayBuffer();
  return res.status;
}

describe('onboarding', () => {
  it('takes the creator\'s PayPal email as the receiver, and refuses anything else', async () => {
    const c = await earningCreator(t, { matured: 0, bank: false });
    const before = await earnings(c);
    expect(before.methods).toEqual(['bank_transfer', 'paypal']);
    expect(before.readiness.requirements).toContainEqual({ key: 'payout_method', done: false });
    const bad = await c.client.refusal(api.choosePayPal, { email: 'not-an-email' });
    expect(bad).toMatchObject({ status: 400, body: { message: MSG.emailInvalid } });
    expect((await c.client.refusal(api.choosePayPal, {} as never)).status).toBe(400);
    expect((await t.client().refusal(api.choosePayPal, { email: 'a@example.com' })).status).toBe(401);
    const chosen = await c.client.call(api.choosePayPal, { email: ' Ada@Example.com ' });
    expect(chosen.method).toMatchObject({ method: 'paypal', account_holder: 'Ada@Example.com', bank_name: 'PayPal' });
    expect((await earnings(c)).readiness.ready).toBe(true);
  });
});

describe('paying', () => {
  it('sends an approved request as a batch of one item and pays it on PAYMENT.PAYOUTS-ITEM.SUCCEEDED, once', async () => {
    const c = await paypalCreator(1000);
    const out = await paidOut();
    const request = await requested(c, 600);
    expect(request).toMatchObject({ method: 'paypal', usd_cents: 3000 });
    expect((await admin.call(api.approvePayout, { id: request.id })).request.state).toBe('sent');

    const [batch] = batchesOf(request.id);
    expect(batchesOf(request.id)).toHaveLength(1);
    expect(batch!.items[0]!.payout_item).toMatchObject({ recipient_type: 'EMAIL', receiver: c.email, amount: { value: '30.00', currency: 'USD' }, sender_item_id: `po_${request.id}` });
    const call = paypal.calls.find((x) => x.path === '/v1/payments/payouts' && x.body.includes(`"po_${request.id}"`))!;
    expect(call.headers['paypal-request-id']).toBe(`po_${request.id}`);
    const [row] = await db().select().from(payoutRequests).where(eq(payoutRequests.id, request.id));
    expect(row!.processorRef).toBe(batch!.id);

    await paypal.payouts.process();
    expect(await stateOf(c, request.id)).toMatchObject({ state: 'paid' });
    expect(await paidOut()).toBe(out + 600);
    expect((await earnings(c)).earnings).toMatchObject({ available: 400, paid_out: 600, in_payout: 0 });

    // The event heard again, and the approval repeated: nothing moves.
    const delivered = paypal.deliveriesOf('PAYMENT.PAYOUTS-ITEM.SUCCEEDED').find((d) => (d.event.resource as { payout_batch_id: string }).payout_batch_id === batch!.id)!;
    expect(delivered.status).toBe(200);
    expect((await paypal.resend(delivered.event.id as string)).status).toBe(200);
    expect((await admin.refusal(api.approvePayout, { id: request.id })).status).toBe(409);
    expect(await steps(request.id)).toEqual(['hold', 'paid']);
    expect(await paidOut()).toBe(out + 600);
    expect((await audits(request.id)).map((a) => a.action)).toEqual(['payout.approve', 'payout.send', 'payout.paid']);
    await expectConserved();
  });

  it('gives the coins back when PayPal fails, denies or blocks the item', async () => {
    for (const outcome of ['FAILED', 'DENIED', 'BLOCKED'] as const) {
      const c = await paypalCreator(1000);
      paypal.payouts.outcomes.set(c.email, outcome);
      const request = await requested(c, 500);
      await admin.call(api.approvePayout, { id: request.id });
      await paypal.payouts.process();
      const after = await stateOf(c, request.id);
      expect(after?.state).toBe('failed');
      expect(after?.reason).toBeTruthy();
      expect((await earnings(c)).earnings).toMatchObject({ available: 1000, in_payout: 0, paid_out: 0 });
      expect(await steps(request.id)).toEqual(['hold', 'returned']);
    }
    await expectConserved();
  });

  it('keeps an unclaimed payout sent, and gives the coins back when PayPal returns it after 30 days', async () => {
    const c = await paypalCreator(1000);
    paypal.payouts.outcomes.set(c.email, 'UNCLAIMED');
    const request = await requested(c, 300);
    await admin.call(api.approvePayout, { id: request.id });
    await paypal.payouts.process();
    expect(await stateOf(c, request.id)).toMatchObject({ state: 'sent' });
    expect(paypal.deliveriesOf('PAYMENT.PAYOUTS-ITEM.UNCLAIMED').at(-1)!.status).toBe(200);
    await paypal.payouts.settle(batchesOf(request.id)[0]!.items[0]!.payout_item_id, 'RETURNED');
    expect(await stateOf(c, request.id)).toMatchObject({ state: 'failed', reason: 'The payout was not claimed within 30 days and was returned' });
    expect(await steps(request.id)).toEqual(['hold', 'returned']);
    await expectConserved();
  });

  it('fails the request when the platform\'s PayPal balance is short', async () => {
    const c = await paypalCreator(1000);
    const request = await requested(c, 500);
    const balance = paypal.payouts.balanceCents;
    paypal.payouts.balanceCents = 100;
    try {
      expect((await admin.call(api.approvePayout, { id: request.id })).request).toMatchObject({ state: 'failed', reason: 'The platform\'s PayPal balance could not cover the payout' });
    } finally {
      paypal.payouts.balanceCents = balance;
    }
    expect(await steps(request.id)).toEqual(['hold', 'returned']);
    await expectConserved();
  });

  it('refuses unsigned, wrongly signed and altered events', async () => {
    const c = await paypalCreator(1000);
    const request = await requested(c, 200);
    await admin.call(api.approvePayout, { id: request.id });
    const batch = batchesOf(request.id)[0]!;
    const event = {
      id: `WH-${randomUUID()}`, event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource_type: 'payouts_item', create_time: new Date().toISOString(),
      resource: { payout_batch_id: batch.id, payout_item_id: batch.items[0]!.payout_item_id, transaction_status: 'SUCCESS' },
    };
    const unsigned = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
    expect(unsigned.status).toBe(401);
    // Signed for the deposits' webhook, not this one; a body changed after signing.
    expect(await post(event, paypal.webhookId)).toBe(400);
    expect(await post(event, paypal.payoutsWebhookId, true)).toBe(400);
    const malformed = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...paypal.signedHeaders('{', paypal.payoutsWebhookId) }, body: '{' });
    expect(malformed.status).toBe(400);
    // A correctly signed event does not settle by what it says: the batch is still pending at PayPal.
    expect(await post(event)).toBe(200);
    expect(await stateOf(c, request.id)).toMatchObject({ state: 'sent' });
    await paypal.payouts.process();
    expect(await stateOf(c, request.id)).toMatchObject({ state: 'paid' });
    await expectConserved();
  });
});

describe('lost answers', () => {
  it('pays once when the answer and the webhook were lost: the job pays again under the same key after the lease', async () => {
    const c = await paypalCreator(1000);
    const request = await requested(c, 300);
    paypal.payouts.loseCreateAnswers = true;
    paypal.payoutsWebhookUrl = undefined;
    try {
      expect((await admin.call(api.approvePayout, { id: request.id })).request.state).toBe('sent');
      await paypal.payouts.process();
    } finally {
      paypal.payouts.loseCreateAnswers = false;
      paypal.payoutsWebhookUrl = webhookUrl;
    }
    expect((await reconcile(new Date())).asked).toBe(0);
    const later = afterLease();
    const runs = await Promise.all([reconcile(later), reconcile(later)]);
    expect(runs.reduce((sum, r) => sum + r.asked, 0)).toBe(1);
    expect(await stateOf(c, request.id)).toMatchObject({ state: 'paid' });
    expect(batchesOf(request.id)).toHaveLength(1);
    expect(await reconcile(new Date(later.getTime() + PROCESSOR_LEASE_MS + 1000))).toMatchObject({ settled: 0 });
    expect(await steps(request.id)).toEqual(['hold', 'paid']);
    await expectConserved();
  });

  it('finds the first batch through PayPal\'s refusal of a sender_batch_id it has seen', async () => {
    const c = await paypalCreator(1000);
    const request = await requested(c, 300);
    paypal.payouts.loseCreateAnswers = true;
    paypal.payoutsWebhookUrl = undefined;
    try {
      await admin.call(api.approvePayout, { id: request.id });
      await paypal.payouts.process();
    } finally {
      paypal.payouts.loseCreateAnswers = false;
      paypal.payoutsWebhookUrl = webhookUrl;
    }
    paypal.forgetRequestIds();
    await reconcile(afterLease());
    expect(await stateOf(c, request.id)).toMatchObject({ state: 'paid' });
    expect(batchesOf(request.id)).toHaveLength(1);
    expect(await steps(request.id)).toEqual(['hold', 'paid']);
    await expectConserved();
  });
});

describe('marking a stuck payout failed', () => {
  /** A request PayPal took but whose outcome never came back. */
  async function stuck(coins = 400) {
    const c = await paypalCreator(1000);
    const request = await requested(c, coins);
    expect((await admin.call(api.approvePayout, { id: request.id })).request.state).toBe('sent');
    return { c, request };
  }
  const overdue = (id: number) => db().update(payoutRequests).set({ updatedAt: new Date(Date.now() - PROCESSOR_LEASE_MS - 1000) }).where(eq(payoutRequests.id, id));

  it('is refused before the lease ran out, to non-administrators, without a reason, and for a payout not sent', async () => {
    const { c, request } = await stuck();
    const queued = (await admin.call(api.adminPayouts, { state: 'sent' })).requests.find((r) => r.id === request.id)!;
    expect(Date.parse(queued.mark_failed_after!)).toBeGreaterThan(Date.now());
    expect(await admin.refusal(api.markPayoutFailed, { id: request.id, reason: 'No answer' }))
      .toMatchObject({ status: 409, body: { message: fill(MSG.payoutNotOverdue, { minutes: PROCESSOR_LEASE_MS / 60_000 }) } });
    await overdue(request.id);
    expect((await c.client.refusal(api.markPayoutFailed, { id: request.id, reason: 'No answer' })).status).toBe(403);
    expect((await admin.refusal(api.markPayoutFailed, { id: request.id, reason: ' ' })).status).toBe(400);
    expect((await admin.refusal(api.markPayoutFailed, { id: 999_999_999, reason: 'x' })).status).toBe(404);
    await paypal.payouts.process();
    expect(await admin.refusal(api.markPayoutFailed, { id: request.id, reason: 'No answer' }))
      .toMatchObject({ status: 409, body: { message: fill(MSG.payoutNotSent, { state: 'paid' }) } });
    await expectConserved();
  });

  it('gives the coins back, audited; PayPal\'s success afterwards is flagged for attention, never paid twice', async () => {
    paypal.payoutsWebhookUrl = undefined;
    let c: SignedInUser, request: api.PayoutRequest;
    try {
      ({ c, request } = await stuck(400));
    } finally {
      paypal.payoutsWebhookUrl = webhookUrl;
    }
    await overdue(request.id);
    const out = await paidOut();
    const marked = await admin.call(api.markPayoutFailed, { id: request.id, reason: 'PayPal never answered' });
    expect(marked.request).toMatchObject({ state: 'failed', reason: 'PayPal never answered' });
    expect((await earnings(c)).earnings).toMatchObject({ available: 1000, in_payout: 0 });
    const trail = await audits(request.id);
    expect(trail.map((a) => a.action)).toEqual(['payout.approve', 'payout.send', 'payout.mark-failed']);
    expect(trail[2]!.actor).toBe(trail[0]!.actor);
    // The job leaves a failed payout alone.
    expect(await reconcile(afterLease())).toMatchObject({ asked: 0 });

    // PayPal pays it after all: heard by webhook, twice, then asked again.
    await paypal.payouts.process();
    const success = paypal.deliveriesOf('PAYMENT.PAYOUTS-ITEM.SUCCEEDED').at(-1)!;
    expect(success.status).toBe(200);
    expect((await paypal.resend(success.event.id as string)).status).toBe(200);
    expect(await stateOf(c, request.id)).toMatchObject({ state: 'failed' });
    expect(await steps(request.id)).toEqual(['hold', 'returned']);
    expect(await paidOut()).toBe(out);
    const flagged = await eventually(async () => (await admin.call(api.adminPayouts, { state: 'attention' })).requests.find((r) => r.id === request.id)!, (r) => r.attention !== null);
    expect(flagged.attention).toMatch(/^PayPal paid this payout \(.+\) after it failed here/);
    expect((await audits(request.id)).map((a) => a.action)).toEqual(['payout.approve', 'payout.send', 'payout.mark-failed', 'payout.late-success']);
    await expectConserved();
  });
});
