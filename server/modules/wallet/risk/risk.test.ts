import { describe, expect, it } from 'vitest';
import { MSG } from '../../../../common/messages';
import { brokenLimit, limitMessage, type DepositLimits, type DepositUsage } from './limits';
import { rulesScorer, type DepositAttempt, type DepositHistory } from './scorer';

const NOW = new Date('2026-12-01T12:00:00Z');
const DAY = 24 * 3600_000;
const CLEAN: DepositHistory = { succeeded: 3, refusedToday: 0, disputes: 0, otherAccountsOnCard: 0, otherAccountsOnAddress: 0 };

const attempt = (over: Partial<DepositAttempt> = {}, history: Partial<DepositHistory> = {}): DepositAttempt => ({
  userId: 7, packageId: 1, amountCents: 500, currency: 'USD', method: 'card', address: '203.0.113.5',
  card: { key: '4242:12/2030', last4: '4242' }, accountCreatedAt: new Date(NOW.getTime() - 30 * DAY),
  ...over, history: { ...CLEAN, ...history },
});

const scorer = rulesScorer({ maxCents: 50_000 });
const score = (a: DepositAttempt) => scorer.score(a, NOW);

describe('the rules-based risk scorer', () => {
  it('gives an old account with deposits behind it and nothing odd a score of 0 and no reasons', async () => {
    expect(await score(attempt())).toEqual({ score: 0, reasons: [] });
  });

  it('weighs a new account by its age, and a first deposit', async () => {
    expect(await score(attempt({ accountCreatedAt: new Date(NOW.getTime() - 3600_000) }))).toEqual({ score: 20, reasons: ['new_account'] });
    expect(await score(attempt({ accountCreatedAt: new Date(NOW.getTime() - 3 * DAY) }))).toEqual({ score: 10, reasons: ['new_account'] });
    expect(await score(attempt({ accountCreatedAt: null }, { succeeded: 0 }))).toEqual({ score: 10, reasons: ['first_deposit'] });
  });

  it('counts refused attempts today, disputes, a card other accounts paid with and an address they used, each up to its cap', async () => {
    expect((await score(attempt({}, { refusedToday: 2 }))).score).toBe(20);
    expect((await score(attempt({}, { refusedToday: 9 }))).score).toBe(30);
    expect((await score(attempt({}, { disputes: 1 }))).score).toBe(40);
    expect((await score(attempt({}, { disputes: 5 }))).score).toBe(80);
    expect((await score(attempt({}, { otherAccountsOnCard: 1 }))).score).toBe(15);
    expect((await score(attempt({}, { otherAccountsOnCard: 4 }))).score).toBe(30);
    expect((await score(attempt({}, { otherAccountsOnAddress: 2 }))).score).toBe(10);
    expect((await score(attempt({}, { otherAccountsOnAddress: 10 }))).score).toBe(20);
  });

  it('marks an amount of at least half the largest deposit allowed', async () => {
    expect(await score(attempt({ amountCents: 24_999 }))).toEqual({ score: 0, reasons: [] });
    expect(await score(attempt({ amountCents: 25_000 }))).toEqual({ score: 10, reasons: ['large_amount'] });
  });

  it('reaches the default threshold (80) only with several signals together, and never passes 100', async () => {
    const fresh = { accountCreatedAt: new Date(NOW.getTime() - 60_000) };
    // A new account's first deposit on a card two other accounts used: 60, admitted.
    expect((await score(attempt(fresh, { succeeded: 0, otherAccountsOnCard: 2 }))).score).toBe(60);
    // … after two refusals today: 80, refused.
    const testing = await score(attempt(fresh, { succeeded: 0, otherAccountsOnCard: 2, refusedToday: 2 }));
    expect(testing).toEqual({ score: 80, reasons: ['new_account', 'first_deposit', 'refused_today', 'card_on_other_accounts'] });
    const everything = await score(attempt({ ...fresh, amountCents: 40_000 }, { succeeded: 0, refusedToday: 5, disputes: 3, otherAccountsOnCard: 5, otherAccountsOnAddress: 9 }));
    expect(everything.score).toBe(100);
    expect(everything.reasons).toHaveLength(7);
  });
});

describe('the deposit limits', () => {
  const limits: DepositLimits = { maxCents: 5000, perAccount: { count: 3, cents: 6000 }, perCard: 2, perAddress: 4 };
  const idle: DepositUsage = { accountAttempts: 0, accountCents: 0, cardAttempts: 0, addressAttempts: 0 };
  const broken = (usage: Partial<DepositUsage>, amount = 500) => brokenLimit(limits, { ...idle, ...usage }, amount);

  it('lets an attempt under every limit through', () => {
    expect(broken({ accountAttempts: 2, accountCents: 5500, cardAttempts: 1, addressAttempts: 3 })).toBeNull();
  });

  it('refuses a deposit larger than the largest allowed, whatever else', () => {
    expect(broken({}, 5000)).toBeNull();
    expect(broken({}, 5001)).toBe('over_max');
  });

  it("refuses at each day's count, and an amount that would pass the account's daily amount", () => {
    expect(broken({ accountAttempts: 3 })).toBe('account_daily_count');
    expect(broken({ accountCents: 5501 })).toBe('account_daily_amount');
    expect(broken({ cardAttempts: 2 })).toBe('card_daily_count');
    expect(broken({ addressAttempts: 4 })).toBe('address_daily_count');
  });

  it('leaves the card and address limits out when the card or the address is not known', () => {
    expect(broken({ cardAttempts: null, addressAttempts: null })).toBeNull();
  });

  it('tells the payer which limit, with amounts in the currency of the package', () => {
    expect(limitMessage('over_max', limits, 'USD')).toBe('A single deposit can be at most $50.00. Please choose a smaller package.');
    expect(limitMessage('account_daily_count', limits, 'USD')).toBe(MSG.depositAccountDailyCount);
    expect(limitMessage('account_daily_amount', limits, 'CAD')).toBe("This deposit would take you past today's deposit limit of CA$60.00. Choose a smaller package or try again tomorrow.");
    expect(limitMessage('card_daily_count', limits, 'USD')).toBe(MSG.depositCardDaily);
    expect(limitMessage('address_daily_count', limits, 'USD')).toBe(MSG.depositAddressDaily);
  });
});
