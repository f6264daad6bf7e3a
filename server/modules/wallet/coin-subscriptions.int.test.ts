import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteOnPostgres } from '../../testing/suite-needing';
import * as subscriptionsApi from '../../../common/api/subscriptions';
import * as api from '../../../common/api/wallet';
import type { CallOutput } from '../../../common/api/define';
import { deleteAccount } from '../../../common/api/accounts';
import { fill, MSG } from '../../../common/messages';
import { periodEnd } from '../../../common/rules/plans';
import { loadSecret } from '../../platform/secrets';
import type { Executor } from '../../platform/db/client';
import { RISK_CHECKS_ROOMY } from '../../testing/deposit-risk';
import { startSharedTestApps, startTestApp, type TestApp, type TestUser } from '../../testing/harness';
import { closeCheckingLedger, expectLedgerInvariants } from '../../testing/ledger-invariants';
import type { HttpSession } from '../../testing/http-session';
import { createCoinSubscriptionService, createRenewalNotices, RENEWAL_LEASE_MS, RENEWAL_PERIOD } from './coin-subscriptions';
import { createSandboxProvider, SANDBOX_CARDS, SANDBOX_SIGNATURE_HEADER, signSandboxWebhook, type PaymentProvider } from './payment-provider';
import { SANDBOX_WEBHOOK_PATH, SANDBOX_WEBHOOK_SECRET } from './routes';
import { directCharger } from './renewal-chargers';
import { coinSubscriptions, paymentCards, payments } from './tables';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ...RISK_CHECKS_ROOMY });
});
afterAll(() => closeCheckingLedger(t));

const db = () => t.resources.database.db;
const nextYear = new Date().getUTCFullYear() + 1;
const card = (number: string) => ({ number, exp_month: 12, exp_year: nextYear, cvc: '123', name: 'Rita Renewer' });
const minutes = (n: number) => n * 60_000;
const after = (at: Date | string, ms: number) => new Date(new Date(at).getTime() + ms);
const renewDue = (now: Date, batch?: number) => t.app.services.coinSubscriptions.renewDue(now, batch);

let pkg: CallOutput<typeof api.coinPackages>['packages'][number];
beforeAll(async () => {
  pkg = (await t.client().call(api.coinPackages, {})).packages[0]!;
});

async function buyer(): Promise<{ user: TestUser; client: HttpSession }> {
  const user = await t.given.user();
  return { user, client: await t.given.signedIn(user) };
}

/** A buyer whose package renews monthly, bought with a card typed in. */
async function subscriber(number: string = SANDBOX_CARDS.succeeds) {
  const { user, client } = await buyer();
  const { coin_subscription: started } = await client.call(api.depositCoins, { package_id: pkg.package_id, payment_method: 'card', card: card(number), renew_monthly: true });
  return { user, client, id: started!.id, expiry: new Date(started!.next_renewal_date) };
}

async function coinsOf(client: HttpSession) {
  return (await client.call(api.walletBalance, {})).balance.CON;
}

async function row(id: number) {
  const [found] = await db().select().from(coinSubscriptions).where(eq(coinSubscriptions.id, id));
  return found!;
}

async function paymentsOf(id: number) {
  return db().select().from(payments).where(eq(payments.coinSubscriptionId, id)).orderBy(payments.id);
}

const declining = () => `tok_sbx_d_${randomBytes(18).toString('base64url')}`;

/** What the renewal job mailed them (a deposit's receipt, which follows every purchase, is not its business). */
async function mailsTo(email: string) {
  return (await db().execute(sql`select subject, text from mail_outbox where "to" = ${email} and subject not like 'Your receipt:%' order by id`)).rows as Array<{ subject: string; text: string }>;
}

