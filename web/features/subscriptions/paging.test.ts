import { describe, expect, it } from 'vitest';
import { coinCancelMailto } from './coin-cancel';
import { pagesOf, pageWindow } from './paging';

describe('the subscription paginator', () => {
  it('shows at most five page numbers around the current page, inside the range', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 9)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(5, 9)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(9, 9)).toEqual([5, 6, 7, 8, 9]);
    expect(pageWindow(8, 9)).toEqual([5, 6, 7, 8, 9]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('counts pages of five, at least one', () => {
    expect(pagesOf(0, 5)).toBe(1);
    expect(pagesOf(5, 5)).toBe(1);
    expect(pagesOf(6, 5)).toBe(2);
  });
});

describe('the coin subscription cancellation mail', () => {
  it('is addressed to support with the user in the subject and the package, price and begin date in the body', () => {
    const link = coinCancelMailto('support@limelight.example', { username: 'rita', user_id: 1000042 }, {
      product_name: '500 Coins', price_formatted: '$25.00', start_date: '2026-11-23T10:00:00.000Z',
    });
    const url = new URL(link);
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe('support@limelight.example');
    expect(url.searchParams.get('subject')).toBe('Coin subscription cancellation request - rita (1000042)');
    expect(url.searchParams.get('body')).toBe('Please cancel my coin subscription.\nPackage: 500 Coins\nPrice: $25.00\nBegin date: 2026-11-23');
  });
});
