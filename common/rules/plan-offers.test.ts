import { describe, expect, it } from 'vitest';
import { MSG } from '../messages';
import { discounted, firstPeriod, isMonthlyPlan, offerName, offerState, offerTerms, perPeriod, periodNoun } from './plan-offers';

const monthly = { price: 150, period: 'RMONTH:1' };
const trial = { kind: 'trial' as const, days: 7, percent: null, months: null };
const discount = { kind: 'discount' as const, days: null, percent: 50, months: null };
const bundle = { kind: 'bundle' as const, days: null, percent: 15, months: 6 };

describe('plan offers', () => {
  it('prices and times the first period: free days, a discounted period, months at once', () => {
    expect(firstPeriod(trial, monthly)).toEqual({ price: 0, period: 'RDAY:7' });
    expect(firstPeriod(discount, monthly)).toEqual({ price: 75, period: 'RMONTH:1' });
    expect(firstPeriod(bundle, monthly)).toEqual({ price: 765, period: 'RMONTH:6' });
    expect(firstPeriod(bundle, { price: 150, period: 'CMONTH:1' })).toEqual({ price: 765, period: 'CMONTH:6' });
    expect(firstPeriod(discount, { price: 400, period: 'RMONTH:3' })).toEqual({ price: 200, period: 'RMONTH:3' });
  });

  it('rounds a discounted price to the coin and never below one coin', () => {
    expect(discounted(155, 33)).toBe(104);
    expect(discounted(1, 90)).toBe(1);
  });

  it('tells the offer in a sentence a fan reads', () => {
    expect(offerTerms(trial, monthly)).toBe('Free for 7 days, then 150 Coins a month');
    expect(offerTerms({ ...trial, days: 1 }, { price: 1500, period: 'RYEAR:1' })).toBe('Free for 1 day, then 1,500 Coins a year');
    expect(offerTerms(discount, monthly)).toBe('50% off your first month: 75 Coins, then 150 Coins a month');
    expect(offerTerms(discount, { price: 400, period: 'RMONTH:3' })).toBe('50% off your first 3 months: 200 Coins, then 400 Coins every 3 months');
    expect(offerTerms(bundle, monthly)).toBe('6 months for 765 Coins instead of 900 Coins, then 150 Coins a month');
    expect([offerName(trial), offerName(discount), offerName(bundle)]).toEqual(['7-day free trial', '50% off the first period', '6 months, 15% off']);
    expect([periodNoun('RWEEK:1'), perPeriod('DAY'), perPeriod('RWEEK:2')]).toEqual(['week', 'a day', 'every 2 weeks']);
  });

  it('offers bundles on one-month plans only', () => {
    expect(['RMONTH:1', 'CMONTH:1', 'RMONTH:3', 'RYEAR:1', 'DAY'].map(isMonthlyPlan)).toEqual([true, true, false, false, false]);
  });

  it('is open until withdrawn, past its end, or full', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    const open = { withdrawn_at: null, ends_at: '2026-06-02T00:00:00Z', max_claims: 10, claims: 9 };
    expect(offerState(open, now)).toBe('open');
    expect(offerState({ ...open, claims: 10 }, now)).toBe('full');
    expect(offerState({ ...open, ends_at: '2026-06-01T12:00:00Z' }, now)).toBe('ended');
    expect(offerState({ ...open, withdrawn_at: '2026-05-01T00:00:00Z' }, now)).toBe('withdrawn');
    expect(offerState({ withdrawn_at: null, ends_at: null, max_claims: null, claims: 1e6 }, now)).toBe('open');
    expect(MSG.offerFull).toContain('as many fans');
  });
});
