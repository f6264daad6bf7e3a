import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/wallet';
import { MSG } from '../../../common/messages';
import { loadSecret } from '../../platform/secrets';
import { RISK_CHECKS_ROOMY } from '../../testing/deposit-risk';
import { startTestApp, type TestApp, type TestUser } from '../../testing/harness';
import { closeCheckingLedger, expectLedgerInvariants, findLedgerViolations } from '../../testing/ledger-invariants';
import type { HttpSession } from '../../testing/http-session';
import { createLedger } from '../ledger/service';
import { COIN_PACKAGES, IMPRESSION_PACKAGES } from './packages';
import { SANDBOX_CARDS, SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from './payment-provider';
import { SANDBOX_WEBHOOK_PATH, SANDBOX_WEBHOOK_SECRET, WALLET_THROTTLE } from './routes';
import { payments } from './tables';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ...RISK_CHECKS_ROOMY });
});
afterAll(() => closeCheckingLedger(t));

const db = () => t.resources.database.db;
const nextYear = new Date().getUTCFullYear() + 1;
const card = (number: string, overrides: Partial<{ exp_month: number; exp_year: number; cvc: string }> = {}) => ({
  number, exp_month: 12, exp_year: nextYear, cvc: '123', name: 'Pat Payer', ...overrides,
});
type Body = Record<string, unknown>;

async function buyer(): Promise<{ user: TestUser; client: HttpSession }> {
  const user = await t.given.user();
  return { user, client: await t.given.signedIn(user) };
}

async function packages() {
  return (await t.client().call(api.coinPackages, {})).packages;
}

const deposit = (client: HttpSession, body: Body) => client.post(api.depositCoins.path, body);

async function webhook(body: unknown, signature?: string) {
  const raw = JSON.stringify(body);
  const secret = await loadSecret(db(), SANDBOX_WEBHOOK_SECRET);
  return t.client().request('POST', SANDBOX_WEBHOOK_PATH, {
    rawBody: raw,
    csrf: false,
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature ?? signSandboxWebhook(secret, raw) },
  });
}

describe('packages', () => {
  it('lists the coin packages cheapest first, to anyone', async () => {
    const list = await packages();
    expect(list.map((p) => p.coins)).toEqual(COIN_PACKAGES.map((p) => p.coins));
    expect(list[0]).toMatchObject({ name: '100 Coins', coins: 100, price: 500, currency: 'USD' });
  });

  it('lists impression packages, fewest impressions first, to signed-in users', async () => {
    expect((await t.client().refusal(api.getImpressionPackages, {})).status).toBe(401);
    const { client } = await buyer();
    const list = (await client.call(api.getImpressionPackages, {})).impression_packages;
    expect(list.map((p) => p.impressions)).toEqual([...IMPRESSION_PACKAGES].map((p) => p.impressions).sort((a, b) => a - b));
    expect(list[0]).toMatchObject({ currency: 'CON', price: 50, impressions: 1000 });
  });
});

