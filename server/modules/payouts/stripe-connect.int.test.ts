/**
 * Payouts through Stripe Connect (decision 0063) over HTTP, against the Stripe stand-in: onboarding an
 * Express account through the stand-in's page and its `account.updated` event, a request approved and
 * paid by a transfer, a refused transfer and a reversed one giving the coins back, replayed and
 * reordered events moving nothing twice, and the reconcile job after a lost answer and a lost webhook.
 * Every case ends with the books checked for conservation.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/payouts';
import { listNotifications } from '../../../common/api/notifications';
import { MSG } from '../../../common/messages';
import { auditLog } from '../../platform/db/platform-tables';
import type { SignedInUser, TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { earningCreator, onboardOnStandin, payoutBooks } from '../../testing/payouts';
import { startStripeTestApp } from '../../testing/stripe-app';
import type { StripeStandin } from '../../testing/stripe-standin';
import { STRIPE_PAYOUTS_WEBHOOK_PATH } from './connect-routes';
import { PROCESSOR_LEASE_MS, SEND_GRACE_MS } from './processor-payouts';
import { payoutRequests } from './tables';

let t: TestApp;
let stripe: StripeStandin;
let admin: HttpSession;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, stripe, close } = await startStripeTestApp({ PAYOUT_HOLD_SECONDS: '3600', PAYOUT_MINIMUM_COINS: '100' }));
  admin = (await t.given.moderators()).admin.client;
});
afterAll(() => close?.());

const db = () => t.resources.database.db;
const reconcile = (at: Date) => t.app.services.processorPayouts!.reconcile(at);

const { expectConserved, paidOut, steps } = payoutBooks(db);
const earnings = (c: SignedInUser) => c.client.call(api.myEarnings, {});

/** A creator with `coins` available, onboarded on the stand-in's page (its `account.updated` delivered). */
async function stripeCreator(coins = 1000): Promise<SignedInUser & { account: string }> {
  const c = await earningCreator(t, { matured: coins, bank: false, maturedAt: new Date(Date.now() - 2 * 3600_000) });
  const { url, stripe: account } = await c.client.call(api.startStripeOnboarding, {});
  expect(await onboardOnStandin(url)).toMatch(/\/user\/account\/earnings\?stripe=return$/);
  return Object.assign(c, { account: account.account });
}

async function requested(c: SignedInUser, coins: number) {
  return (await c.client.call(api.requestPayout, { coins }, { idempotencyKey: randomUUID() })).request;
}

describe('onboarding', () => {
  it('makes one Express account per creator, and counts it once Stripe enables its payouts', async () => {
    const c = await earningCreator(t, { matured: 0, bank: false });
    const before = await earnings(c);
    expect(before.methods).toEqual(['bank_transfer', 'stripe_connect']);
    expect(before.stripe).toBeNull();

    const [first, again] = await Promise.all([c.client.call(api.startStripeOnboarding, {}), c.client.call(api.startStripeOnboarding, {})]);
    expect(again.stripe.account).toBe(first.stripe.account);
    expect(first.url).toMatch(new RegExp(`^${stripe.baseUrl}/connect/onboard/`));
    expect([...stripe.connect.accounts.values()].filter((a) => (a.metadata as Record<string, string>).user_id === String(c.user.id))).toHaveLength(1);
    const chosen = await earnings(c);
    expect(chosen.method).toMatchObject({ method: 'stripe_connect' });
    expect(chosen.readiness.requirements).toContainEqual({ key: 'payout_method', done: false });

    // Details submitted but still under review: not yet.
    stripe.connect.onboarding = 'pending';
    expect(await onboardOnStandin(first.url)).toMatch(/\?stripe=return$/);
    // A link works once: opened again, Stripe sends the person to refresh_url.
    expect(await onboardOnStandin(first.url)).toMatch(/\?stripe=refresh$/);
    stripe.connect.onboarding = 'verified';
    expect((await earnings(c)).stripe).toMatchObject({ details_submitted: true, payouts_enabled: false });
    expect((await earnings(c)).readiness.ready).toBe(false);

    await stripe.connect.setPayoutsEnabled(first.stripe.account, true);
    const ready = await earnings(c);
    expect(ready.stripe).toMatchObject({ details_submitted: true, payouts_enabled: true });
    expect(ready.readiness).toEqual({ ready: true, requirements: [{ key: 'payout_method', done: true }, { key: 'tax_form', done: true }] });
    // Stripe disables the account again: no longer onboarded.
    await stripe.connect.setPayoutsEnabled(first.stripe.account, false);
    expect((await earnings(c)).readiness.ready).toBe(false);
  });

  it('asks Stripe again on the return, whatever the webhook did', async () => {
    stripe.webhookMode = 'drop';
    try {
      const c = await earningCreator(t, { matured: 0, bank: false });
      const { url } = await c.client.call(api.startStripeOnboarding, {});
      await onboardOnStandin(url);
      expect((await earnings(c)).stripe?.payouts_enabled).toBe(false);
      const back = await c.client.call(api.refreshStripeAccount, {});
      expect(back.stripe).toMatchObject({ details_submitted: true, payouts_enabled: true });
      expect((await earnings(c)).readiness.ready).toBe(true);
    } finally {
      stripe.webhookMode = 'deliver';
    }
  });

  it('refuses the return before any account, and unsigned or wrongly signed events', async () => {
    const c = await earningCreator(t, { matured: 0, bank: false });
    expect(await c.client.refusal(api.refreshStripeAccount, {})).toMatchObject({ status: 404, body: { message: MSG.stripeAccountMissing } });
    expect((await t.client().refusal(api.startStripeOnboarding, {})).status).toBe(401);
    const body = JSON.stringify({ id: 'evt_x', object: 'event', type: 'account.updated', data: { object: { id: 'acct_x' } } });
    const post = (headers: Record<string, string>) => fetch(stripe.connectWebhookUrl!, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post({})).status).toBe(401);
    expect((await post({ 'stripe-signature': stripe.sign(body) })).status).toBe(400);
    expect((await post({ 'stripe-signature': stripe.sign(body, Math.floor(Date.now() / 1000) - 3600, 'payouts') })).status).toBe(400);
    expect(stripe.connectWebhookUrl).toContain(STRIPE_PAYOUTS_WEBHOOK_PATH);
  });
});

