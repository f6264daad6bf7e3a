/**
 * Refunds and disputes of card deposits (decision 0057), over HTTP against the Stripe stand-in: coins
 * taken back as far as the wallet holds them, the rest owed through the ledger's debt account, spending
 * refused while the wallet is on hold, a later deposit paying the debt, a won dispute undone, replays
 * moving nothing, and the console's queue and refunds. Every case ends with the books checked for
 * conservation, owed coins included.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/wallet';
import { sendTip } from '../../../common/api/tips';
import type { CallOutput } from '../../../common/api/define';
import { MSG } from '../../../common/messages';
import type { TestApp, TestUser } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { expectLedgerInvariants } from '../../testing/ledger-invariants';
import { startStripeTestApp } from '../../testing/stripe-app';
import { payOnHostedPage, STANDIN_CARDS, type StripeStandin } from '../../testing/stripe-standin';
import { checkConservation, debtAccountName } from '../ledger';
import { ledgerAccounts } from '../ledger/tables';
import { payments } from './tables';

let t: TestApp;
let stripe: StripeStandin;
let pkg: CallOutput<typeof api.coinPackages>['packages'][number];
let streamId: number;
let keys = 0;

let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, stripe, close } = await startStripeTestApp());
  pkg = (await t.client().call(api.coinPackages, {})).packages[0]!;
  streamId = (await t.given.liveStream()).streamId;
});
afterAll(() => close?.());

const db = () => t.resources.database.db;
const coinsOf = async (client: HttpSession) => (await client.call(api.walletBalance, {})).balance.CON;
const holdOf = async (client: HttpSession) => (await client.call(api.walletHold, {})).hold;
const paymentRow = async (id: number) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
const debtAccount = async (userId: number) =>
  (await db().select({ balance: ledgerAccounts.balance }).from(ledgerAccounts).where(and(eq(ledgerAccounts.system, debtAccountName(userId)), eq(ledgerAccounts.currency, 'CON'))))[0]?.balance ?? 0;
const owedInBooks = async () => (await checkConservation(db())).currencies.find((c) => c.currency === 'CON')!.owed;
const tip = (client: HttpSession, amount: number) => client.send(sendTip, { stream_id: streamId, amount }, { idempotencyKey: `disputes-tip-${(keys += 1)}` });

async function buyer(): Promise<{ user: TestUser; client: HttpSession }> {
  const user = await t.given.user();
  return { user, client: await t.given.signedIn(user) };
}

/** A card deposit paid on Stripe's page: its payment and the PaymentIntent a dispute names. */
async function deposit(client: HttpSession) {
  const { checkout } = await client.call(api.depositCoins, { package_id: pkg.package_id, payment_method: 'card', return_path: '/user/account/deposit-coins' });
  const paid = await payOnHostedPage(checkout!.redirect_url, STANDIN_CARDS.succeeds);
  expect(paid.status).toBe(303);
  const session = stripe.session(checkout!.redirect_url.split('/').pop()!)!;
  return { paymentId: checkout!.payment_id, intent: String(session.payment_intent) };
}

/** A buyer who deposited once and tipped `spent` of the coins away. */
async function spender(spent: number) {
  const { user, client } = await buyer();
  const paid = await deposit(client);
  expect(await coinsOf(client)).toBe(pkg.coins);
  if (spent > 0) expect((await tip(client, spent)).status).toBe(200);
  return { user, client, ...paid };
}

