import { describe, expect, it } from 'vitest';
import { coinCancelMailto } from './coin-cancel';

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
