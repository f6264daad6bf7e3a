/**
 * Deposit risk (decision 0058), over HTTP: each limit refuses with its message before any processor is
 * asked, the refusal is kept as a declined payment that counts toward the limits, the risk score's
 * threshold is honoured, parallel requests cannot pass a limit together, and no refusal moves money
 * (the books are checked for conservation after each case).
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/wallet';
import { sessionDetail } from '../../../common/api/accounts';
import type { CallOutput } from '../../../common/api/define';
import { fill, MSG } from '../../../common/messages';
import { startSharedTestApps, startTestApp, type TestApp } from '../../testing/harness';
import { suiteOnPostgres } from '../../testing/suite-needing';
import type { HttpSession } from '../../testing/http-session';
import { closeCheckingLedger, expectLedgerInvariants } from '../../testing/ledger-invariants';
import { startStripeStandin, type StripeStandin } from '../../testing/stripe-standin';
import { users } from '../accounts/tables';
import { ledgerTransfers } from '../ledger/tables';
import { SANDBOX_CARDS } from './payment-provider';
import { hostedWebhookPath } from './routes';
import { payments } from './tables';

type Package = CallOutput<typeof api.coinPackages>['packages'][number];

const LIMITS = {
  TRUST_PROXY: 'on',
  DEPOSIT_MAX_CENTS: '2500',
  DEPOSITS_PER_ACCOUNT_PER_DAY: '3',
  DEPOSIT_CENTS_PER_ACCOUNT_PER_DAY: '3000',
  DEPOSITS_PER_CARD_PER_DAY: '2',
  DEPOSITS_PER_ADDRESS_PER_DAY: '4',
};

let t: TestApp;
/** By price in cents: 500, 1000, 2500, 4800. */
let pkg: Record<number, Package>;

beforeAll(async () => {
  t = await startTestApp(LIMITS);
  pkg = Object.fromEntries((await t.client().call(api.coinPackages, {})).packages.map((p) => [p.price, p]));
});
afterAll(() => closeCheckingLedger(t));

let made = 0;
const nextYear = new Date().getUTCFullYear() + 1;
/** A card no other case uses (its last four and expiry are what the limits know of it). */
function newCard(number: string = SANDBOX_CARDS.succeeds) {
  made += 1;
  return { number, exp_month: (made % 12) + 1, exp_year: nextYear + Math.floor(made / 12), cvc: '123', name: 'Pat Payer' };
}
/** An address no other case uses. */
const newAddress = () => `198.51.${100 + Math.floor((made += 1) / 250)}.${made % 250}`;
type Card = ReturnType<typeof newCard>;

const buyer = async (app: TestApp = t) => (await app.given.signedInUser()).client;
const payWith = (client: HttpSession, price: number, card: Card, address: string) =>
  client.send(api.depositCoins, { package_id: pkg[price]!.package_id, payment_method: 'card', card }, { headers: { 'x-forwarded-for': address } });

const coins = async (client: HttpSession) => (await client.call(api.walletBalance, {})).balance.CON;
const transfers = async (app: TestApp) => (await app.resources.database.db.select({ n: count() }).from(ledgerTransfers))[0]!.n;
const rowsOf = async (app: TestApp, userId: number) =>
  app.resources.database.db.select().from(payments).where(eq(payments.userId, userId)).orderBy(payments.id);

/** A refusal that moved nothing: no transfer written, the payer's coins as they were, the books conserved. */
async function expectRefused(app: TestApp, attempt: () => Promise<{ status: number; body: Record<string, unknown> }>, client: HttpSession, status: number, message: string) {
  const before = { transfers: await transfers(app), coins: await coins(client) };
  const res = await attempt();
  expect(res.status).toBe(status);
  expect(res.body.message).toBe(message);
  expect({ transfers: await transfers(app), coins: await coins(client) }).toEqual(before);
  await expectLedgerInvariants(app.resources.database.db);
}

