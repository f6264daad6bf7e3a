import { describe, expect, it } from 'vitest';
import { formatCents, formatCoins, signedAmount } from './wallet-amounts';

describe('money formatting', () => {
  it('shows dollars from cents', () => {
    expect(formatCents(1250, 'USD')).toBe('$12.50');
    expect(formatCents(0, 'USD')).toBe('$0.00');
    expect(formatCents(99, 'CAD')).toBe('CA$0.99');
  });

  it('counts coins with one Coin and thousands separators', () => {
    expect(formatCoins(1)).toBe('1 Coin');
    expect(formatCoins(1200)).toBe('1,200 Coins');
  });

  it('signs history amounts', () => {
    expect(signedAmount(500, 'CON')).toBe('+500 Coins');
    expect(signedAmount(-10, 'CON')).toBe('−10 Coins');
    expect(signedAmount(-499, 'USD')).toBe('−$4.99');
    expect(signedAmount(100, 'IMP')).toBe('+100 Impressions');
  });
});