describe('paying', () => {
  it('pays an approved request by a transfer to the Express account, once', async () => {
    const c = await stripeCreator(1000);
    const out = await paidOut();
    const request = await requested(c, 600);
    expect(request).toMatchObject({ method: 'stripe_connect', state: 'requested', usd_cents: 3000 });
    const approved = await admin.call(api.approvePayout, { id: request.id });
    expect(approved.request.state).toBe('paid');

    const transfers = [...stripe.connect.transfers.values()].filter((tr) => tr.transfer_group === `po_${request.id}`);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ amount: 3000, currency: 'usd', destination: c.account, metadata: { payout_request: String(request.id), user_id: String(c.user.id) } });
    const [row] = await db().select().from(payoutRequests).where(eq(payoutRequests.id, request.id));
    expect(row!.processorRef).toBe(transfers[0]!.id);
    expect(await paidOut()).toBe(out + 600);
    expect((await earnings(c)).earnings).toMatchObject({ available: 400, paid_out: 600, in_payout: 0 });

    // transfer.created heard again, and the approval repeated: nothing moves.
    const created = stripe.events.find((e) => e.type === 'transfer.created' && (e.object as { id: string }).id === transfers[0]!.id)!;
    expect(await stripe.deliver(created)).toBe(200);
    expect((await admin.refusal(api.approvePayout, { id: request.id })).status).toBe(409);
    expect(await steps(request.id)).toEqual(['hold', 'paid']);
    expect(await paidOut()).toBe(out + 600);
    const audited = await db().select({ action: auditLog.action, actor: auditLog.actorId }).from(auditLog)
      .where(and(eq(auditLog.targetType, 'payout'), eq(auditLog.targetId, String(request.id)))).orderBy(auditLog.id);
    expect(audited.map((a) => a.action)).toEqual(['payout.approve', 'payout.send', 'payout.paid']);
    expect(audited[1]!.actor).toBe(audited[0]!.actor);

    await t.app.services.notifications.runJobs();
    const told = (await c.client.call(listNotifications, {})).notifications.filter((n) => n.kind === 'payout_update');
    // Made, approved and paid; handing it to Stripe is no news.
    expect(told).toHaveLength(3);
    await expectConserved();
  });

  it('gives the coins back when Stripe refuses the transfer (the platform balance is short)', async () => {
    const c = await stripeCreator(1000);
    const request = await requested(c, 500);
    const balance = stripe.connect.balance;
    stripe.connect.balance = 100;
    try {
      const answer = await admin.call(api.approvePayout, { id: request.id });
      expect(answer.request).toMatchObject({ state: 'failed', reason: 'The platform\'s Stripe balance could not cover the transfer' });
    } finally {
      stripe.connect.balance = balance;
    }
    expect((await earnings(c)).earnings).toMatchObject({ available: 1000, in_payout: 0, paid_out: 0 });
    expect(await steps(request.id)).toEqual(['hold', 'returned']);
    await expectConserved();
  });

  it('takes a reversed transfer back into the wallet, once', async () => {
    const c = await stripeCreator(1000);
    const request = await requested(c, 400);
    await admin.call(api.approvePayout, { id: request.id });
    const out = await paidOut();
    const [transfer] = [...stripe.connect.transfers.values()].filter((tr) => tr.transfer_group === `po_${request.id}`);
    await stripe.connect.reverse(transfer!.id as string);
    const after = await earnings(c);
    expect(after.history[0]).toMatchObject({ id: request.id, state: 'returned', reason: 'Stripe reversed the transfer' });
    expect(after.earnings).toMatchObject({ available: 1000, paid_out: 0 });
    expect(await paidOut()).toBe(out - 400);
    const reversed = stripe.events.find((e) => e.type === 'transfer.reversed' && (e.object as { id: string }).id === transfer!.id)!;
    expect(await stripe.deliver(reversed)).toBe(200);
    expect(await steps(request.id)).toEqual(['bank-return', 'hold', 'paid']);
    // A bank file naming a Stripe payout changes nothing.
    expect(await admin.call(api.importPayouts, { csv: `PO-${request.id},returned,bounced\nPO-${request.id},paid` })).toMatchObject({ returned: 0, paid: 0, unchanged: 2 });
    await expectConserved();
  });
});