describe('the limits', () => {
  it('refuses a deposit larger than the largest allowed under the packages, keeping the attempt', async () => {
    const { user, client } = await t.given.signedInUser();
    await expectRefused(t, () => payWith(client, 4800, newCard(), newAddress()), client, 400, fill(MSG.depositOverMax, { max: '$25.00' }));
    const [row] = await rowsOf(t, user.id);
    expect(row).toMatchObject({ status: 'declined', failure: 'risk:over_max', amount: 4800, transferId: null });
    expect(row!.providerRef).toMatch(/^refused:/);
    // The page names the package as the field at fault.
    expect((await payWith(client, 4800, newCard(), newAddress())).body).toMatchObject({ field: 'package_id' });
  });

  it("counts an account's attempts in a day, declined ones too, and refuses the one past the count", async () => {
    const { user, client } = await t.given.signedInUser();
    expect((await payWith(client, 500, newCard(), newAddress())).status).toBe(200);
    expect((await payWith(client, 500, newCard(SANDBOX_CARDS.declined), newAddress())).status).toBe(402);
    expect((await payWith(client, 500, newCard(), newAddress())).status).toBe(200);
    await expectRefused(t, () => payWith(client, 500, newCard(), newAddress()), client, 429, MSG.depositAccountDailyCount);
    expect(await coins(client)).toBe(2 * pkg[500]!.coins);
    expect((await rowsOf(t, user.id)).map((r) => r.failure ?? r.status)).toEqual(['succeeded', MSG.cardDeclined, 'succeeded', 'risk:account_daily_count']);
  });

  it("refuses an amount that would pass the account's daily amount, and takes one that reaches it exactly", async () => {
    const client = await buyer();
    expect((await payWith(client, 2500, newCard(), newAddress())).status).toBe(200);
    await expectRefused(t, () => payWith(client, 1000, newCard(), newAddress()), client, 429, fill(MSG.depositAccountDailyAmount, { max: '$30.00' }));
    // The refused amount counts toward nothing but the attempts: 2,500 + 500 is the limit itself.
    expect((await payWith(client, 500, newCard(), newAddress())).status).toBe(200);
  });

  it('counts a card over every account that pays with it, and lets another card through', async () => {
    const shared = newCard();
    for (let i = 0; i < 2; i++) expect((await payWith(await buyer(), 500, shared, newAddress())).status).toBe(200);
    const third = await buyer();
    await expectRefused(t, () => payWith(third, 500, shared, newAddress()), third, 429, MSG.depositCardDaily);
    expect((await payWith(third, 500, newCard(), newAddress())).status).toBe(200);
  });

  it('knows a saved card by the same key as the card typed in, and counts a saved-card deposit toward it', async () => {
    const card = newCard();
    expect((await payWith(await buyer(), 500, card, newAddress())).status).toBe(200);
    const payWithSaved = async (client: HttpSession) => {
      const saved = (await client.call(api.addCreditCard, { card })).card;
      return client.send(api.depositCoins, { package_id: pkg[500]!.package_id, payment_method: 'card', card_token: String(saved.card_id) }, { headers: { 'x-forwarded-for': newAddress() } });
    };
    expect((await payWithSaved(await buyer())).status).toBe(200);
    const third = await buyer();
    await expectRefused(t, () => payWithSaved(third), third, 429, MSG.depositCardDaily);
  });

  it('counts the attempts from one address, refused ones among them, and not those from another address', async () => {
    const address = newAddress();
    // Four attempts from the address: two paid, one declined by the card's bank, one refused here (too large).
    expect((await payWith(await buyer(), 500, newCard(), address)).status).toBe(200);
    expect((await payWith(await buyer(), 500, newCard(SANDBOX_CARDS.declined), address)).status).toBe(402);
    expect((await payWith(await buyer(), 4800, newCard(), address)).status).toBe(400);
    // Another address's attempts are not this one's.
    expect((await payWith(await buyer(), 500, newCard(), newAddress())).status).toBe(200);
    expect((await payWith(await buyer(), 500, newCard(), address)).status).toBe(200);
    const late = await buyer();
    await expectRefused(t, () => payWith(late, 500, newCard(), address), late, 429, MSG.depositAddressDaily);
    expect((await payWith(late, 500, newCard(), newAddress())).status).toBe(200);
  });

  it('lets parallel requests of one account through up to the limit and no further', async () => {
    const { user, client } = await t.given.signedInUser();
    const answers = await Promise.all(Array.from({ length: 6 }, () => payWith(client, 500, newCard(), newAddress())));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    expect(await coins(client)).toBe(3 * pkg[500]!.coins);
    const rows = await rowsOf(t, user.id);
    expect(rows.filter((r) => r.status === 'succeeded')).toHaveLength(3);
    expect(rows.filter((r) => r.failure === 'risk:account_daily_count')).toHaveLength(3);
    await expectLedgerInvariants(t.resources.database.db);
  });
});