describe('a dispute', () => {
  it('takes the coins back from a wallet that still holds them and holds the account while it is open', async () => {
    const { client, intent, paymentId } = await spender(0);
    const dispute = await stripe.dispute(intent);
    expect(await coinsOf(client)).toBe(0);
    expect(await holdOf(client)).toMatchObject({ on_hold: true, coins_owed: 0, open_disputes: 1 });
    expect((await paymentRow(paymentId)).refundedCents).toBe(pkg.price);
    await stripe.closeDispute(dispute, 'lost');
    // Nothing owed: a lost dispute leaves the account free, the coins gone.
    expect(await holdOf(client)).toMatchObject({ on_hold: false, coins_owed: 0, open_disputes: 0 });
    expect(await coinsOf(client)).toBe(0);
    await expectLedgerInvariants(db());
  });

  it('records what was spent as owed, holds the account, and refuses its spending until a deposit pays the debt', async () => {
    const spent = Math.floor(pkg.coins / 2);
    const { user, client, intent } = await spender(spent);
    const owedBefore = await owedInBooks();
    const dispute = await stripe.dispute(intent);
    expect(await coinsOf(client)).toBe(0);
    expect(await debtAccount(user.id)).toBe(-spent);
    expect(await owedInBooks()).toBe(owedBefore + spent);
    expect(await holdOf(client)).toMatchObject({ on_hold: true, coins_owed: spent, open_disputes: 1 });
    await expectLedgerInvariants(db());

    // Coins granted meanwhile cannot be spent either: not a tip, not impressions; and no payout.
    await t.given.coins(user, 60);
    const refused = await tip(client, 1);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ response: 'wallet_on_hold', message: MSG.walletOnHold });
    const [impressions] = (await client.call(api.getImpressionPackages, {})).impression_packages;
    const bought = await client.refusal(api.buyImpressionsPackage, { id: impressions!.package_id });
    expect(bought).toMatchObject({ status: 403, body: { response: 'wallet_on_hold' } });
    expect(await t.app.services.walletHolds.canWithdraw(user.id)).toBe(false);
    expect(await coinsOf(client)).toBe(60);

    // Lost: the debt stays, so does the hold.
    await stripe.closeDispute(dispute, 'lost');
    expect(await holdOf(client)).toMatchObject({ on_hold: true, coins_owed: spent, open_disputes: 0 });

    // The next deposit pays the debt first, in its own transfer.
    await deposit(client);
    expect(await coinsOf(client)).toBe(60 + pkg.coins - spent);
    expect(await debtAccount(user.id)).toBe(0);
    expect(await owedInBooks()).toBe(owedBefore);
    expect(await holdOf(client)).toMatchObject({ on_hold: false, coins_owed: 0 });
    expect(await t.app.services.walletHolds.canWithdraw(user.id)).toBe(true);
    expect((await tip(client, 1)).status).toBe(200);
    await expectLedgerInvariants(db());
  });

  it('gives back what it took when the platform wins it: the coins to the wallet, the debt cancelled, once', async () => {
    const spent = Math.floor(pkg.coins / 4);
    const { user, client, intent, paymentId } = await spender(spent);
    const dispute = await stripe.dispute(intent);
    expect(await holdOf(client)).toMatchObject({ on_hold: true, coins_owed: spent });
    await stripe.closeDispute(dispute, 'won');
    expect(await coinsOf(client)).toBe(pkg.coins - spent);
    expect(await debtAccount(user.id)).toBe(0);
    expect(await holdOf(client)).toMatchObject({ on_hold: false, coins_owed: 0, open_disputes: 0 });
    expect((await paymentRow(paymentId)).refundedCents).toBe(0);
    // Delivered again: nothing moves twice.
    for (const type of ['charge.dispute.created', 'charge.dispute.closed']) {
      const [event] = stripe.events.filter((e) => e.type === type && e.object.id === dispute);
      expect(await stripe.deliver(event!)).toBe(200);
    }
    expect(await coinsOf(client)).toBe(pkg.coins - spent);
    expect(await holdOf(client)).toMatchObject({ on_hold: false, coins_owed: 0 });
    expect((await tip(client, 1)).status).toBe(200);
    await expectLedgerInvariants(db());
  });

  it('moves nothing twice for a replayed dispute, and a won dispute paid in part meanwhile gives the rest to the wallet', async () => {
    const spent = Math.floor(pkg.coins / 2);
    const { user, client, intent } = await spender(spent);
    const dispute = await stripe.dispute(intent);
    const [opened] = stripe.events.filter((e) => e.type === 'charge.dispute.created' && e.object.id === dispute);
    for (let i = 0; i < 3; i++) expect(await stripe.deliver(opened!)).toBe(200);
    expect(await debtAccount(user.id)).toBe(-spent);
    expect(await coinsOf(client)).toBe(0);
    // A deposit pays the debt; the dispute is then won: all its coins come back to the wallet.
    await deposit(client);
    expect(await coinsOf(client)).toBe(pkg.coins - spent);
    await stripe.closeDispute(dispute, 'won');
    expect(await coinsOf(client)).toBe(2 * pkg.coins - spent);
    expect(await debtAccount(user.id)).toBe(0);
    await expectLedgerInvariants(db());
  });
});

describe('the console', () => {
  it('lists held accounts and a user\'s deposits to administrators only, and refunds through the processor', async () => {
    const { client: admin } = await t.given.signedInUser({ role: 'admin' });
    const { client: plain } = await t.given.signedInUser();
    for (const def of [api.heldAccounts, api.userDeposits] as const) {
      const input = def === api.userDeposits ? { username: 'someone' } : {};
      expect((await plain.refusal(def, input as never)).status).toBe(403);
      expect((await t.client().refusal(def, input as never)).status).toBe(401);
    }
    expect((await admin.refusal(api.userDeposits, {} as never)).status).toBe(400);
    expect((await admin.refusal(api.userDeposits, { username: 'no-such-user-here' })).status).toBe(404);

    const spent = Math.floor(pkg.coins / 2);
    const { user, client, paymentId } = await spender(spent);
    const found = await admin.call(api.userDeposits, { username: user.username });
    expect(found.user).toMatchObject({ user_id: user.id, on_hold: false, coins_owed: 0 });
    expect(found.deposits).toEqual([expect.objectContaining({ payment_id: paymentId, status: 'succeeded', amount: pkg.price, refunded: 0, refundable: true, coins: pkg.coins })]);

    // The whole deposit given back: the wallet holds half its coins, the other half is owed.
    const refund = await admin.call(api.refundPayment, { payment_id: paymentId });
    expect(refund).toMatchObject({ status: 'succeeded', amount: pkg.price });
    expect(await coinsOf(client)).toBe(0);
    expect(await holdOf(client)).toMatchObject({ on_hold: true, coins_owed: spent, open_disputes: 0 });
    const after = await admin.call(api.userDeposits, { username: user.username });
    expect(after.deposits[0]).toMatchObject({ refunded: pkg.price, refundable: false });
    expect(after.user).toMatchObject({ on_hold: true, coins_owed: spent });

    const { cases } = await admin.call(api.heldAccounts, {});
    expect(cases).toContainEqual(expect.objectContaining({
      user: { user_id: user.id, username: user.username }, user_coins_owed: spent, payment_id: paymentId, reason: 'refund', state: 'refunded',
      amount: pkg.price, currency: pkg.currency, coins_taken: pkg.coins - spent, coins_short: spent, case_reference: refund.refund_reference,
    }));
    expect((await tip(client, 1)).status).toBe(403);
    await expectLedgerInvariants(db());
  });
});
