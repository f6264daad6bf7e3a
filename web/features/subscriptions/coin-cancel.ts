/**
 * Cancelling a recurring coin package is a request mailed to support (spec part 2 §7): the mail client
 * opens addressed to support, the subject names the user, the body the package, price and begin date.
 */
import type { CoinSubscription } from '../../../common/api/subscriptions';
import { fill, MSG } from '../../../common/messages';

/** The cancel button stays disabled this long after a click (the spec's 3 s). */
export const CANCEL_REQUEST_COOLDOWN_MS = 3000;

export function coinCancelMailto(support: string, user: { username: string; user_id: number }, sub: Pick<CoinSubscription, 'product_name' | 'price_formatted' | 'start_date'>): string {
  const subject = fill(MSG.coinSubscriptionCancelSubject, { username: user.username, user_id: user.user_id });
  const body = fill(MSG.coinSubscriptionCancelBody, { package: sub.product_name, price: sub.price_formatted, begin: sub.start_date.slice(0, 10) });
  return `mailto:${support}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
