/** Buying impressions from the dashboard (Get Popular, spec part 1 §2, §5 Buy impressions). */
import type { z } from 'zod';
import type { impressionPackage } from '../../../common/api/wallet';
import { formatCoins, formatImpressions } from '../../../common/rules/wallet-amounts';

export type ImpressionPackage = z.infer<typeof impressionPackage>;

/** The package select's options, fewest impressions first (cheapest first on a tie). */
export function packageOptions(packages: readonly ImpressionPackage[]): { value: string; label: string }[] {
  return [...packages]
    .sort((a, b) => a.impressions - b.impressions || a.price - b.price)
    .map((p) => ({ value: String(p.package_id), label: `${packageTitle(p)} for ${formatCoins(p.price)}` }));
}

/** "1,000 Impressions", or "Starter — 1,000 Impressions" when the name says something else. */
function packageTitle(p: ImpressionPackage): string {
  const count = formatImpressions(p.impressions);
  return p.name.trim() === '' || p.name.trim() === count ? count : `${p.name} — ${count}`;
}

export interface BuyAttempt {
  packageId: number;
  key: string;
}

/**
 * The Idempotency-Key of a buy: a retry of the same package after a network failure (the server may
 * have taken the coins) reuses the unsettled attempt's key; anything else gets a fresh key.
 */
export function buyAttempt(unsettled: BuyAttempt | null, packageId: number, newKey: () => string): BuyAttempt {
  return unsettled && unsettled.packageId === packageId ? unsettled : { packageId, key: newKey() };
}