describe('starting a recurring package', () => {
  it('buys the package, saves the card and starts a monthly renewal from the first payment', async () => {
    const before = new Date();
    const { client, id, expiry } = await subscriber();
    const sub = await row(id);
    expect(sub).toMatchObject({ state: 'enabled', periodNo: 1, salePrice: pkg.price, currency: pkg.currency, packageId: pkg.package_id });
    expect(new Date(sub.startDate).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(new Date(sub.expiryDate).toISOString()).toBe(periodEnd(new Date(sub.startDate), RENEWAL_PERIOD).toISOString());
    expect(expiry.toISOString()).toBe(new Date(sub.expiryDate).toISOString());
    expect(await coinsOf(client)).toBe(pkg.coins);
    const cards = (await client.call(api.creditCards, {})).cards;
    expect(cards).toHaveLength(1);
    expect(sub.cardId).toBe(cards[0]!.card_id);
    const [first] = await paymentsOf(id);
    expect(first).toMatchObject({ status: 'succeeded', periodNo: 1, amount: pkg.price });

    const list = await client.send(subscriptionsApi.listCoinSubscriptions, {});
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      response: 'success',
      total: 1,
      subscriptions: [{
        id,
        iap_product_id: `coins-${pkg.package_id}-monthly`,
        name: pkg.name,
        product_name: pkg.name,
        price_formatted: '$5.00',
        sale_price: pkg.price,
        state: 'enabled',
        start_date: new Date(sub.startDate).toISOString(),
        expiry_date: expiry.toISOString(),
        next_renewal_date: expiry.toISOString(),
      }],
    });
  });

  it('renews on a saved card too, and lists the caller\'s newest first, five a page, with the total', async () => {
    const { client } = await buyer();
    const saved = await client.call(api.addCreditCard, { card: card(SANDBOX_CARDS.succeeds) });
    const cardId = String(saved.card.card_id);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await client.call(api.depositCoins, { package_id: pkg.package_id, payment_method: 'card', card_token: cardId, renew_monthly: true });
      ids.push(res.coin_subscription!.id);
    }
    const first = await client.call(subscriptionsApi.listCoinSubscriptions, {});
    expect(first.total).toBe(6);
    expect(first.subscriptions.map((s) => s.id)).toEqual(ids.slice(1).reverse());
    const second = await client.call(subscriptionsApi.listCoinSubscriptions, { offset: 5 });
    expect(second.subscriptions.map((s) => s.id)).toEqual([ids[0]]);
    // Someone else's are not theirs.
    const other = await buyer();
    expect((await other.client.send(subscriptionsApi.listCoinSubscriptions, {})).body).toMatchObject({ subscriptions: [], total: 0 });
    expect((await t.client().send(subscriptionsApi.listCoinSubscriptions, {})).status).toBe(401);
  });

  it('answers a one-off purchase without a recurring package, and refuses renewal for other methods', async () => {
    const { client } = await buyer();
    const once = await client.post(api.depositCoins.path, { package_id: pkg.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    expect(once.status).toBe(200);
    expect(once.body.coin_subscription).toBeNull();
    expect((await client.call(api.creditCards, {})).cards).toEqual([]);
    const paypal = await client.post(api.depositCoins.path, { package_id: pkg.package_id, payment_method: 'paypal', renew_monthly: true });
    expect(paypal.status).toBe(400);
    expect(paypal.body).toMatchObject({ message: MSG.renewMonthlyCardOnly, field: 'renew_monthly' });
    const bad = await client.post(api.depositCoins.path, { package_id: pkg.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds), renew_monthly: 'often' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'renew_monthly' });
  });

  it('leaves no package when the first payment is refused', async () => {
    const { user, client } = await buyer();
    const res = await client.post(api.depositCoins.path, { package_id: pkg.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.declined), renew_monthly: true });
    expect(res.status).toBe(402);
    expect(await db().select().from(coinSubscriptions).where(eq(coinSubscriptions.userId, user.id))).toEqual([]);
    const [payment] = await db().select().from(payments).where(eq(payments.userId, user.id));
    expect(payment).toMatchObject({ status: 'declined', coinSubscriptionId: null, periodNo: null });
    expect((await client.call(subscriptionsApi.listCoinSubscriptions, {})).total).toBe(0);
  });

  it('starts the package once when the webhook and the deposit call settle the first payment together', async () => {
    const { user, client } = await buyer();
    const cardId = (await client.call(api.addCreditCard, { card: card(SANDBOX_CARDS.succeeds) })).card.card_id;
    // A charge the processor made whose answer never reached the call: its row is pending.
    const providerRef = `ch_sbx_${randomBytes(16).toString('hex')}`;
    const now = new Date();
    const [sub] = await db().insert(coinSubscriptions).values({
      userId: user.id, packageId: pkg.package_id, cardId, salePrice: pkg.price, currency: pkg.currency, state: 'cancelled', startDate: now, expiryDate: now,
    }).returning();
    await db().insert(payments).values({
      userId: user.id, provider: 'sandbox', providerRef, packageId: pkg.package_id, amount: pkg.price, currency: pkg.currency, status: 'pending',
      coinSubscriptionId: sub!.id, periodNo: 1,
    });
    const raw = JSON.stringify({ type: 'charge.succeeded', provider_ref: providerRef });
    const secret = await loadSecret(db(), SANDBOX_WEBHOOK_SECRET);
    const send = () => t.client().request('POST', SANDBOX_WEBHOOK_PATH, {
      rawBody: raw, csrf: false, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(secret, raw) },
    });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.body.moved === true)).toHaveLength(1);
    expect(await row(sub!.id)).toMatchObject({ state: 'enabled', periodNo: 1 });
    expect(await coinsOf(client)).toBe(pkg.coins);
    expect((await client.call(subscriptionsApi.listCoinSubscriptions, {})).total).toBe(1);
  });
});

