import { describe, expect, it } from 'vitest';
import {
  addDays, addMonths, DATE_RANGE_PRESETS, DATE_RANGE_TEXT, daysOf, DEFAULT_DATE_RANGE_PRESET, formatOffset, isDay, localIso, presetRange,
  rangeProblem, rangeValue, utcDay,
} from './date-range';

/** Local noon, so the local day is the one written whatever the zone the tests run in. */
const at = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d!, 12);
};

describe('date range presets', () => {
  it('offers the five presets, This month first and by default', () => {
    expect(DATE_RANGE_PRESETS.map((p) => p.label)).toEqual(['This month', 'Last month', 'Last 6 month', 'This year', 'All time']);
    expect(DEFAULT_DATE_RANGE_PRESET).toBe('thisMonth');
  });

  it('counts each preset from now, up to today', () => {
    const now = at('2026-11-15');
    expect(presetRange('thisMonth', now)).toEqual({ from: '2026-11-01', to: '2026-11-15' });
    expect(presetRange('lastMonth', now)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(presetRange('last6Months', now)).toEqual({ from: '2026-05-16', to: '2026-11-15' });
    expect(presetRange('thisYear', now)).toEqual({ from: '2026-01-01', to: '2026-11-15' });
    expect(presetRange('allTime', now)).toEqual({ from: '2016-01-01', to: '2026-11-15' });
  });

  it('crosses years and short months', () => {
    expect(presetRange('lastMonth', at('2027-01-03'))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(presetRange('lastMonth', at('2028-03-31'))).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(presetRange('last6Months', at('2026-08-31'))).toEqual({ from: '2026-03-01', to: '2026-08-31' });
    expect(presetRange('thisMonth', at('2026-12-01'))).toEqual({ from: '2026-12-01', to: '2026-12-01' });
  });

  it('keeps every range inside 2016-01-01 … 2031-12-31', () => {
    const later = at('2033-05-10');
    expect(presetRange('thisMonth', later)).toEqual({ from: '2031-12-31', to: '2031-12-31' });
    expect(presetRange('allTime', later)).toEqual({ from: '2016-01-01', to: '2031-12-31' });
    expect(presetRange('last6Months', at('2016-03-10'))).toEqual({ from: '2016-01-01', to: '2016-03-10' });
  });
});

describe('custom ranges', () => {
  const now = at('2026-11-15');

  it('accepts a range inside the span, yesterday included with other days', () => {
    expect(rangeProblem({ from: '2026-11-01', to: '2026-11-14' }, now)).toBeNull();
    expect(rangeProblem({ from: '2026-11-14', to: '2026-11-15' }, now)).toBeNull();
    expect(rangeProblem({ from: '2026-11-15', to: '2026-11-15' }, now)).toBeNull();
    expect(rangeProblem({ from: '2016-01-01', to: '2031-12-31' }, now)).toBeNull();
  });

  it('refuses yesterday on its own', () => {
    expect(rangeProblem({ from: '2026-11-14', to: '2026-11-14' }, now)).toBe(DATE_RANGE_TEXT.yesterdayAlone);
    expect(rangeProblem({ from: '2026-11-13', to: '2026-11-13' }, now)).toBeNull();
  });

  it('refuses an unfinished, backwards or out-of-span range, saying why', () => {
    expect(rangeProblem({ from: '', to: '2026-11-14' }, now)).toBe(DATE_RANGE_TEXT.pickBoth);
    expect(rangeProblem({ from: '2026-02-30', to: '2026-03-01' }, now)).toBe(DATE_RANGE_TEXT.pickBoth);
    expect(rangeProblem({ from: '2026-11-10', to: '2026-11-01' }, now)).toBe('The end of the range must not be before its start');
    expect(rangeProblem({ from: '2015-12-31', to: '2026-11-01' }, now)).toBe('Must be a day from 2016-01-01 to 2031-12-31');
    expect(rangeProblem({ from: '2026-11-01', to: '2032-01-01' }, now)).toBe('Must be a day from 2016-01-01 to 2031-12-31');
  });
});

describe('what the selector emits', () => {
  it('emits the first day at midnight and the last at 23:59:59, with the local offset', () => {
    const value = rangeValue({ from: '2026-11-01', to: '2026-11-30' });
    expect(value.start).toMatch(/^2026-11-01T00:00:00[+-]\d{2}:\d{2}$/);
    expect(value.end).toMatch(/^2026-11-30T23:59:59[+-]\d{2}:\d{2}$/);
    // The same instants as the local wall clock says, whatever the zone (and its daylight saving).
    expect(new Date(value.start).getTime()).toBe(new Date(2026, 10, 1, 0, 0, 0).getTime());
    expect(new Date(value.end).getTime()).toBe(new Date(2026, 10, 30, 23, 59, 59).getTime());
    expect(new Date(localIso('2026-07-01', '00:00:00')).getTime()).toBe(new Date(2026, 6, 1).getTime());
  });

  it('reads the picked days back from what it emitted', () => {
    const range = { from: '2016-01-01', to: '2026-11-15' };
    expect(daysOf(rangeValue(range))).toEqual(range);
    expect(daysOf({ start: '2026-11-01T00:00:00+14:00', end: '2026-11-30T23:59:59-12:00' })).toEqual({ from: '2026-11-01', to: '2026-11-30' });
  });

  it('writes offsets as ±hh:mm', () => {
    expect(formatOffset(60)).toBe('+01:00');
    expect(formatOffset(0)).toBe('+00:00');
    expect(formatOffset(-330)).toBe('-05:30');
    expect(formatOffset(345)).toBe('+05:45');
  });
});

describe('day arithmetic', () => {
  it('moves by days and months on the calendar', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-11-15', -12)).toBe('2025-11-15');
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(utcDay(new Date('2026-11-15T23:30:00-05:00'))).toBe('2026-11-16');
  });
});
