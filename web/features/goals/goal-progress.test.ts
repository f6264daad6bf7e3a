import { describe, expect, it } from 'vitest';
import { goalProgress } from './goal-progress';

describe('goalProgress', () => {
  it('shows coins raised of the amount and reads them out', () => {
    expect(goalProgress({ raised: 20, amount: 30 })).toEqual({ raised: 20, amount: 30, percent: 66, figures: '20 / 30 Coins', spoken: '20 of 30 coins raised' });
  });

  it('reads 100% only once the amount is raised', () => {
    expect(goalProgress({ raised: 995, amount: 1000 }).percent).toBe(99);
    expect(goalProgress({ raised: 1000, amount: 1000 }).percent).toBe(100);
  });

  it('never goes past the amount or below nothing', () => {
    expect(goalProgress({ raised: 45, amount: 30 })).toMatchObject({ raised: 30, percent: 100, figures: '30 / 30 Coins' });
    expect(goalProgress({ raised: -5, amount: 30 })).toMatchObject({ raised: 0, percent: 0 });
  });

  it('writes large figures with separators and one coin as a coin', () => {
    expect(goalProgress({ raised: 1500, amount: 1_000_000 }).figures).toBe('1,500 / 1,000,000 Coins');
    expect(goalProgress({ raised: 0, amount: 1 }).figures).toBe('0 / 1 Coin');
  });
});
