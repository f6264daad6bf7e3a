/** Coin and impression packages: reference data present in every installation (decision 0004). */
import { and, eq } from 'drizzle-orm';
import { COINS_PER_USD } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { conflict } from '../../platform/http/errors';
import { coinPackages, impressionPackages } from './tables';

/** 20 coins = 1 USD (docs/architecture.md §9); the largest package carries a small bulk discount. Prices in cents. */
export const COIN_PACKAGES = [
  { name: '100 Coins', coins: 100, price: 500, currency: 'USD' },
  { name: '200 Coins', coins: 200, price: 1000, currency: 'USD' },
  { name: '500 Coins', coins: 500, price: 2500, currency: 'USD' },
  { name: '1,000 Coins', coins: 1000, price: 4800, currency: 'USD' },
] as const;

/** Prices in coins. */
export const IMPRESSION_PACKAGES = [
  { name: '1,000 Impressions', impressions: 1000, price: 50 },
  { name: '5,000 Impressions', impressions: 5000, price: 200 },
  { name: '20,000 Impressions', impressions: 20000, price: 700 },
] as const;

/** Inserts the packages that are missing (by name); an operator's later changes to a package stay. */
export async function ensureWalletPackages(db: Db): Promise<void> {
  await db.insert(coinPackages).values([...COIN_PACKAGES]).onConflictDoNothing();
  await db.insert(impressionPackages).values(IMPRESSION_PACKAGES.map((p) => ({ ...p, currency: 'CON' as const }))).onConflictDoNothing();
}

/**
 * The unlisted package of exactly `coins` coins at the list rate (20 coins = 1 USD): what a plan paid on a
 * processor's page buys (decision 0059). Inactive, so the deposit page never lists it; made on first use.
 */
export async function unlistedCoinPackage(db: Db, coins: number) {
  const price = (coins * 100) / COINS_PER_USD;
  const name = `${coins.toLocaleString('en-US')} Coins for a plan`;
  await db.insert(coinPackages).values({ name, coins, price, currency: 'USD', active: false }).onConflictDoNothing();
  const [row] = await db.select().from(coinPackages).where(and(eq(coinPackages.name, name), eq(coinPackages.coins, coins), eq(coinPackages.price, price)));
  // An operator changed the row since: no payment is taken at a price nobody showed the payer.
  if (!row || !Number.isInteger(price)) throw conflict(MSG.paymentMethodUnavailable);
  return row;
}
