import { describe, expect, it } from 'vitest';
import { spendersOf } from './holds';

const leg = (userId: number, amount: number, shard = 0) => ({ account: { userId, currency: 'CON' as const, shard }, amount });
const mint = (amount: number) => ({ account: { system: 'mint' as const, currency: 'CON' as const }, amount });

describe('who a transfer spends from (decision 0057)', () => {
  it('names the users whose wallets it debits', () => {
    expect(spendersOf({ kind: 'tip', legs: [leg(1, -5), leg(2, 5)] })).toEqual([1]);
    expect(spendersOf({ kind: 'payout', legs: [leg(3, -50), mint(50)] })).toEqual([3]);
  });

  it('names nobody for a take-back, a sweep of receiving shards, or a credit', () => {
    expect(spendersOf({ kind: 'refund', legs: [leg(1, -5), mint(5)] })).toEqual([]);
    expect(spendersOf({ kind: 'sweep', legs: [leg(1, -5, 3), leg(1, 5)] })).toEqual([]);
    expect(spendersOf({ kind: 'deposit', legs: [mint(-5), leg(1, 5)] })).toEqual([]);
  });
});