describe('the renewal job', () => {
  it('charges once a month later and mints once, even when two runs meet, and runs a year of months', async () => {
    const { client, id, expiry } = await subscriber();
    // Not due yet. (The file's other packages share the database: each check is about this one.)
    await renewDue(after(expiry, -minutes(1)));
    expect(await paymentsOf(id)).toHaveLength(1);
    const monthLater = after(expiry, minutes(1));
    const [a, b] = await Promise.all([renewDue(monthLater), renewDue(monthLater)]);
    expect(a.renewed + b.renewed).toBeGreaterThanOrEqual(1);
    expect(await coinsOf(client)).toBe(2 * pkg.coins);
    expect((await paymentsOf(id)).map((p) => [p.periodNo, p.status])).toEqual([[1, 'succeeded'], [2, 'succeeded']]);
    const sub = await row(id);
    expect(sub.periodNo).toBe(2);
    expect(new Date(sub.expiryDate).toISOString()).toBe(periodEnd(expiry, RENEWAL_PERIOD).toISOString());
    // The same moment again: nothing is due.
    await renewDue(monthLater);
    expect(await paymentsOf(id)).toHaveLength(2);

    // Eleven more months, each charged once.
    for (let month = 3; month <= 13; month++) {
      const due = new Date((await row(id)).expiryDate);
      await renewDue(after(due, minutes(1)));
      expect((await row(id)).periodNo).toBe(month);
    }
    expect((await row(id)).periodNo).toBe(13);
    expect((await paymentsOf(id)).filter((p) => p.status === 'succeeded')).toHaveLength(13);
    expect(await coinsOf(client)).toBe(13 * pkg.coins);
    await expectLedgerInvariants(db());
  });

  it('renews many packages once each when two runs claim them in small batches at the same time', async () => {
    const made = await Promise.all(Array.from({ length: 4 }, () => subscriber()));
    const latest = made.reduce((m, s) => (s.expiry > m ? s.expiry : m), made[0]!.expiry);
    const now = after(latest, minutes(1));
    const runs = await Promise.all([renewDue(now, 2), renewDue(now, 2), renewDue(now, 1)]);
    expect(runs.reduce((n, r) => n + r.renewed, 0)).toBeGreaterThanOrEqual(4);
    for (const s of made) {
      expect((await paymentsOf(s.id)).map((p) => p.periodNo)).toEqual([1, 2]);
      expect(await coinsOf(s.client)).toBe(2 * pkg.coins);
    }
  });

  it('cancels a package whose card is refused and tells the subscriber by e-mail, charging nothing', async () => {
    const { user, client, id, expiry } = await subscriber();
    const sub = await row(id);
    await db().update(paymentCards).set({ token: declining() }).where(eq(paymentCards.id, sub.cardId!));
    const outcome = await renewDue(after(expiry, minutes(1)));
    expect(outcome.cancelled).toBeGreaterThanOrEqual(1);
    expect(await row(id)).toMatchObject({ state: 'cancelled', periodNo: 1 });
    expect(await coinsOf(client)).toBe(pkg.coins);
    const refused = (await paymentsOf(id)).find((p) => p.status === 'declined');
    expect(refused).toMatchObject({ periodNo: null, failure: MSG.cardDeclined });
    const mails = await mailsTo(user.email);
    expect(mails).toEqual([{
      subject: fill(MSG.coinSubscriptionRefusedSubject, { package: pkg.name }),
      text: fill(MSG.coinSubscriptionRefusedText, { package: pkg.name, price: '$5.00' }),
    }]);
    expect(JSON.stringify(mails)).not.toContain('tok_sbx');
    const listed = (await client.call(subscriptionsApi.listCoinSubscriptions, {})).subscriptions;
    expect(listed[0]).toMatchObject({ state: 'cancelled', next_renewal_date: null });
    // Not charged again later.
    await renewDue(after(expiry, 40 * 24 * 60 * 60_000));
    expect(await paymentsOf(id)).toHaveLength(2);
    expect(await coinsOf(client)).toBe(pkg.coins);
  });

  it('cancels a package whose card was deleted, and those of a deleted account', async () => {
    const gone = await subscriber();
    await db().update(paymentCards).set({ deletedAt: new Date() }).where(eq(paymentCards.id, (await row(gone.id)).cardId!));
    const closing = await subscriber();
    const res = await closing.client.send(deleteAccount, { id: closing.user.id, current_password: closing.user.password });
    expect(res.status).toBe(200);
    // Delivered by the outbox after the deposits' receipts before it.
    await expect.poll(async () => (await row(closing.id)).state, { timeout: 15_000 }).toBe('cancelled');
    const [kept] = await db().select().from(paymentCards).where(eq(paymentCards.id, (await row(closing.id)).cardId!));
    expect(kept).toMatchObject({ token: `forgotten:${kept!.id}`, brand: '', last4: '' });

    const now = after(gone.expiry > closing.expiry ? gone.expiry : closing.expiry, minutes(1));
    await renewDue(now);
    expect(await row(gone.id)).toMatchObject({ state: 'cancelled', periodNo: 1 });
    expect(await paymentsOf(gone.id)).toHaveLength(1);
    expect(await paymentsOf(closing.id)).toHaveLength(1);
    expect(await mailsTo(gone.user.email)).toEqual([]);
  });

  it('settles, after the lease, a charge left pending by a run that died, and only then', async () => {
    const { client, id, expiry, user } = await subscriber();
    const now = after(expiry, minutes(1));
    // A run claimed the period (its pending row is written) and died before settling it.
    await db().insert(payments).values({
      userId: user.id, provider: 'sandbox', providerRef: `pending:${randomBytes(8).toString('hex')}`, packageId: pkg.package_id, amount: pkg.price,
      currency: pkg.currency, status: 'pending', coinSubscriptionId: id, periodNo: 2, createdAt: now,
    });
    // Within the lease it may still be running: left alone.
    await renewDue(after(now, minutes(1)));
    expect((await paymentsOf(id)).map((p) => p.status)).toEqual(['succeeded', 'pending']);
    expect(await coinsOf(client)).toBe(pkg.coins);
    const later = after(now, RENEWAL_LEASE_MS);
    const [a, b] = await Promise.all([renewDue(later), renewDue(later)]);
    expect(a.renewed + b.renewed).toBeGreaterThanOrEqual(1);
    expect((await paymentsOf(id)).map((p) => [p.periodNo, p.status])).toEqual([[1, 'succeeded'], [2, 'succeeded']]);
    expect(await coinsOf(client)).toBe(2 * pkg.coins);
    expect((await row(id)).periodNo).toBe(2);
  });
});

