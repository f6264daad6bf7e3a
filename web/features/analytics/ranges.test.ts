import { describe, expect, it } from 'vitest';
import { DEFAULT_TOP_RANGE, isTopRange, TOP_RANGES, topRangeDays } from './ranges';

describe('top list range menu', () => {
  it('offers the five ranges, Last 30 days by default', () => {
    expect(TOP_RANGES.map((r) => r.label)).toEqual(['Last 7 days', 'Last 30 days', 'Last 90 days', 'Last 12 months', 'All time']);
    expect(DEFAULT_TOP_RANGE).toBe('last30Days');
    expect(isTopRange('last90Days')).toBe(true);
    expect(isTopRange('yesterday')).toBe(false);
  });

  it('turns each range into from/to days ending today, today included', () => {
    const today = '2026-11-15';
    expect(topRangeDays('last7Days', today)).toEqual({ from: '2026-11-09', to: today });
    expect(topRangeDays('last30Days', today)).toEqual({ from: '2026-10-17', to: today });
    expect(topRangeDays('last90Days', today)).toEqual({ from: '2026-08-18', to: today });
    expect(topRangeDays('last12Months', today)).toEqual({ from: '2025-11-16', to: today });
    expect(topRangeDays('allTime', today)).toEqual({ from: '2016-01-01', to: today });
  });

  it('crosses month and year ends, and stays inside the span', () => {
    expect(topRangeDays('last7Days', '2027-01-02')).toEqual({ from: '2026-12-27', to: '2027-01-02' });
    expect(topRangeDays('last12Months', '2028-02-29')).toEqual({ from: '2027-03-01', to: '2028-02-29' });
    expect(topRangeDays('last90Days', '2016-02-01')).toEqual({ from: '2016-01-01', to: '2016-02-01' });
  });
});
