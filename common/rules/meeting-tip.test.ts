import { describe, expect, it } from 'vitest';
import { normalizeMeetingTip } from './meeting-tip';

describe('normalizeMeetingTip', () => {
  it('rounds up to a multiple of 10', () => {
    expect(normalizeMeetingTip(251)).toBe(260);
    expect(normalizeMeetingTip(1000)).toBe(1000);
    expect(normalizeMeetingTip('1234.5')).toBe(1240);
  });
  it('clamps to 250–5000', () => {
    expect(normalizeMeetingTip(10)).toBe(250);
    expect(normalizeMeetingTip(-40)).toBe(250);
    expect(normalizeMeetingTip(4995)).toBe(5000);
    expect(normalizeMeetingTip(99999)).toBe(5000);
  });
  it('falls back to the default 250 for empty or not-a-number input', () => {
    expect(normalizeMeetingTip('')).toBe(250);
    expect(normalizeMeetingTip('abc')).toBe(250);
    expect(normalizeMeetingTip(Number.NaN)).toBe(250);
  });
});
