/**
 * Stream payment (Get Paid / Set Stream Payment, spec part 1 §2, §4, §5): the price a viewer tips to
 * watch, 0–1000 coins in steps of 10. Once above 0 the stream is paid and cannot go back to free; the
 * server still takes a new positive price (server/modules/streams/service.ts updateSetup), so the
 * dashboard locks the control and offers to change it, never to 0.
 */
import { TIP_VIEWER_MIN_MAX, tipViewerMinAmount } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { breaksPaidStaysPaid, clamp, isPaid, lowestPrice } from '../../../common/rules/pay-wall';
import { formatCoins } from '../../../common/rules/wallet-amounts';

export { isPaid, PRICE_STEP } from '../../../common/rules/pay-wall';
export const PRICE_MAX = TIP_VIEWER_MIN_MAX;

/** The price as the dashboard reads it: "30 Coins per viewer", or "Free". */
export const priceLabel = (currentPrice: number): string => (isPaid(currentPrice) ? `${formatCoins(currentPrice)} per viewer` : 'Free');

/** The lowest price the slider offers: 0 while free, one step once paid. */
export const minPrice = lowestPrice;

/**
 * The message for a typed price, or undefined when it can be saved: the contract's checks (multiple of
 * 10, not negative, at most 1000), then the paid-stays-paid rule.
 */
export function priceError(text: string, currentPrice: number): string | undefined {
  const typed = text.trim();
  // z.coerce reads '' as 0: an empty field is not a price.
  const parsed = tipViewerMinAmount.safeParse(typed === '' ? Number.NaN : typed);
  if (!parsed.success) return parsed.error.issues[0]?.message;
  if (breaksPaidStaysPaid(currentPrice, parsed.data)) return MSG.paidStaysPaid;
  return undefined;
}

/** Where the slider's thumb sits for a typed price: within its range; an unreadable one leaves it at `fallback`. */
export function sliderPosition(text: string, currentPrice: number, fallback: number): number {
  const typed = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(typed)) return fallback;
  return clamp(typed, lowestPrice(currentPrice), PRICE_MAX);
}
