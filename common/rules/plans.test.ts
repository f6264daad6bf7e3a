import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coinsToUsd, comparePlans, discountPercent, mayCancel, mayRenew, parsePeriod, periodEnd, periodLabel, subscriberMinimum } from './plans';

const at = (iso: string) => new Date(iso);

describe('plan periods', () => {
  it('reads the spec codes, a bare DAY, and refuses the rest', () => {
    expect(parsePeriod('DAY')).toEqual({ unit: 'DAY', count: 1, calendar: false });
    expect(parsePeriod('RMONTH:3')).toEqual({ unit: 'MONTH', count: 3, calendar: false });
    expect(parsePeriod('CWEEK:2')).toEqual({ unit: 'WEEK', count: 2, calendar: true });
    for (const bad of ['MONTH', 'RMONTH:0', 'RMONTH:37', 'XDAY', 'RDAY:', 'rmonth:1', '']) expect(parsePeriod(bad)).toBeNull();
  });

  it('labels periods as the spec does', () => {
    expect(periodLabel('DAY')).toBe('Daily');
    expect(periodLabel('RWEEK:1')).toBe('Weekly');
    expect(periodLabel('CMONTH:1')).toBe('Monthly');
    expect(periodLabel('RMONTH:3')).toBe('Quarterly');
    expect(periodLabel('RYEAR:1')).toBe('Yearly');
    expect(periodLabel('RDAY:3')).toBe('Every 3 Days');
    expect(periodLabel('RWEEK:2')).toBe('Every 2 Weeks');
    expect(periodLabel('RMONTH:6')).toBe('Every 6 Months');
    expect(periodLabel('CYEAR:2')).toBe('Every 2 Years');
  });

  it('ends rolling periods a whole number of units later, the month end kept', () => {
    expect(periodEnd(at('2026-01-31T10:00:00Z'), 'RMONTH:1')).toEqual(at('2026-02-28T10:00:00Z'));
    expect(periodEnd(at('2028-01-31T10:00:00Z'), 'RMONTH:1')).toEqual(at('2028-02-29T10:00:00Z'));
    expect(periodEnd(at('2026-11-23T08:30:00Z'), 'RWEEK:1')).toEqual(at('2026-11-30T08:30:00Z'));
    expect(periodEnd(at('2026-11-23T08:30:00Z'), 'RYEAR:1')).toEqual(at('2027-11-23T08:30:00Z'));
    expect(periodEnd(at('2026-11-23T08:30:00Z'), 'DAY')).toEqual(at('2026-11-24T08:30:00Z'));
  });

  it('ends calendar periods on the boundary', () => {
    expect(periodEnd(at('2026-11-23T08:30:00Z'), 'CMONTH:1')).toEqual(at('2026-12-01T00:00:00Z'));
    expect(periodEnd(at('2026-11-23T08:30:00Z'), 'CWEEK:1')).toEqual(at('2026-11-30T00:00:00Z')); // a Monday
    expect(periodEnd(at('2026-11-23T08:30:00Z'), 'CYEAR:1')).toEqual(at('2027-01-01T00:00:00Z'));
    expect(periodEnd(at('2026-11-23T08:30:00Z'), 'CDAY:1')).toEqual(at('2026-11-24T00:00:00Z'));
  });

  it('always ends after it starts', () => {
    const codes = ['DAY', 'RDAY:2', 'CDAY:1', 'RWEEK:1', 'CWEEK:1', 'RMONTH:1', 'CMONTH:1', 'RMONTH:3', 'RYEAR:1', 'CYEAR:1'];
    fc.assert(fc.property(fc.date({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z'), noInvalidDate: true }), fc.constantFrom(...codes), (start, code) => {
      expect(periodEnd(start, code).getTime()).toBeGreaterThan(start.getTime());
    }));
  });
});

describe('subscriber prices', () => {
  it('takes the discount off the viewer minimum in steps of 10; a discount of 1 is no pay wall', () => {
    expect(subscriberMinimum(250, 0.5)).toBe(130);
    expect(subscriberMinimum(100, 0.5)).toBe(50);
    expect(subscriberMinimum(100, 0)).toBe(100);
    expect(subscriberMinimum(100, 1)).toBe(0);
    expect(subscriberMinimum(0, 0.5)).toBe(0);
    fc.assert(fc.property(fc.integer({ min: 0, max: 100 }).map((n) => n * 10), fc.double({ min: 0, max: 1, noNaN: true }), (minimum, discount) => {
      const price = subscriberMinimum(minimum, discount);
      expect(price).toBeLessThanOrEqual(minimum);
      expect(price % 10).toBe(0);
    }));
  });

  it('shows the discount as a rounded percentage and coins in dollars', () => {
    expect(discountPercent(0.333)).toBe(33);
    expect(discountPercent(0.5)).toBe(50);
    expect(coinsToUsd(150)).toBe(7.5);
    expect(coinsToUsd(1)).toBe(0.05);
  });
});

describe('plan comparison', () => {
  it('sorts by group then price, discounts per day against the group\'s first plan, and flags the best', () => {
    const plans = comparePlans([
      { plan_id: 3, group_id: 1, price: 1500, period: 'RYEAR:1' },
      { plan_id: 1, group_id: 1, price: 150, period: 'RMONTH:1' },
      { plan_id: 2, group_id: 1, price: 400, period: 'RMONTH:3' },
      { plan_id: 4, group_id: 2, price: 600, period: 'RMONTH:1' },
    ]);
    expect(plans.map((p) => p.plan_id)).toEqual([1, 2, 3, 4]);
    expect(plans.map((p) => p.discount)).toEqual([0, 11, 18, 0]);
    expect(plans.map((p) => p.bestPrice)).toEqual([false, false, true, false]);
  });
});

describe('subscription actions', () => {
  it('renews only an enabled subscription that does not renew by itself; cancels only an enabled one', () => {
    expect(mayRenew({ auto_renew: false, state: 'enabled' })).toBe(true);
    expect(mayRenew({ auto_renew: true, state: 'enabled' })).toBe(false);
    expect(mayRenew({ auto_renew: false, state: 'cancelled' })).toBe(false);
    expect(mayRenew({ auto_renew: false, state: 'deleted' })).toBe(false);
    expect(mayCancel({ state: 'enabled' })).toBe(true);
    expect(mayCancel({ state: 'cancelled' })).toBe(false);
    expect(mayCancel({ state: 'deleted' })).toBe(false);
  });
});