describe('payment methods', () => {
  it('says which methods this installation can take, and why not the others', async () => {
    const res = await t.client().call(api.paymentMethods, {});
    expect(res.methods).toEqual([
      { id: 'card', available: true, reason: null, checkout: false },
      { id: 'paypal', available: false, reason: MSG.paymentMethodUnavailable, checkout: false },
      { id: 'bitcoin', available: false, reason: MSG.paymentMethodUnavailable, checkout: false },
    ]);
  });

  it('offers no card either when payments are off (PAYMENTS=none), and refuses a card deposit the same way', async () => {
    const off = await startTestApp({ PAYMENTS: 'none' });
    try {
      const res = await off.client().call(api.paymentMethods, {});
      expect(res.methods.every((m) => !m.available)).toBe(true);
      const { client } = await off.given.signedInUser();
      const pkg = (await off.client().call(api.coinPackages, {})).packages[0]!;
      const refused = await client.refusal(api.depositCoins, { package_id: pkg.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(MSG.paymentMethodUnavailable);
    } finally {
      await off.close();
    }
  });
});

describe('deposits', () => {
  it('refuses logged-out callers on every wallet call', async () => {
    const guest = t.client();
    for (const def of [api.walletBalance, api.walletTransfers, api.creditCards, api.getImpressionBalance]) {
      expect((await guest.send(def, {})).status, def.path).toBe(401);
    }
    for (const [path, body] of [
      [api.depositCoins.path, { package_id: 1, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) }],
      [api.addCreditCard.path, { card: card(SANDBOX_CARDS.succeeds) }],
      [api.buyImpressionsPackage.path, { id: 1 }],
    ] as const) {
      expect((await guest.post(path, body)).status, path).toBe(401);
    }
  });

  it('credits the coins of a card that succeeds and records the payment', async () => {
    const { user, client } = await buyer();
    const pkg = (await packages())[0]!;
    const res = await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card: card('4242 4242 4242 4242') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ response: 'success', coins: pkg.coins, balance: { CON: pkg.coins, IMP: 0, USD: 0, CAD: 0 } });
    const [payment] = await db().select().from(payments).where(eq(payments.userId, user.id));
    expect(payment).toMatchObject({ status: 'succeeded', amount: pkg.price, currency: 'USD', transferId: res.body.transfer_id });
    expect(payment!.providerRef).toMatch(/^ch_sbx_/);
    const balance = await client.call(api.walletBalance, {});
    expect(balance).toEqual({ response: 'success', balance: { CON: pkg.coins, IMP: 0, USD: 0, CAD: 0 } });
  });

  it('answers 402 with a code of its own for declined and insufficient-funds cards, and moves nothing', async () => {
    const { user, client } = await buyer();
    const pkg = (await packages())[1]!;
    for (const [number, message, code] of [
      [SANDBOX_CARDS.declined, MSG.cardDeclined, 'payment_declined'],
      [SANDBOX_CARDS.insufficientFunds, MSG.cardInsufficientFunds, 'card_insufficient_funds'],
      ['5555555555554444', MSG.cardDeclined, 'payment_declined'],
    ] as const) {
      const res = await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card: card(number) });
      expect(res.status, number).toBe(402);
      expect(res.body).toEqual({ response: code, message });
    }
    const rows = await db().select().from(payments).where(eq(payments.userId, user.id));
    expect(rows.map((r) => r.status)).toEqual(['declined', 'declined', 'declined']);
    expect(rows.every((r) => r.transferId === null)).toBe(true);
    expect((await client.call(api.walletBalance, {})).balance).toEqual({ CON: 0, IMP: 0, USD: 0, CAD: 0 });
    expect(await client.call(api.walletTransfers, {})).toMatchObject({ transfers: [], total: 0 });
  });

  it('refuses an expired card, an unknown package, a missing card and the methods without a processor', async () => {
    const { client } = await buyer();
    const pkg = (await packages())[0]!;
    const expired = await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds, { exp_year: 2020 }) });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('Your card has expired.');
    const unknown = await deposit(client, { package_id: 999_999, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    expect(unknown.status).toBe(404);
    const bad = await deposit(client, { package_id: 'abc', payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'package_id' });
    const noCard = await deposit(client, { package_id: pkg.package_id, payment_method: 'card' });
    expect(noCard.status).toBe(400);
    expect(noCard.body).toMatchObject({ field: 'card_token' });
    const badNumber = await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card: card('1234') });
    expect(badNumber.status).toBe(400);
    for (const method of ['paypal', 'bitcoin']) {
      const res = await deposit(client, { package_id: pkg.package_id, payment_method: method });
      expect(res.status, method).toBe(400);
      expect(res.body.message).toBe('This payment method is not available yet.');
    }
    expect((await client.call(api.walletBalance, {})).balance).toMatchObject({ CON: 0 });
  });

  it('limits deposits per user', async () => {
    const { client } = await buyer();
    const pkg = (await packages())[0]!;
    for (let i = 0; i < WALLET_THROTTLE.deposits; i++) {
      expect((await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.declined) })).status).toBe(402);
    }
    const limited = await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    expect(limited.status).toBe(429);
    expect((await client.call(api.walletBalance, {})).balance).toMatchObject({ CON: 0 });
  });
});