describe('a run that died after the processor took the money', () => {
  it('is charged again with the same reference, so the processor answers the charge it made: money taken once, coins once', async () => {
    const { client, id, expiry } = await subscriber();
    const [{ token }] = await db().select({ token: paymentCards.token }).from(paymentCards).where(eq(paymentCards.id, (await row(id)).cardId!)) as [{ token: string }];
    const processor = createSandboxProvider({ webhookSecret: 'unused' });
    /** The processor's charges of this subscriber's card. */
    const charged: string[] = [];
    let dies = true;
    // The processor's answer is lost: the run dies between the charge and its settlement.
    const flaky: PaymentProvider = {
      ...processor,
      async charge(request) {
        const result = await processor.charge(request);
        if (request.token !== token) return result;
        charged.push(result.providerRef);
        if (dies) {
          dies = false;
          throw new Error('connection reset');
        }
        return result;
      },
    };
    const log = { warn: () => undefined };
    const wallet = t.app.services.wallet;
    const job = createCoinSubscriptionService({
      db: db(), charger: directCharger(flaky), settlement: wallet.settlement, log,
      notices: createRenewalNotices({ db: db(), accounts: t.app.services.accounts, mailer: { transport: 'outbox', send: async () => undefined, sendMany: async (messages) => messages.map(() => null), close: () => undefined }, log }),
    });
    const now = after(expiry, minutes(1));
    await job.renewDue(now);
    expect((await paymentsOf(id)).map((p) => p.status)).toEqual(['succeeded', 'pending']);
    expect(await coinsOf(client)).toBe(pkg.coins);
    // Within the lease nothing is charged again; after it, the same reference is.
    await job.renewDue(after(now, minutes(2)));
    expect(charged).toHaveLength(1);
    await job.renewDue(after(now, RENEWAL_LEASE_MS));
    const mine = await paymentsOf(id);
    expect(mine.map((p) => [p.periodNo, p.status])).toEqual([[1, 'succeeded'], [2, 'succeeded']]);
    // Asked twice, the processor answered its one charge both times; that charge settled the period.
    expect(charged).toEqual([mine[1]!.providerRef, mine[1]!.providerRef]);
    expect(await coinsOf(client)).toBe(2 * pkg.coins);
  });
});