describe('the risk score', () => {
  let scored: TestApp;
  beforeAll(async () => {
    scored = await startTestApp({ TRUST_PROXY: 'on', KOUNT_RISK_THRESHOLD: '50' });
  });
  afterAll(() => closeCheckingLedger(scored));

  const payAt = (client: HttpSession, card: Card) =>
    client.send(api.depositCoins, { package_id: pkg[500]!.package_id, payment_method: 'card', card }, { headers: { 'x-forwarded-for': newAddress() } });
  const agedDays = (userId: number, days: number) =>
    scored.resources.database.db.update(users).set({ createdAt: new Date(Date.now() - days * 24 * 3600_000) }).where(eq(users.id, userId));

  it("is the session user's kount_risk_threshold", async () => {
    const { client } = await scored.given.signedInUser();
    expect((await client.call(sessionDetail, {})).user.env.kount_risk_threshold).toBe(50);
    expect((await (await buyer()).call(sessionDetail, {})).user.env.kount_risk_threshold).toBe(80);
  });

  it('refuses, before the processor, an attempt scored at or above it, and says why', async () => {
    const tested = newCard(SANDBOX_CARDS.declined);
    // A new account's first deposit: 30. Declined by the card's bank (the processor was asked).
    expect((await payAt(await buyer(scored), tested)).status).toBe(402);
    // Another new account on the same card: 30 + 15 = 45, asked; then again after its decline: 55, refused here.
    const { user: second, client: secondClient } = await scored.given.signedInUser();
    expect((await payAt(secondClient, tested)).status).toBe(402);
    await expectRefused(scored, () => payAt(secondClient, tested), secondClient, 403, MSG.depositRiskRefused);
    const last = (await rowsOf(scored, second.id)).at(-1)!;
    expect(last).toMatchObject({ status: 'declined', riskScore: 55, failure: 'risk:risk_score:new_account,first_deposit,refused_today,card_on_other_accounts' });
    expect(last.providerRef).toMatch(/^refused:/);

    // Exactly at the threshold: a three-day-old account (10), its first deposit (10), on the card two accounts used (30).
    const { user: thirdUser, client: third } = await scored.given.signedInUser();
    await agedDays(thirdUser.id, 3);
    await expectRefused(scored, () => payAt(third, tested), third, 403, MSG.depositRiskRefused);
    // Below it: the same account with a card of its own (20) pays.
    expect((await payAt(third, newCard())).status).toBe(200);
    expect(await coins(third)).toBe(pkg[500]!.coins);
  });
});

describe('checkouts on a processor page', () => {
  let stripe: StripeStandin;
  let hosted: TestApp;
  beforeAll(async () => {
    stripe = await startStripeStandin();
    hosted = await startTestApp({
      ...LIMITS,
      PAYMENTS: 'stripe', STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_standin', STRIPE_API_BASE: stripe.baseUrl,
    });
    stripe.webhookUrl = `${await hosted.app.listen({ port: 0, host: '127.0.0.1' })}${hostedWebhookPath('stripe')}`;
  });
  afterAll(async () => {
    await closeCheckingLedger(hosted);
    await stripe?.close();
  });

  const checkout = (client: HttpSession, price: number) =>
    client.send(api.depositCoins, { package_id: pkg[price]!.package_id, payment_method: 'card' }, { headers: { 'x-forwarded-for': '192.0.2.7' } });

  it('counts a checkout still open toward the day, and refuses the next one before any checkout is started', async () => {
    const { user, client } = await hosted.given.signedInUser();
    const open = await checkout(client, 2500);
    expect(open.status).toBe(200);
    const openId = (open.body as { checkout: { payment_id: number } }).checkout.payment_id;
    await expectRefused(hosted, () => checkout(client, 1000), client, 429, fill(MSG.depositAccountDailyAmount, { max: '$30.00' }));
    const rows = await rowsOf(hosted, user.id);
    expect(rows.map((r) => [r.status, r.failure])).toEqual([['pending', null], ['declined', 'risk:account_daily_amount']]);
    // The refused attempt never reached Stripe: no checkout of its own, no page to send the payer to.
    expect(rows[1]).toMatchObject({ redirectUrl: null, clientAddress: '192.0.2.7' });
    expect(rows[1]!.providerRef).toMatch(/^refused:/);
    expect(rows[0]!.id).toBe(openId);
    expect(stripe.session(rows[0]!.providerRef)).toBeDefined();
  });
});

suiteOnPostgres('two instances on one PostgreSQL database', () => {
  let apps: TestApp[] = [];
  beforeAll(async () => {
    apps = await startSharedTestApps(2, LIMITS);
  });
  afterAll(async () => {
    const [first, ...rest] = apps;
    for (const app of rest) await app.close();
    await closeCheckingLedger(first);
  });

  it("cannot pass an account's or an address's limit together, whichever instance takes each request", async () => {
    const [one, two] = apps as [TestApp, TestApp];
    const user = await one.given.user();
    const sessions = [await one.given.signedIn(user), await two.given.signedIn(user)];
    const mine = await Promise.all(Array.from({ length: 6 }, (_, i) => payWith(sessions[i % 2]!, 500, newCard(), newAddress())));
    expect(mine.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    expect(await coins(sessions[0]!)).toBe(3 * pkg[500]!.coins);

    // Six accounts at one address, three on each instance: four attempts, no more.
    const address = newAddress();
    const payers = await Promise.all(Array.from({ length: 6 }, async (_, i) => (await (i % 2 === 0 ? one : two).given.signedInUser()).client));
    const theirs = await Promise.all(payers.map((client) => payWith(client, 500, newCard(), address)));
    expect(theirs.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 429, 429]);
    await expectLedgerInvariants(one.resources.database.db);
  });
});