describe('saved cards', () => {
  it('keeps only a token, the brand, the last four digits and the expiry, and pays with it', async () => {
    const { user, client } = await buyer();
    const { card: savedCard } = await client.call(api.addCreditCard, { card: card('4242-4242-4242-4242') });
    expect(savedCard).toEqual({ card_id: savedCard.card_id, brand: 'Visa', last4: '4242', exp_month: 12, exp_year: nextYear });
    const list = await client.call(api.creditCards, {});
    expect(list.cards).toEqual([savedCard]);

    const stored = (await db().execute(sql`select * from payment_cards where user_id = ${user.id}`)).rows;
    expect(stored).toHaveLength(1);
    const everything = JSON.stringify(stored);
    expect(everything).not.toContain(SANDBOX_CARDS.succeeds);
    expect(everything).not.toContain('424242424242');
    const token = String((stored[0] as { token: string }).token);

    const pkg = (await packages())[2]!;
    const byId = await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card_token: String(savedCard.card_id) });
    expect(byId.status).toBe(200);
    const byToken = await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card_token: token });
    expect(byToken.status).toBe(200);
    expect(byToken.body.balance).toMatchObject({ CON: 2 * pkg.coins });

    // Another user cannot pay with this card, by id or token.
    const other = await buyer();
    for (const given of [String(savedCard.card_id), token]) {
      const res = await deposit(other.client, { package_id: pkg.package_id, payment_method: 'card', card_token: given });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('This card is not saved on your account.');
    }
  });

  it('saves a declining card whose charges are then refused, and refuses expired cards', async () => {
    const { client } = await buyer();
    const saved = await client.call(api.addCreditCard, { card: card(SANDBOX_CARDS.insufficientFunds) });
    const pkg = (await packages())[0]!;
    const res = await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card_token: String(saved.card.card_id) });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ response: 'card_insufficient_funds', message: MSG.cardInsufficientFunds });
    const expired = await client.post(api.addCreditCard.path, { card: card(SANDBOX_CARDS.succeeds, { exp_year: 2021, exp_month: 1 }) });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('Your card has expired.');
    const noCvc = await client.post(api.addCreditCard.path, { card: { ...card(SANDBOX_CARDS.succeeds), cvc: 'x' } });
    expect(noCvc.status).toBe(400);
  });

  it('never writes a card number or CVC anywhere in the database', async () => {
    const dump = await db().execute(sql`
      select string_agg(row_to_json(x)::text, ' ') as all from (
        select * from payment_cards) x
      union all select string_agg(row_to_json(p)::text, ' ') from payments p
      union all select string_agg(details::text, ' ') from ledger_transfers`);
    const text = JSON.stringify(dump.rows);
    for (const number of Object.values(SANDBOX_CARDS)) expect(text).not.toContain(number);
    expect(text).not.toContain('5555555555554444');
  });
});

