import { describe, expect, it } from 'vitest';
import { buyAttempt, packageOptions } from './impressions';

const pkg = (package_id: number, impressions: number, price: number) => ({ package_id, name: `P${package_id}`, price, currency: 'CON' as const, impressions });

describe('packageOptions', () => {
  it('does not repeat a name that is just the count', () => {
    expect(packageOptions([{ ...pkg(1, 1000, 50), name: '1,000 Impressions' }])).toEqual([{ value: '1', label: '1,000 Impressions for 50 Coins' }]);
  });

  it('lists fewest impressions first with the price in coins', () => {
    expect(packageOptions([pkg(3, 5000, 400), pkg(1, 1000, 100), pkg(2, 1000, 90)])).toEqual([
      { value: '2', label: 'P2 — 1,000 Impressions for 90 Coins' },
      { value: '1', label: 'P1 — 1,000 Impressions for 100 Coins' },
      { value: '3', label: 'P3 — 5,000 Impressions for 400 Coins' },
    ]);
  });
});

describe('buyAttempt', () => {
  let n = 0;
  const newKey = () => `k${++n}`;

  it('reuses the key of an unsettled buy of the same package', () => {
    const first = buyAttempt(null, 1, newKey);
    expect(buyAttempt(first, 1, newKey)).toBe(first);
  });

  it('takes a fresh key for another package or after a settled buy', () => {
    const first = buyAttempt(null, 1, newKey);
    expect(buyAttempt(first, 2, newKey).key).not.toBe(first.key);
    expect(buyAttempt(null, 1, newKey).key).not.toBe(first.key);
  });
});