describe('lost answers and webhooks', () => {
  it('asks Stripe after the lease when both the answer and the webhook were lost; two runs pay once', async () => {
    const c = await stripeCreator(1000);
    const request = await requested(c, 300);
    stripe.loseTransferAnswers = true;
    stripe.webhookMode = 'drop';
    try {
      expect((await admin.call(api.approvePayout, { id: request.id })).request.state).toBe('sent');
    } finally {
      stripe.loseTransferAnswers = false;
      stripe.webhookMode = 'deliver';
    }
    expect((await reconcile(new Date())).asked).toBe(0);
    const later = new Date(Date.now() + PROCESSOR_LEASE_MS + 1000);
    const runs = await Promise.all([reconcile(later), reconcile(later)]);
    expect(runs.reduce((sum, r) => sum + r.asked, 0)).toBe(1);
    expect((await earnings(c)).history[0]).toMatchObject({ id: request.id, state: 'paid' });
    expect([...stripe.connect.transfers.values()].filter((tr) => tr.transfer_group === `po_${request.id}`)).toHaveLength(1);
    expect(await steps(request.id)).toEqual(['hold', 'paid']);
    await expectConserved();
  });

  it('settles reordered events by the transfer as it is now: reversed before created fails it once', async () => {
    const c = await stripeCreator(1000);
    const request = await requested(c, 300);
    stripe.loseTransferAnswers = true;
    stripe.webhookMode = 'hold';
    try {
      expect((await admin.call(api.approvePayout, { id: request.id })).request.state).toBe('sent');
      const [transfer] = [...stripe.connect.transfers.values()].filter((tr) => tr.transfer_group === `po_${request.id}`);
      await stripe.connect.reverse(transfer!.id as string);
    } finally {
      stripe.loseTransferAnswers = false;
      stripe.webhookMode = 'deliver';
    }
    const held = stripe.undelivered.splice(0).filter((e) => e.type.startsWith('transfer.'));
    expect(held.map((e) => e.type)).toEqual(['transfer.created', 'transfer.reversed']);
    for (const event of [...held].reverse()) expect(await stripe.deliver(event)).toBe(200);
    for (const event of held) expect(await stripe.deliver(event)).toBe(200);
    expect((await earnings(c)).history[0]).toMatchObject({ id: request.id, state: 'failed' });
    expect((await earnings(c)).earnings.available).toBe(1000);
    expect(await steps(request.id)).toEqual(['hold', 'returned']);
    await expectConserved();
  });

  it('sends a request approved by an instance killed before it reached Stripe', async () => {
    const c = await stripeCreator(1000);
    const request = await requested(c, 200);
    // What an approval's commit leaves when its process dies before sending.
    await db().update(payoutRequests).set({ state: 'approved', updatedAt: new Date(Date.now() - SEND_GRACE_MS - 1000) }).where(eq(payoutRequests.id, request.id));
    const runs = await Promise.all([reconcile(new Date()), reconcile(new Date())]);
    expect(runs.reduce((sum, r) => sum + r.settled, 0)).toBe(1);
    expect((await earnings(c)).history[0]).toMatchObject({ id: request.id, state: 'paid' });
    expect(await steps(request.id)).toEqual(['hold', 'paid']);
    await expectConserved();
  });
});