describe('the sandbox webhook', () => {
  /** A charge the processor made whose answer never reached the deposit call: left pending. */
  async function pendingPayment(userId: number) {
    const pkg = (await packages())[0]!;
    const providerRef = `ch_sbx_test${Math.random().toString(16).slice(2)}`;
    const [row] = await db().insert(payments)
      .values({ userId, provider: 'sandbox', providerRef, packageId: pkg.package_id, amount: pkg.price, currency: 'USD', status: 'pending' })
      .returning();
    return { payment: row!, pkg };
  }

  it('refuses unsigned and wrongly signed deliveries, without a CSRF token or session', async () => {
    const { user } = await buyer();
    const { payment } = await pendingPayment(user.id);
    const event = { type: 'charge.succeeded', provider_ref: payment.providerRef };
    const unsigned = await t.client().request('POST', SANDBOX_WEBHOOK_PATH, { rawBody: JSON.stringify(event), csrf: false });
    expect(unsigned.status).toBe(401);
    const forged = await webhook(event, signSandboxWebhook('not-the-secret', JSON.stringify(event)));
    expect(forged.status).toBe(403);
    const malformed = await webhook({ type: 'charge.refunded', provider_ref: payment.providerRef });
    expect(malformed.status).toBe(400);
    const unknown = await webhook({ type: 'charge.succeeded', provider_ref: 'ch_sbx_nobody' });
    expect(unknown.status).toBe(404);
    const [after] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(after!.status).toBe('pending');
  });

  it('settles a pending payment once however often the event is delivered', async () => {
    const { user, client } = await buyer();
    const { payment, pkg } = await pendingPayment(user.id);
    const event = { type: 'charge.succeeded', provider_ref: payment.providerRef };
    const [first, second] = [await webhook(event), await webhook(event)];
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'succeeded', moved: true });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'succeeded', moved: false });
    const parallel = await Promise.all([webhook(event), webhook(event), webhook(event)]);
    expect(parallel.map((r) => r.body.moved)).toEqual([false, false, false]);
    expect((await client.call(api.walletBalance, {})).balance).toMatchObject({ CON: pkg.coins });
    const [after] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(after).toMatchObject({ status: 'succeeded' });
    expect(after!.transferId).not.toBeNull();
  });

  it('settles parallel first deliveries once', async () => {
    const { user, client } = await buyer();
    const { payment, pkg } = await pendingPayment(user.id);
    const event = { type: 'charge.succeeded', provider_ref: payment.providerRef };
    const results = await Promise.all(Array.from({ length: 4 }, () => webhook(event)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.filter((r) => r.body.moved === true)).toHaveLength(1);
    expect((await client.call(api.walletBalance, {})).balance).toMatchObject({ CON: pkg.coins });
  });

  it('moves nothing for a payment the deposit call already settled', async () => {
    const { user, client } = await buyer();
    const pkg = (await packages())[0]!;
    const res = await deposit(client, { package_id: pkg.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    expect(res.status).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.userId, user.id));
    const again = await webhook({ type: 'charge.succeeded', provider_ref: payment!.providerRef });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'succeeded', moved: false });
    expect((await client.call(api.walletBalance, {})).balance).toMatchObject({ CON: pkg.coins });
  });

  it('marks a pending payment declined on a failure event, and a later success moves nothing', async () => {
    const { user, client } = await buyer();
    const { payment } = await pendingPayment(user.id);
    const declined = await webhook({ type: 'charge.declined', provider_ref: payment.providerRef });
    expect(declined.body).toMatchObject({ status: 'declined', moved: false });
    const late = await webhook({ type: 'charge.succeeded', provider_ref: payment.providerRef });
    expect(late.body).toMatchObject({ status: 'declined', moved: false });
    const [after] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(after).toMatchObject({ status: 'declined', failure: 'Your card was declined.', transferId: null });
    expect((await client.call(api.walletBalance, {})).balance).toMatchObject({ CON: 0 });
  });
});

