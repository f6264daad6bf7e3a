/**
 * Pay-wall arithmetic (spec part 1 §4, §5): what a viewer still owes to watch a paid stream, and the
 * rules of a stream's price. Server and web both use these; nothing else computes them.
 */

/** Prices and paid tips move in steps of 10 coins. */
export const PRICE_STEP = 10;

/** Coins still owed: the viewer's minimum less what they tipped on the stream, never below 0. */
export const owedTips = (minimum: number, spent: number): number => Math.max(0, minimum - spent);

/** The owed amount after a tip of `amount`, before the server's answer says more. */
export const owedAfterTip = (owed: number, amount: number): number => owedTips(owed, amount);

/** A stream is paid once its viewer minimum is above 0. */
export const isPaid = (price: number): boolean => price > 0;

/** Once paid, a stream cannot return to free (spec part 1 §4 Stream lifecycle). */
export const breaksPaidStaysPaid = (currentPrice: number, nextPrice: number): boolean => isPaid(currentPrice) && nextPrice <= 0;

export const isPriceStep = (coins: number): boolean => coins % PRICE_STEP === 0;

/** Rounded up to the next multiple of the step (a typed tip of 251 becomes 260). */
export const roundUpToStep = (coins: number, step = PRICE_STEP): number => Math.ceil(coins / step) * step;

export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/** The lowest price a stream may take now: 0 while free, one step once paid. */
export const lowestPrice = (currentPrice: number): number => (isPaid(currentPrice) ? PRICE_STEP : 0);

/** A paid post's price limits in coins (spec part 1 §5: defaults 10 and 1000). */
export const POST_PRICE = { min: 10, max: 1000 } as const;

/** A paid post's price from the typed tip: 0 stays free, else rounded up to a step and held within the limits. */
export const postPrice = (tip: number): number => (tip <= 0 ? 0 : clamp(roundUpToStep(tip), POST_PRICE.min, POST_PRICE.max));

/** What a subscriber pays for a paid post after the plan's discount (0–1), in whole steps; 0 sees it free. */
export const subscriberPrice = (price: number, discount: number): number =>
  discount >= 1 ? 0 : discount <= 0 ? price : roundUpToStep(price * (1 - discount));
