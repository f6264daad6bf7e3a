import { describe, expect, it } from 'vitest';
import { currentMonth, monthParam, monthTitle, shiftMonth } from './months';

describe('statement months', () => {
  const now = new Date('2026-11-29T05:00:00Z');
  it('steps across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(currentMonth(now)).toBe('2026-11');
    expect(monthTitle('2026-11')).toBe('November 2026');
  });
  it('takes a month from the address only when it is one that has started', () => {
    expect(monthParam('2026-10', now)).toBe('2026-10');
    expect(monthParam('2026-12', now)).toBe('2026-11');
    expect(monthParam('2026-13', now)).toBe('2026-11');
    expect(monthParam(null, now)).toBe('2026-11');
  });
});