describe('impressions', () => {
  async function impressionPackage(index: number) {
    const { client } = await buyer();
    const list = (await client.call(api.getImpressionPackages, {})).impression_packages;
    return list[index]!;
  }

  it('buys a package with coins and shows the impressions', async () => {
    const { client } = await buyer();
    const coins = (await packages())[0]!; // 100 coins
    await deposit(client, { package_id: coins.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    const pkg = await impressionPackage(0); // 1,000 for 50 coins
    const res = await client.call(api.buyImpressionsPackage, { id: pkg.package_id });
    expect(res).toEqual({ response: 'success', impression_balance: pkg.impressions, balance: { CON: 100 - pkg.price, IMP: pkg.impressions, USD: 0, CAD: 0 } });
    const balance = await client.call(api.getImpressionBalance, {});
    expect(balance).toEqual({ response: 'success', impression_balance: pkg.impressions });
  });

  it('buys once per Idempotency-Key', async () => {
    const { client } = await buyer();
    const coins = (await packages())[1]!; // 200 coins
    await deposit(client, { package_id: coins.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    const pkg = await impressionPackage(0);
    const buy = (idempotencyKey: string) => client.call(api.buyImpressionsPackage, { id: pkg.package_id }, { idempotencyKey });
    const [a, b] = [await buy('buy-1'), await buy('buy-1')];
    expect(a).toEqual(b);
    expect(a.impression_balance).toBe(pkg.impressions);
    const c = await buy('buy-2');
    expect(c.impression_balance).toBe(2 * pkg.impressions);
    expect(c.balance.CON).toBe(200 - 2 * pkg.price);
    const bad = await client.refusal(api.buyImpressionsPackage, { id: pkg.package_id }, { idempotencyKey: 'has space' });
    expect(bad.status).toBe(400);
    // Without a key, every call is a new purchase.
    await client.call(api.buyImpressionsPackage, { id: pkg.package_id });
    expect((await client.call(api.getImpressionBalance, {})).impression_balance).toBe(3 * pkg.impressions);
  });

  it('refuses without enough coins (402), a missing package (400) and an unknown one (404)', async () => {
    const { client } = await buyer();
    const pkg = await impressionPackage(2);
    const poor = await client.refusal(api.buyImpressionsPackage, { id: pkg.package_id });
    expect(poor.status).toBe(402);
    expect(poor.body).toEqual({ response: 'insufficient_funds', message: MSG.insufficientFunds });
    for (const body of [{}, { id: '' }, { id: 0 }, { id: 'abc' }]) {
      const res = await client.refusal(api.buyImpressionsPackage, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('Impression Package cannot be blank.');
    }
    const unknown = await client.refusal(api.buyImpressionsPackage, { id: 987_654 });
    expect(unknown.status).toBe(404);
    expect((await client.call(api.walletBalance, {})).balance).toEqual({ CON: 0, IMP: 0, USD: 0, CAD: 0 });
  });
});

describe('history', () => {
  it('lists the caller\'s transfers newest first with signed amounts per currency, paged', async () => {
    const { user, client } = await buyer();
    const coins = (await packages())[0]!;
    await deposit(client, { package_id: coins.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    const list = (await client.call(api.getImpressionPackages, {})).impression_packages;
    await client.call(api.buyImpressionsPackage, { id: list[0]!.package_id });

    const { transfers, total } = await client.call(api.walletTransfers, {});
    expect(total).toBe(3);
    expect(transfers.map((x) => [x.kind, x.currency, x.amount])).toEqual([
      ['impressions', 'CON', -list[0]!.price],
      ['impressions', 'IMP', list[0]!.impressions],
      ['deposit', 'CON', coins.coins],
    ]);
    expect(transfers[0]).toMatchObject({ counterparty: null, stream_id: null });
    expect(Date.parse(String(transfers[2]!.created_at))).not.toBeNaN();

    const page = await client.call(api.walletTransfers, { offset: 2, limit: 1 });
    expect(page).toMatchObject({ total: 3, transfers: [{ kind: 'deposit' }] });

    // Someone else's history holds none of this.
    const other = await buyer();
    expect(await other.client.call(api.walletTransfers, {})).toMatchObject({ transfers: [], total: 0 });
    expect(user.id).not.toBe(other.user.id);
  });

  it('shows a tip as −amount to the tipper and +net to the recipient, each naming the other', async () => {
    const tipper = await buyer();
    const recipient = await buyer();
    const coins = (await packages())[0]!;
    await deposit(tipper.client, { package_id: coins.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    // A tip as the tips module writes it: 20 coins, 4 to the platform's fees.
    const { transferId } = await createLedger({ db: db() }).transfer({
      kind: 'tip', idempotencyKey: `history-tip-${tipper.user.id}`, fromUserId: tipper.user.id, toUserId: recipient.user.id, amount: 20, currency: 'CON',
      legs: [
        { account: { userId: tipper.user.id, currency: 'CON' }, amount: -20 },
        { account: { userId: recipient.user.id, currency: 'CON' }, amount: 16 },
        { account: { system: 'fees', currency: 'CON' }, amount: 4 },
      ],
    });
    const sent = (await tipper.client.call(api.walletTransfers, {})).transfers;
    expect(sent[0]).toMatchObject({ transfer_id: transferId, kind: 'tip', amount: -20, currency: 'CON', counterparty: { user_id: recipient.user.id, username: recipient.user.username } });
    const received = (await recipient.client.call(api.walletTransfers, {})).transfers;
    expect(received).toEqual([expect.objectContaining({ transfer_id: transferId, kind: 'tip', amount: 16, counterparty: { user_id: tipper.user.id, username: tipper.user.username } })]);
  });
});

describe('the ledger invariant helper', () => {
  it('reports a wallet whose balance drifted from its entries and unbalances its currency', async () => {
    const { user, client } = await buyer();
    const coins = (await packages())[0]!;
    await deposit(client, { package_id: coins.package_id, payment_method: 'card', card: card(SANDBOX_CARDS.succeeds) });
    await db().execute(sql`update ledger_accounts set balance = balance + 5 where user_id = ${user.id} and currency = 'CON'`);
    try {
      const found = await findLedgerViolations(db());
      expect(found.unbalancedCurrencies).toEqual([{ currency: 'CON', total: 5 }]);
      expect(found.driftedAccounts).toHaveLength(1);
    } finally {
      await db().execute(sql`update ledger_accounts set balance = balance - 5 where user_id = ${user.id} and currency = 'CON'`);
    }
    await expectLedgerInvariants(db());
  });
});

describe('logs', () => {
  it('never carry a card number or CVC, even at trace level', async () => {
    const traced = await startTestApp({ LOG_LEVEL: 'trace' });
    const lines: string[] = [];
    const stream = (traced.app.log as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym]!;
    const write = stream.write.bind(stream);
    stream.write = (line: string) => {
      lines.push(String(line));
      return true;
    };
    try {
      const user = await traced.given.user();
      const client = await traced.given.signedIn(user);
      const pkg = ((await traced.client().call(api.coinPackages, {})).packages)[0]!;
      const secretCard = { ...card(SANDBOX_CARDS.succeeds), cvc: '8642' };
      expect((await client.post(api.depositCoins.path, { package_id: pkg.package_id, payment_method: 'card', card: secretCard })).status).toBe(200);
      expect((await client.post(api.depositCoins.path, { package_id: pkg.package_id, payment_method: 'card', card: { ...secretCard, number: SANDBOX_CARDS.declined } })).status).toBe(402);
      expect((await client.post(api.addCreditCard.path, { card: secretCard })).status).toBe(200);
      expect((await client.post(api.addCreditCard.path, { card: { ...secretCard, extra: 1 } })).status).toBe(400);
      expect((await client.post(api.addCreditCard.path, { card: { ...secretCard, exp_year: 2020 } })).status).toBe(400);
      await expectLedgerInvariants(traced.resources.database.db);
    } finally {
      stream.write = write;
      await traced.close();
    }
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(5);
    for (const number of [SANDBOX_CARDS.succeeds, SANDBOX_CARDS.declined, '8642']) expect(text).not.toContain(number);
  });
});
