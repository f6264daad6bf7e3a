import { describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { isPaid, minPrice, priceError, priceLabel, sliderPosition } from './stream-payment';

describe('priceError', () => {
  it('takes 0 to 1000 in steps of 10 on a free stream', () => {
    for (const ok of ['0', '10', '30', '100', '1000', ' 20 ']) expect(priceError(ok, 0)).toBeUndefined();
  });

  it("asks for a multiple of 10 in the spec's words", () => {
    expect(priceError('15', 0)).toBe(MSG.tipMultipleOf10);
    expect(priceError('5', 0)).toBe(MSG.tipMultipleOf10);
    expect(priceError('12.5', 0)).toBe(MSG.tipMultipleOf10);
    expect(MSG.tipMultipleOf10).toBe('Must be multiple of 10, ie. 10, 20, 100');
  });

  it('refuses negative, empty and unreadable prices as not positive', () => {
    expect(priceError('-10', 0)).toBe(MSG.tipPositive);
    expect(priceError('', 0)).toBe(MSG.tipPositive);
    expect(priceError('   ', 0)).toBe(MSG.tipPositive);
    expect(priceError('abc', 0)).toBe(MSG.tipPositive);
    expect(MSG.tipPositive).toBe('Must be a positive number');
  });

  it('caps the price at 1000', () => {
    expect(priceError('1010', 0)).toMatch(/at most 1000/);
  });

  it('keeps a paid stream paid but lets its price change', () => {
    expect(priceError('0', 30)).toBe(MSG.paidStaysPaid);
    expect(priceError('10', 30)).toBeUndefined();
    expect(priceError('50', 30)).toBeUndefined();
  });
});

describe('paid state', () => {
  it('is paid above 0 and then starts the range at 10', () => {
    expect(isPaid(0)).toBe(false);
    expect(isPaid(10)).toBe(true);
    expect(minPrice(0)).toBe(0);
    expect(minPrice(30)).toBe(10);
  });

  it('reads as the price per viewer, or Free', () => {
    expect(priceLabel(0)).toBe('Free');
    expect(priceLabel(30)).toBe('30 Coins per viewer');
    expect(priceLabel(1000)).toBe('1,000 Coins per viewer');
  });
});

describe('sliderPosition', () => {
  it('follows the typed price within the range', () => {
    expect(sliderPosition('30', 0, 0)).toBe(30);
    expect(sliderPosition('35', 0, 0)).toBe(35);
    expect(sliderPosition('5000', 0, 0)).toBe(1000);
    expect(sliderPosition('-20', 0, 0)).toBe(0);
    expect(sliderPosition('0', 30, 30)).toBe(10);
  });

  it('stays put while the field is empty or unreadable', () => {
    expect(sliderPosition('', 0, 40)).toBe(40);
    expect(sliderPosition('x', 0, 40)).toBe(40);
  });
});