describe('support applying a cancellation request', () => {
  it('is refused to the subscriber and to visitors; an admin cancels it and the job charges it no more', async () => {
    const { client, id, expiry } = await subscriber();
    expect((await client.send(subscriptionsApi.updateCoinSubscription, { id, state: 'cancelled' })).status).toBe(403);
    expect((await t.client().send(subscriptionsApi.updateCoinSubscription, { id, state: 'cancelled' })).status).toBe(401);
    expect((await row(id)).state).toBe('enabled');

    const admin = await t.given.signedInUser({ role: 'admin' });
    expect((await admin.client.send(subscriptionsApi.updateCoinSubscription, { id: 987654321, state: 'cancelled' })).status).toBe(404);
    expect((await admin.client.post(subscriptionsApi.updateCoinSubscription.path, { id, state: 'paused' })).body).toMatchObject({ field: 'state' });
    const res = await admin.client.send(subscriptionsApi.updateCoinSubscription, { id, state: 'cancelled' });
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ id, state: 'cancelled', next_renewal_date: null, expiry_date: expiry.toISOString() });

    await renewDue(after(expiry, minutes(1)));
    expect(await paymentsOf(id)).toHaveLength(1);
    expect(await coinsOf(client)).toBe(pkg.coins);
  });

  it('does not know a package whose first payment never succeeded', async () => {
    const { user } = await buyer();
    await db().insert(paymentCards).values({ userId: user.id, provider: 'sandbox', token: declining(), brand: 'Visa', last4: '0002', expMonth: 12, expYear: nextYear });
    const [cardRow] = await db().select().from(paymentCards).where(eq(paymentCards.userId, user.id));
    const now = new Date();
    const [placeholder] = await db().insert(coinSubscriptions).values({
      userId: user.id, packageId: pkg.package_id, cardId: cardRow!.id, salePrice: pkg.price, currency: pkg.currency, state: 'cancelled', startDate: now, expiryDate: now,
    }).returning();
    const admin = await t.given.signedInUser({ role: 'admin' });
    expect((await admin.client.send(subscriptionsApi.updateCoinSubscription, { id: placeholder!.id, state: 'enabled' })).status).toBe(404);
    expect((await db().select().from(coinSubscriptions).where(and(eq(coinSubscriptions.id, placeholder!.id), eq(coinSubscriptions.state, 'cancelled'))))).toHaveLength(1);
  });
});

