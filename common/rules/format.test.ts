import { describe, expect, it } from 'vitest';
import { coins, relativeTime, shortNumber } from './format';

describe('shortNumber', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1k'],
    [1234, '1.2k'],
    [1299, '1.2k'],
    [15_500, '15.5k'],
    [1_500_000, '1.5m'],
    [2_000_000_000, '2b'],
  ])('%d → %s', (value, text) => expect(shortNumber(value)).toBe(text));
});

describe('relativeTime', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it.each([
    ['2026-11-21T11:59:30Z', 'now'],
    ['2026-11-21T11:59:00Z', '1m'],
    ['2026-11-21T10:00:00Z', '2h'],
    ['2026-11-18T12:00:00Z', '3d'],
    ['2026-08-21T12:00:00Z', '3mo'],
    ['2024-11-21T12:00:00Z', '2y'],
    ['2026-11-22T12:00:00Z', 'now'],
  ])('%s → %s', (then, text) => expect(relativeTime(then, now)).toBe(text));
});

it('coins reads as the spec shows', () => {
  expect(coins(1)).toBe('1 Coin');
  expect(coins(20)).toBe('20 Coins');
});
