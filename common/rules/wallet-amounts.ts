/** How the wallet reads: coins and impressions as counts, dollars from cents (spec part 1 §3, part 2 §9). */
import { COINS_PER_USD } from '../constants';
import { formatCents } from './format';
import type { BALANCE_CURRENCIES } from '../api/wallet';

export type BalanceCurrency = (typeof BALANCE_CURRENCIES)[number];

const count = new Intl.NumberFormat('en-US');

/** "$12.50" / "CA$12.50" from cents: the rule the server's price_formatted uses too. */
export { formatCents };

/** "1,200 Coins", "1 Coin". */
export function formatCoins(amount: number): string {
  return `${count.format(amount)} ${Math.abs(amount) === 1 ? 'Coin' : 'Coins'}`;
}

export function formatImpressions(amount: number): string {
  return `${count.format(amount)} ${Math.abs(amount) === 1 ? 'Impression' : 'Impressions'}`;
}

/** An amount of any wallet currency without a sign. */
export function formatAmount(amount: number, currency: BalanceCurrency): string {
  switch (currency) {
    case 'CON':
      return formatCoins(amount);
    case 'IMP':
      return formatImpressions(amount);
    default:
      return formatCents(amount, currency);
  }
}

/** A history row's change: "+500 Coins", "−10 Coins", "−$4.99". */
export function signedAmount(amount: number, currency: BalanceCurrency): string {
  const sign = amount > 0 ? '+' : amount < 0 ? '−' : '';
  return `${sign}${formatAmount(Math.abs(amount), currency)}`;
}

/** What coins are worth in US cents at COINS_PER_USD (statements show both). */
export function coinsToUsdCents(coins: number): number {
  return Math.round((coins * 100) / COINS_PER_USD);
}

/** "$12.35" for 247 coins. */
export function coinsInUsd(coins: number): string {
  return formatCents(coinsToUsdCents(coins), 'USD');
}