// On PostgreSQL whatever the project: run by the PostgreSQL one only.
suiteOnPostgres('two instances on one PostgreSQL database', () => {
  let apps: TestApp[] = [];
  afterAll(async () => {
    const [first, ...rest] = apps;
    for (const app of rest) await app.close();
    await closeCheckingLedger(first);
  });

  it('leave packages alone on an instance without a payment processor (PAYMENTS=none)', async () => {
    const [paying, none] = await startSharedTestApps(2, (i): Record<string, string> => ({ ...RISK_CHECKS_ROOMY, PAYMENTS: i === 1 ? 'none' : 'sandbox' }));
    try {
      const user = await paying!.given.user();
      const client = await paying!.given.signedIn(user);
      const [cheapest] = (await paying!.client().call(api.coinPackages, {})).packages;
      const sub = (await client.call(api.depositCoins, { package_id: cheapest!.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds), renew_monthly: true })).coin_subscription!;
      const now = after(sub.next_renewal_date, minutes(1));
      expect(await none!.app.services.coinSubscriptions.renewDue(now)).toEqual({ renewed: 0, cancelled: 0, retry: 0 });
      const shared = paying!.resources.database.db;
      const [kept] = await shared.select().from(coinSubscriptions).where(eq(coinSubscriptions.id, sub.id));
      expect(kept).toMatchObject({ state: 'enabled', periodNo: 1 });
      await paying!.app.services.coinSubscriptions.renewDue(now);
      const [renewed] = await shared.select().from(coinSubscriptions).where(eq(coinSubscriptions.id, sub.id));
      expect(renewed).toMatchObject({ state: 'enabled', periodNo: 2 });
    } finally {
      await none!.close();
      await closeCheckingLedger(paying);
    }
  });

  it('charge each due package once when their jobs run at the same time', async () => {
    apps = await startSharedTestApps(2, { ...RISK_CHECKS_ROOMY });
    const [one, two] = apps as [TestApp, TestApp];
    const shared: Executor = one.resources.database.db;
    const [cheapest] = (await one.client().call(api.coinPackages, {})).packages;
    const started: Array<{ id: number; expiry: Date; client: HttpSession }> = [];
    for (let i = 0; i < 6; i++) {
      const user = await one.given.user();
      const client = await one.given.signedIn(user);
      const sub = (await client.call(api.depositCoins, { package_id: cheapest!.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds), renew_monthly: true })).coin_subscription!;
      started.push({ id: sub.id, expiry: new Date(sub.next_renewal_date), client });
    }
    const now = after(started.reduce((m, s) => (s.expiry > m ? s.expiry : m), started[0]!.expiry), minutes(1));
    const runs = await Promise.all([
      one.app.services.coinSubscriptions.renewDue(now, 2),
      two.app.services.coinSubscriptions.renewDue(now, 2),
      one.app.services.coinSubscriptions.renewDue(now, 3),
      two.app.services.coinSubscriptions.renewDue(now, 1),
    ]);
    expect(runs.reduce((n, r) => n + r.renewed, 0)).toBe(6);
    for (const s of started) {
      const rows = await shared.select().from(payments).where(eq(payments.coinSubscriptionId, s.id));
      expect(rows.map((p) => [p.periodNo, p.status]).sort()).toEqual([[1, 'succeeded'], [2, 'succeeded']]);
      expect(await coinsOf(s.client)).toBe(2 * cheapest!.coins);
    }
    await expectLedgerInvariants(shared);
  });
});
