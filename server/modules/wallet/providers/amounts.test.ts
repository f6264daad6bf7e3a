import { describe, expect, it } from 'vitest';
import { centsToDecimal, decimalToCents } from './amounts';

describe('amounts between cents and processors’ decimals', () => {
  it('writes cents as a decimal with two places', () => {
    expect([0, 5, 100, 1999, 123456].map(centsToDecimal)).toEqual(['0.00', '0.05', '1.00', '19.99', '1234.56']);
    expect(() => centsToDecimal(-1)).toThrow(RangeError);
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
  });

  it('reads a decimal as cents, rounding extra places half up, and nothing else', () => {
    expect(['19.99', '5', '5.000000', '0.005', '0.0049', ' 7.1 '].map(decimalToCents)).toEqual([1999, 500, 500, 1, 0, 710]);
    expect(decimalToCents(12.5)).toBe(1250);
    expect(['-1.00', '1e3', '', 'abc', '1.2.3'].map(decimalToCents)).toEqual([null, null, null, null, null]);
    expect(decimalToCents(undefined)).toBeNull();
  });
});
